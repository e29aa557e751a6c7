/**
 * The sandbox's stored records and how they are shown on the wire.
 *
 * Stored records keep phones in E.164 and rewards without a derived status; the `*Json`
 * functions produce exactly the resource shapes of loyalty-api.md.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js';

export interface ProgramRecord {
  id: string;
  /** Stable name used to bind API keys to a programme, e.g. `coffee-club`. */
  slug: string;
  name: string;
  type: 'point';
  /** Prefix of the programme's card serial numbers. */
  serialPrefix: string;
}

export interface CustomerRecord {
  id: string;
  name: string;
  /** E.164. */
  phone: string;
  email: string | null;
  birthday: string | null;
  status: 'active';
  created_at: string;
  last_visit_at: string | null;
  /** When a correction last changed the customer; unset until then. Shown by the laravel dialect only. */
  updated_at?: string;
}

export interface CardRecord {
  id: string;
  customer_id: string;
  program_id: string;
  serial_number: string;
  status: 'active';
  visits: number;
  points: number;
  spent: number;
  /**
   * When the card was made; unset in the demo data, whose cards were made with their
   * customer. Shown by the laravel dialect only.
   */
  created_at?: string;
}

export interface RewardRecord {
  code: string;
  customer_id: string;
  card_id: string;
  name: string;
  description: string | null;
  type: 'product' | 'points';
  /** Points deducted on redemption; only for `points` rewards. */
  price: number | null;
  allowed_products: { quantity: number; products_list: string[] };
  earned_at: string;
  expires_at: string | null;
  redeemed_at: string | null;
  branch_id: string | null;
  order_reference: string | null;
}

export interface SandboxData {
  version: 1;
  programs: ProgramRecord[];
  customers: CustomerRecord[];
  cards: CardRecord[];
  rewards: RewardRecord[];
}

/** The spec's pagination `meta` on the customer search. */
export interface PageMeta {
  current_page: number;
  last_page: number;
  per_page: number;
  total: number;
}

export type RewardStatus = 'available' | 'redeemed' | 'expired';

/** ISO 8601 to the second with an explicit `+00:00` offset, as the spec asks. */
export function isoTimestamp(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

export function rewardStatus(reward: RewardRecord, now: Date): RewardStatus {
  if (reward.redeemed_at) return 'redeemed';
  if (reward.expires_at && Date.parse(reward.expires_at) <= now.getTime()) return 'expired';
  return 'available';
}

export function formatPhone(e164: string): string {
  return parsePhoneNumberFromString(e164)?.formatInternational() ?? e164;
}

export function programJson(program: ProgramRecord) {
  return { id: program.id, name: program.name, type: program.type };
}

export function cardJson(card: CardRecord, program: ProgramRecord) {
  return {
    id: card.id,
    serial_number: card.serial_number,
    status: card.status,
    program: programJson(program),
    visits: card.visits,
    points: card.points,
    spent: card.spent,
  };
}

export function rewardJson(reward: RewardRecord, now: Date) {
  return {
    code: reward.code,
    status: rewardStatus(reward, now),
    name: reward.name,
    description: reward.description,
    type: reward.type,
    ...(reward.type === 'points' ? { price: reward.price ?? 0 } : {}),
    allowed_products: {
      quantity: reward.allowed_products.quantity,
      products_list: [...reward.allowed_products.products_list],
    },
    customer_id: reward.customer_id,
    earned_at: reward.earned_at,
    expires_at: reward.expires_at,
    redeemed_at: reward.redeemed_at,
  };
}
