/**
 * The loyalty service's resources as `loyalty-api.md` specifies them, field for field
 * (snake_case), so nothing is renamed between the wire, the bridge and the renderer's cache.
 * Part of the bridge contract (contract.ts re-exports them).
 */

export interface Program {
  id: string;
  name: string;
  /** `point` is the only value the spec shows; others are displayed as they come. */
  type: string;
}

/**
 * The fields the till only shows are null where the service's value could not be read
 * (docs/service-reading.md): the card is kept, the value is shown as unknown.
 */
export interface Card {
  id: string;
  serial_number: string | null;
  status: string;
  program: Program;
  visits: number | null;
  points: number;
  spent: number | null;
}

export interface AllowedProducts {
  quantity: number;
  products_list: string[];
}

export interface Reward {
  /** `RW-` followed by alphanumerics. */
  code: string;
  /** `available` or `redeemed` per the spec; a service may add others (the sandbox adds `expired`). */
  status: string;
  name: string;
  description: string | null;
  /** `product` per the spec; the sandbox also has `points` rewards that carry a `price`. */
  type: string;
  /** Null where the service's value could not be read. */
  allowed_products: AllowedProducts | null;
  customer_id: string;
  earned_at: string | null;
  expires_at: string | null;
  redeemed_at: string | null;
  /** Points deducted from the card on redemption, for a points-type reward. Not in the spec. */
  price?: number;
}

export interface Customer {
  id: string;
  name: string;
  /** International grouped form, e.g. `+966 50 123 4567`. */
  phone: string;
  /** The spec types it as a string; a service may send null (the sandbox does when unset). */
  email: string | null;
  /** YYYY-MM-DD or null. */
  birthday: string | null;
  status: string;
  cards: Card[];
  created_at: string | null;
  last_visit_at: string | null;
  /** Present only on single-customer retrieval: the rewards awaiting redemption. */
  rewards?: Reward[];
}

export interface PageMeta {
  current_page: number;
  last_page: number;
  per_page: number;
  total: number;
}
