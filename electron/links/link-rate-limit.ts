/**
 * How many links the till takes in a given time: a token bucket. A POS sends one link per
 * sale, seconds apart; a web page that opens `loyalty-till://` links in a loop must not be
 * able to keep the till's screen changing, nor fill its log.
 */
export interface LinkRateLimit {
  /** True when a link arriving now may be taken. */
  take(): boolean;
}

export interface LinkRateLimitOptions {
  /** Links that may arrive together (a double click on the POS button, say). */
  burst: number;
  /** One more link is allowed after each of these intervals. */
  refillMs: number;
  now?: () => number;
}

export const DEFAULT_LINK_RATE: Readonly<LinkRateLimitOptions> = Object.freeze({ burst: 3, refillMs: 2000 });

export function createLinkRateLimit(options: LinkRateLimitOptions = DEFAULT_LINK_RATE): LinkRateLimit {
  const now = options.now ?? Date.now;
  let tokens = options.burst;
  let last = now();
  return {
    take() {
      const at = now();
      // A clock that goes back (the till's time corrected) refills nothing rather than everything.
      const elapsed = Math.max(0, at - last);
      last = at;
      tokens = Math.min(options.burst, tokens + elapsed / options.refillMs);
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    },
  };
}
