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
