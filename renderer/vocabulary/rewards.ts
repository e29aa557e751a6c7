/**
 * The codes of a reward checked and redeemed at the counter, as the offline core answers them
 * (offline/rewards/, offline/outbox/, offline/counter/) and the words read them
 * (lib/rewards-words.ts, lib/counter-words.ts, lib/outbox-words.ts): reasons with the data
 * their words need, never words.
 */

/** What an offline check of a reward code found in the cache. */
export type OfflineVerdict =
  | 'available' // the cache holds it as available: it may be queued for redemption
  | 'pending' // a redemption of it is already queued on this till
  | 'redeemed'
  | 'expired'
  | 'no_longer_listed' // the customer's latest record no longer lists it (redeemed or expired meanwhile)
  | 'wrong_customer' // the code belongs to another phone (the service answers "not found" here)
  | 'unverifiable' // not in the cache: cannot be verified offline
  | 'invalid_phone';

/** Another till of the shop that claimed a reward (its name), and when by its clock. */
export interface ClaimHolder {
  till: string;
  at: string;
}

/** Fields the outbox refused to queue, by the service's names of them. */
export interface QueueFieldProblems {
  name?: { problem: 'missing' };
  phone?: { problem: 'incomplete' };
  birthday?: { problem: 'not_a_date' };
  order_reference?: { problem: 'too_long'; max: number };
}

/**
 * A redemption the counter refused, and why: the shop's ledger (claimed elsewhere, a split
 * shop), this till's queue (already queued), or the outbox's own refusals.
 */
export type RedeemRefusal =
  | { reason: 'claimed_elsewhere'; claimedBy: ClaimHolder }
  | { reason: 'shop_split'; unreachableTills: readonly string[] }
  | { reason: 'already_queued' }
  | { reason: 'offline_redemption_disabled' }
  | { reason: 'not_available'; check?: { verdict: OfflineVerdict } }
  | { reason: 'invalid_input' }
  | { reason: 'not_kept' };
