/**
 * Switches that make the sandbox misbehave on purpose, for tests of the till's offline and
 * retry logic. All off by default; rates are probabilities from 0 to 1 per request.
 */
export interface FaultSettings {
  /** Added before every request is handled. */
  latencyMs: number;
  /** Answer 500 without doing anything. */
  errorRate: number;
  /** Drop the connection without doing anything (the client sees a reset). */
  dropRate: number;
  /** Do the work (a redemption commits), then drop the connection instead of answering. */
  commitThenDropRate: number;
  /** Do the work, then answer 503 with the dialect's server-error body instead of the answer. */
  commitThenErrorRate: number;
  /**
   * Do the work, then answer 200 with a body no client can read: the first half of the JSON
   * text the answer (success or error) would have had, still labelled application/json.
   */
  commitThenGarbleRate: number;
  /** Answer 429 with `Retry-After` without doing anything. */
  rateLimitRate: number;
  retryAfterSeconds: number;
  /** Sent as `Retry-After` verbatim instead of `retryAfterSeconds` (e.g. an HTTP date). */
  retryAfterHeader: string | null;
  /**
   * Reset the connection (TCP RST) before reading the request: a new connection as soon as it
   * is accepted, a kept-alive one as soon as the next request's headers arrive.
   */
  resetOnConnectRate: number;
  /**
   * Refuse a redemption (POST /v1/rewards/redeem) with 422 `validation_failed` without doing
   * anything: a queued redemption that the service will never accept, whatever the till's own
   * checks found. Other requests are answered as usual.
   */
  refuseRedeemRate: number;
}

export type FaultDecision =
  'none' | 'error' | 'drop' | 'commit_then_drop' | 'commit_then_error' | 'commit_then_garble' | 'rate_limit';

const NONE: FaultSettings = {
  latencyMs: 0,
  errorRate: 0,
  dropRate: 0,
  commitThenDropRate: 0,
  commitThenErrorRate: 0,
  commitThenGarbleRate: 0,
  rateLimitRate: 0,
  retryAfterSeconds: 1,
  retryAfterHeader: null,
  resetOnConnectRate: 0,
  refuseRedeemRate: 0,
};

export class FaultSwitches {
  private settings: FaultSettings = { ...NONE };

  constructor(private readonly random: () => number = Math.random) {}

  set(changes: Partial<FaultSettings>): void {
    this.settings = { ...this.settings, ...changes };
  }

  reset(): void {
    this.settings = { ...NONE };
  }

  current(): Readonly<FaultSettings> {
    return this.settings;
  }

  /** Whether to reset a connection just accepted (its own draw, before any request). */
  resetOnConnect(): boolean {
    return this.settings.resetOnConnectRate > 0 && this.random() < this.settings.resetOnConnectRate;
  }

  /** Whether to refuse this redemption for good (its own draw, redemptions only). */
  refuseRedeem(): boolean {
    return this.settings.refuseRedeemRate > 0 && this.random() < this.settings.refuseRedeemRate;
  }

  /** One draw per request, so the rates add up to the chance that anything goes wrong. */
  decide(): FaultDecision {
    const { errorRate, dropRate, commitThenDropRate, commitThenErrorRate, commitThenGarbleRate, rateLimitRate } =
      this.settings;
    let draw = this.random();
    for (const [rate, decision] of [
      [dropRate, 'drop'],
      [errorRate, 'error'],
      [rateLimitRate, 'rate_limit'],
      [commitThenDropRate, 'commit_then_drop'],
      [commitThenErrorRate, 'commit_then_error'],
      [commitThenGarbleRate, 'commit_then_garble'],
    ] as const) {
      if (draw < rate) return decision;
      draw -= rate;
    }
    return 'none';
  }
}
