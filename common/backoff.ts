/**
 * Exponential back-off with jitter, the one formula both runtimes use: the main process's
 * GET retries and the renderer's replayer, cache refresh and connection probe. The jitter
 * spreads tills that lost the network together, so they do not all come back at the same
 * second.
 */
export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
}

/**
 * Delay before try number `failures + 1`: the exponential step, capped, then "equal
 * jitter" (half fixed, half random) so a delay is never close to zero.
 */
export function backoffDelay(failures: number, policy: BackoffPolicy, random: () => number = Math.random): number {
  const step = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, failures - 1));
  return Math.round(step / 2 + random() * (step / 2));
}

/**
 * The longest wait a `Retry-After` may impose: a service (or a proxy) may send any number or
 * any date, and a timer past 2^31 ms fires at once. Both runtimes cap with this one value.
 */
export const MAX_RETRY_AFTER_MS = 60 * 60_000;

/** A `Retry-After` as a wait the till will keep: 0 when absent or unreadable, at most an hour. */
export function boundedRetryAfter(retryAfterMs: number | undefined): number {
  if (typeof retryAfterMs !== 'number' || !Number.isFinite(retryAfterMs) || retryAfterMs <= 0) return 0;
  return Math.min(MAX_RETRY_AFTER_MS, retryAfterMs);
}
