/**
 * What every operation of the bridge answers: a success with its data, or a failure with a
 * `BridgeError` of one of the kinds below, never a thrown error; and when a redemption was
 * made, for reconciling a lost answer. Part of the bridge contract (contract.ts re-exports them).
 */

import type { GuardedAction } from './guarded-actions';
import type { Customer, PageMeta } from './service-resources';

export const ERROR_KINDS = [
  'offline', // the service could not be reached (network down, DNS, connection refused or reset)
  'timeout', // the service was reached but did not answer in time
  'unauthorized', // 401/403, or no API key configured
  'not_found', // 404: unknown customer, unknown or mismatched reward code
  'validation', // 400/413/415/422 other than reward_unavailable, or a payload the bridge refused
  'reward_unavailable', // 422 reward_unavailable: already redeemed, expired, or otherwise not available
  'rate_limited', // 429; `retryAfterMs` says when to try again where the service told us
  'server', // 5xx
  'bad_response', // an answer we cannot read: HTML, malformed JSON, wrong envelope
] as const;

export type ErrorKind = (typeof ERROR_KINDS)[number];

export interface BridgeError {
  kind: ErrorKind;
  /** Plain words, safe to show and log: never contains the API key. */
  message: string;
  /** HTTP status, when there was a response. */
  status?: number;
  /** The service's own error code when it sent one (e.g. `reward_unavailable`). */
  code?: string;
  /** Field name -> message, for validation errors, shown beside the field. */
  fields?: Record<string, string>;
  /** From `Retry-After`, for `rate_limited`; capped (a hostile or broken value never means "for ever"). */
  retryAfterMs?: number;
  /** For `manager_pin_required`: the guarded action refused, so the page names it when it asks the PIN. */
  action?: GuardedAction;
  /** For `work_waiting`: how many items wait in the outbox that forgetting the till's data would lose. */
  waiting?: number;
}

/**
 * When one request to the service was made, for reconciling a lost answer. Times are
 * milliseconds: `local*` on the main process's monotonic clock, the others on the service's
 * clock as estimated from the `Date` headers of its answers (null while it is not known).
 */
export interface AttemptTiming {
  localStart: number;
  localEnd: number;
  /** Just before the request was handed to the network, on the service's clock. */
  start: number | null;
  /** When the answer came or the till gave up on it, on the service's clock. */
  end: number | null;
  /** Both service times are true to within this many ms. */
  uncertaintyMs: number | null;
  /**
   * Whether the whole request was written to the connection. False when the connection
   * failed before that: the service cannot have acted on it.
   */
  requestSent: boolean;
}

/** The service's clock as this till estimates it (see electron/service/service-clock.ts). */
export interface ServiceClockReading {
  /** service time = local (monotonic) time + offsetMs; null while unknown. */
  offsetMs: number | null;
  uncertaintyMs: number | null;
  /** service time - this till's own clock: how far off the till's clock is; null while unknown. */
  tillClockOffMs: number | null;
  /** Now on the main process's monotonic clock, the scale of `AttemptTiming.local*`. */
  localNow: number;
  /** The longest one request may take before the till gives up on it. */
  requestTimeoutMs: number;
}

export interface Success<T> {
  ok: true;
  data: T;
  /** HTTP status of the service's answer, where one was made (201 vs 200 on register). */
  status?: number;
  /** The service's human-readable `message`, where it sent one. */
  message?: string;
  /** When the request was made (redemptions only). */
  attempt?: AttemptTiming;
}

export interface Failure {
  ok: false;
  error: BridgeError;
  /** When the request was made and whether it was completely sent (redemptions only). */
  attempt?: AttemptTiming;
}

export type Result<T> = Success<T> | Failure;

/**
 * In a list, a record the till cannot read is left out and counted, never the page:
 * `skipped` says how many (absent when none).
 */
export interface Skipped {
  skipped?: number;
}

/** Search results carry the service's pagination. */
export type SearchResult = (Success<Customer[]> & { meta: PageMeta } & Skipped) | Failure;

/**
 * One page of the whole customer list, for the cache refresh: with the service's entity
 * tag where it sent one, or `notModified` when the tag the till sent still matches (304),
 * in which case the till keeps what it stored for that page.
 */
export type CustomerPageResult =
  | (Success<Customer[]> & { meta: PageMeta; etag?: string; notModified?: false } & Skipped)
  | (Success<null> & { notModified: true; etag?: string; status: 304 })
  | Failure;
