/**
 * What the till sends the loyalty service through the bridge, mirroring the service's request
 * fields (`loyalty-api.md`), and what a registration and a redemption answer. Part of the
 * bridge contract (contract.ts re-exports them).
 */

import type { Card, Customer, Reward } from './service-resources';

export interface SearchCustomersPayload {
  /** Exact phone: international (`+...`), or local together with `country_code`. */
  phone?: string;
  /** Dialling code without `+`, e.g. `966`. */
  country_code?: string;
  /** Part of a name or number. */
  search?: string;
  /** From 1. */
  page?: number;
  /** 1..100, default 20. */
  per_page?: number;
}

export interface CustomerPagePayload {
  /** From 1. */
  page: number;
  /** 1..100. */
  per_page: number;
  /** The entity tag stored with this page: a 304 answer means it has not changed. */
  if_none_match?: string;
}

export interface GetCustomerPayload {
  id: string;
}

export interface RegisterCustomerPayload {
  name: string;
  phone: string;
  country_code?: string;
  email?: string;
  birthday?: string;
}

export interface RegisterOutcome {
  customer: Customer;
  /** true when the service created the customer (201), false when the phone was known (200). */
  created: boolean;
}

/** The phone is the identity and cannot be corrected: it is not part of this payload. */
export interface UpdateCustomerPayload {
  id: string;
  name?: string;
  /** null removes the email; absent leaves it as it is. */
  email?: string | null;
  /** null removes the birthday; absent leaves it as it is. */
  birthday?: string | null;
}

export interface CheckRewardPayload {
  reward_code: string;
  phone: string;
  country_code?: string;
}

export interface RedeemRewardPayload {
  reward_code: string;
  phone: string;
  country_code?: string;
  branch_id?: string;
  order_reference?: string;
}

/**
 * A 2xx to a redeem is the truth that the service redeemed, even when its body cannot be read
 * in full: then the part that could not be read is null, and the till says so.
 */
export interface Redemption {
  reward: Reward | null;
  card: Card | null;
}
