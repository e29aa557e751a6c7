/**
 * The loyalty service's clock, as seen from this till.
 *
 * Reconciling a lost answer compares the service's `redeemed_at` with the times of this
 * till's own attempts, so those times must be on the service's clock: till clocks drift,
 * and a till outside a domain is often minutes off. Every answer carries an HTTP `Date`
 * header. It was written some time between our sending the request and our receiving the
 * answer, and it is truncated to the second, so one answer says:
 *
 *   Date - received  <=  service - local  <=  Date + 1 s - sent
 *
 * The estimate is the intersection of the newest answers that agree with each other (an
 * answer that contradicts older ones means a clock was changed: the older ones are dropped).
 * Its midpoint is the offset and its half-width the uncertainty.
 *
 * "Local" is a monotonic clock (`performance`), so a cashier or NTP changing the wall clock
 * in the middle of a session does not bend the attempt times; the wall clock's own offset is
 * kept apart, for the "this till's clock is wrong" warning.
 */

/** Answers older than this no longer narrow the estimate: both clocks drift. */
const SAMPLE_MAX_AGE_MS = 10 * 60_000;
const MAX_SAMPLES = 32;

interface Sample {
  /** Bounds of service - local (monotonic), in ms. */
  low: number;
  high: number;
  /** Local (monotonic) time of the answer. */
  at: number;
}

export interface ClockEstimate {
  /** service time = local (monotonic) time + offsetMs. */
  offsetMs: number;
  /** The true offset lies within offsetMs ± uncertaintyMs. */
  uncertaintyMs: number;
  /** service time - this machine's wall clock (what the till shows and prints). */
  wallOffsetMs: number;
  /** Local (monotonic) time of the newest answer the estimate rests on. */
  observedAt: number;
}

export interface ServiceClockOptions {
  /** Monotonic milliseconds on the epoch scale; `performance.timeOrigin + performance.now()` by default. */
  monotonicNow?: () => number;
  /** The wall clock; `Date.now` by default. */
  wallNow?: () => number;
}

export class ServiceClock {
  private samples: Sample[] = [];
  readonly monotonicNow: () => number;
  readonly wallNow: () => number;

  constructor(options: ServiceClockOptions = {}) {
    this.monotonicNow = options.monotonicNow ?? (() => performance.timeOrigin + performance.now());
    this.wallNow = options.wallNow ?? Date.now;
  }

  /**
   * Learns from one answer. `sentAt` and `receivedAt` are monotonic times taken just before
   * the request left and just after the answer's headers arrived. An absent or unreadable
   * `Date` header teaches nothing.
   */
  observe(dateHeader: string | undefined, sentAt: number, receivedAt: number): void {
    if (!dateHeader) return;
    const date = Date.parse(dateHeader);
    if (Number.isNaN(date) || receivedAt < sentAt) return;
    const sample: Sample = {
      low: date - receivedAt,
      high: date + 1000 - sentAt,
      at: receivedAt,
    };
    this.samples.push(sample);
    if (this.samples.length > MAX_SAMPLES) this.samples.shift();
  }

  /** The current estimate, or null when no answer with a `Date` header has been seen lately. */
  estimate(): ClockEstimate | null {
    const now = this.monotonicNow();
    this.samples = this.samples.filter((sample) => now - sample.at <= SAMPLE_MAX_AGE_MS);
    const newest = this.samples.at(-1);
    if (!newest) return null;
    let low = newest.low;
    let high = newest.high;
    for (let i = this.samples.length - 2; i >= 0; i--) {
      const older = this.samples[i]!;
      const nextLow = Math.max(low, older.low);
      const nextHigh = Math.min(high, older.high);
      // Disagreement: a clock moved between these answers; what came before no longer counts.
      if (nextLow > nextHigh) {
        this.samples = this.samples.slice(i + 1);
        break;
      }
      low = nextLow;
      high = nextHigh;
    }
    const offsetMs = (low + high) / 2;
    return {
      offsetMs: Math.round(offsetMs),
      uncertaintyMs: Math.ceil((high - low) / 2),
      // service - wall = (service - monotonic) + (monotonic - wall), both read now.
      wallOffsetMs: Math.round(offsetMs + now - this.wallNow()),
      observedAt: newest.at,
    };
  }
}
