/**
 * What a points reward takes from the card, said before the irreversible "Order paid —
 * redeem" and after it. The service deducts a points reward's price from "the customer's
 * card" without naming the card, so the balance left is given only for a card known to be
 * the one charged: the card in this till's programme, or the customer's only card. Otherwise
 * the price alone is said, never a guess at a balance.
 */
import type { Card, Reward } from '../../common/contract';
import { cardsForTill } from './till-programme';

export interface RedeemCost {
  /** Points the redemption takes. */
  points: number;
  /** Points the card keeps afterwards; null when which card pays is not known. */
  left: number | null;
}

export function redeemCost(
  reward: Reward | null,
  cards: readonly Card[] | null | undefined,
  tillProgramId: string | null,
): RedeemCost | null {
  if (!reward || reward.type !== 'points' || reward.price === undefined || reward.price <= 0) return null;
  const { headline } = cardsForTill(cards ?? [], tillProgramId);
  const card = headline.length === 1 ? headline[0] : undefined;
  return { points: reward.price, left: card ? card.points - reward.price : null };
}
