/**
 * What the customer display shows, built from what the till holds: a pure function, so that
 * what can reach the glass is decided in one place and tested. It copies only what the model
 * has a field for (common/display-model.ts): a first name and an initial, programme names and
 * points, reward names, descriptions, products and expiry days. Never a phone, an email, a
 * birthday, a reward code, an id, an order reference or a note.
 */
import type { Card, Customer, Redemption, Reward } from '../../common/contract';
import type { DisplayCard, DisplayPoints, DisplayReward, DisplayView } from '../../common/display-model';
import { cardsForTill } from './till-programme';

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/** "Sara Al-Harbi" → "Sara A."; one word stays as it is. Never the whole name. */
export function firstNameAndInitial(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const [first = '', ...rest] = words;
  const last = rest.at(-1);
  const initial = last ? [...last][0] : undefined;
  return initial ? `${first} ${initial}.` : first;
}

/** The day of an ISO time on the till's calendar, YYYY-MM-DD. */
function localDay(iso: string): string | null {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return null;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}

export function displayReward(reward: Reward, now: Date): DisplayReward {
  const expires = reward.expires_at ? new Date(reward.expires_at).getTime() : NaN;
  return {
    name: reward.name,
    description: reward.description,
    products: reward.allowed_products
      ? { quantity: reward.allowed_products.quantity, choices: reward.allowed_products.products_list.length }
      : null,
    expiresOn: reward.expires_at ? localDay(reward.expires_at) : null,
    expiresThisWeek: Number.isFinite(expires) && expires >= now.getTime() && expires - now.getTime() <= WEEK_MS,
  };
}

export function displayCards(cards: readonly Card[], tillProgramId: string | null): DisplayCard[] {
  return cardsForTill(cards, tillProgramId).ordered.map((card) => ({
    programme: card.program.name,
    points: card.points,
  }));
}

/** The card a points reward is paid from, as the till's cost line reads it. */
function pointsOf(reward: Reward | null, cards: readonly Card[], tillProgramId: string | null): DisplayPoints | null {
  if (!reward || reward.type !== 'points' || !reward.price || reward.price <= 0) return null;
  const { headline } = cardsForTill(cards, tillProgramId);
  const card = headline.length === 1 ? headline[0] : undefined;
  return card ? { before: card.points, after: card.points - reward.price, cost: reward.price } : null;
}

/** What the till's stores hold, as far as the display needs it. */
export interface TillScene {
  screen: string;
  blanked: boolean;
  /** A phone typed on the display is being looked up. */
  lookingUp: boolean;
  /** The last phone typed on the display matched nobody (the cashier sees Register). */
  notFound: boolean;
  customer: Customer | null;
  tillProgramId: string | null;
  reward: {
    checked: Reward | null;
    /** The cache's verdict while offline, or null. */
    offlineVerdict: string | null;
    redemption: Redemption | null;
    /** The reward and card before a redemption queued offline. */
    queued: boolean;
    /**
     * A redemption refused: `used` when the service, another till of the shop or this till's
     * outbox already has it; `other` for any other refusal (offline redemption off, the shop split).
     */
    refused: 'used' | 'other' | null;
    customer: Customer | null;
  };
  now: Date;
}

export function displayView(scene: TillScene): DisplayView {
  if (scene.blanked) return { kind: 'blank' };
  if (scene.lookingUp) return { kind: 'looking-up' };
  const { reward: r, now } = scene;
  if (scene.screen === 'reward') {
    const known = r.redemption?.reward ?? r.checked;
    const cards = r.customer?.cards ?? [];
    if (r.redemption && known) {
      const card = r.redemption.card;
      const points =
        card && known.type === 'points' && known.price
          ? { before: card.points + known.price, after: card.points, cost: known.price }
          : null;
      return { kind: 'redeemed', reward: displayReward(known, now), points, queued: false };
    }
    if (r.queued && known)
      return {
        kind: 'redeemed',
        reward: displayReward(known, now),
        points: pointsOf(known, cards, scene.tillProgramId),
        queued: true,
      };
    if (r.refused === 'used' && known) return { kind: 'refused', reward: displayReward(known, now) };
    if (r.refused === 'other' && known)
      return {
        kind: 'check',
        reward: displayReward(known, now),
        verdict: known.status === 'expired' ? 'expired' : 'unavailable',
      };
    if (known) return { kind: 'check', reward: displayReward(known, now), verdict: verdictOf(known, r.offlineVerdict) };
    if (r.customer) return customerView(r.customer, scene);
    return { kind: 'idle' };
  }
  if ((scene.screen === 'customer' || scene.screen === 'correct') && scene.customer)
    return customerView(scene.customer, scene);
  if (scene.notFound && scene.screen === 'register') return { kind: 'not-found' };
  return { kind: 'idle' };
}

function customerView(customer: Customer, scene: TillScene): DisplayView {
  return {
    kind: 'customer',
    name: firstNameAndInitial(customer.name),
    cards: displayCards(customer.cards, scene.tillProgramId),
    rewards: (customer.rewards ?? []).map((reward) => displayReward(reward, scene.now)),
  };
}

function verdictOf(reward: Reward, offlineVerdict: string | null): Extract<DisplayView, { kind: 'check' }>['verdict'] {
  if (offlineVerdict !== null) {
    if (offlineVerdict === 'available') return 'available-offline';
    if (offlineVerdict === 'redeemed' || offlineVerdict === 'pending') return 'used';
    if (offlineVerdict === 'expired') return 'expired';
    return 'unavailable';
  }
  if (reward.status === 'available') return 'available';
  if (reward.status === 'redeemed') return 'used';
  if (reward.status === 'expired') return 'expired';
  return 'unavailable';
}
