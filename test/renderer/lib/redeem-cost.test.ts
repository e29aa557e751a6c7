import { describe, expect, it } from 'vitest';
import type { Reward } from '../../../common/contract';
import { redeemCost } from '../../../renderer/lib/redeem-cost';
import { COFFEE_CLUB_ID, bakeryCard, card } from '../support/fake-till';

function reward(type: string, price?: number): Reward {
  return {
    code: 'RW-LAYLA002',
    status: 'available',
    name: 'Breakfast for points',
    description: null,
    type,
    allowed_products: { quantity: 1, products_list: [] },
    customer_id: 'c1',
    earned_at: null,
    expires_at: null,
    redeemed_at: null,
    ...(price === undefined ? {} : { price }),
  };
}

describe('what a redemption takes from the card', () => {
  it("gives the price and the balance left on this till's programme's card", () => {
    expect(redeemCost(reward('points', 50), [bakeryCard(40), card(180)], COFFEE_CLUB_ID)).toEqual({
      points: 50,
      left: 130,
    });
  });

  it("gives the balance left on the customer's only card when no programme is chosen", () => {
    expect(redeemCost(reward('points', 50), [card(180)], null)).toEqual({ points: 50, left: 130 });
  });

  it('gives the price alone when which card pays is not known: several cards, none chosen', () => {
    expect(redeemCost(reward('points', 50), [bakeryCard(40), card(180)], null)).toEqual({ points: 50, left: null });
    // A programme chosen that the customer has no card in: no card is claimed either.
    expect(redeemCost(reward('points', 50), [bakeryCard(40)], COFFEE_CLUB_ID)).toEqual({ points: 50, left: null });
    // No customer on screen (a code checked with a typed phone).
    expect(redeemCost(reward('points', 50), null, COFFEE_CLUB_ID)).toEqual({ points: 50, left: null });
  });

  it('says nothing for a reward that costs no points', () => {
    expect(redeemCost(reward('product'), [card(180)], null)).toBeNull();
    expect(redeemCost(reward('points'), [card(180)], null)).toBeNull();
    expect(redeemCost(reward('points', 0), [card(180)], null)).toBeNull();
    expect(redeemCost(null, [card(180)], null)).toBeNull();
  });
});
