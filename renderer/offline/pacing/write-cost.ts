/**
 * What a write transaction of n customers costs on this till, learnt from the ones it made:
 * a fixed part (opening, the round trips, the commit) plus a part per customer.
 *
 * Why two parts: under load the fixed part is most of a short transaction (about 8 ms
 * against 0.07 ms a customer on a busy two-core till,
 * docs/decisions/2026-11-23-writes-fitted-to-pauses.md), so an average cost per customer
 * overrates big transactions and underrates small ones. Sized by such an average, the
 * refresh cut its writes ever smaller as the cashier's pauses shrank, paid the fixed part
 * hundreds of times more, and overran the pauses it meant to fit.
 *
 * The two parts are a least-squares line through the last WINDOW transactions. When their
 * sizes are too alike to tell the parts apart, the per-customer part is kept and the fixed
 * part follows the times. The fixed part is never above the quickest transaction's time.
 */

/** Transactions the line is fitted to: enough to smooth one slow commit, few enough to follow the load. */
const WINDOW = 32;
/** Below this spread of sizes (customers), a fitted slope is noise. */
const MIN_SIZE_SPREAD = 8;
/** Bounds that keep one odd sample from making the model absurd. */
const MS_PER_CUSTOMER_RANGE = [0.01, 5] as const;
const FIXED_MS_RANGE = [0, 100] as const;

export interface WriteCost {
  fixedMs: number;
  msPerCustomer: number;
}

/** Until a transaction has been timed: roughly a quiet till's. */
export const FIRST_WRITE_COST: WriteCost = { fixedMs: 4, msPerCustomer: 0.1 };

const clamp = (value: number, [low, high]: readonly [number, number]) => Math.min(high, Math.max(low, value));

export class WriteCostModel {
  private readonly samples: { customers: number; ms: number }[] = [];
  private cost: WriteCost;

  constructor(first: WriteCost = FIRST_WRITE_COST) {
    this.cost = { ...first };
  }

  get current(): WriteCost {
    return { ...this.cost };
  }

  /** A committed transaction of `customers` customers took `ms`. */
  observe(customers: number, ms: number): void {
    if (!(customers > 0) || !(ms >= 0)) return;
    this.samples.push({ customers, ms });
    if (this.samples.length > WINDOW) this.samples.shift();
    const n = this.samples.length;
    const meanCustomers = this.samples.reduce((sum, s) => sum + s.customers, 0) / n;
    const meanMs = this.samples.reduce((sum, s) => sum + s.ms, 0) / n;
    let spread = 0;
    let covariance = 0;
    for (const s of this.samples) {
      spread += (s.customers - meanCustomers) ** 2;
      covariance += (s.customers - meanCustomers) * (s.ms - meanMs);
    }
    const slope =
      Math.sqrt(spread / n) >= MIN_SIZE_SPREAD
        ? clamp(covariance / spread, MS_PER_CUSTOMER_RANGE)
        : this.cost.msPerCustomer;
    // No transaction can cost less than the fixed part: noise that tilts the line flat must
    // not make every transaction look as dear as the slowest.
    const quickest = Math.min(...this.samples.map((s) => s.ms));
    const fixedMs = Math.min(quickest, clamp(meanMs - slope * meanCustomers, FIXED_MS_RANGE));
    this.cost = { msPerCustomer: slope, fixedMs };
  }

  /** The expected time of a transaction of `customers` customers. */
  estimate(customers: number): number {
    return this.cost.fixedMs + this.cost.msPerCustomer * customers;
  }

  /** The customers whose own part (the fixed part aside) takes `ms`. */
  customersBeyondFixedPart(ms: number): number {
    return Math.max(0, Math.floor(ms / this.cost.msPerCustomer));
  }

  /** The most customers one transaction can take and still be expected to end within `ms` (0 when none can). */
  customersWithin(ms: number): number {
    return Math.max(0, Math.floor((ms - this.cost.fixedMs) / this.cost.msPerCustomer));
  }
}

/** Weight of the latest observation in a parted write's running estimates. */
const PACE_WEIGHT = 0.2;

/**
 * What a fill's parted write (customers/new-customer-writes.ts `putWhile`) costs once its
 * transaction runs: each customer written, and the end (the search chunks, the counter and
 * the cursor, then the commit). Learnt from the parts as they complete, so the decision to
 * send one more follows what writes cost now, not a model of whole transactions.
 */
export class PartedWritePace {
  private perCustomer = FIRST_WRITE_COST.msPerCustomer;
  private endMs = FIRST_WRITE_COST.fixedMs;

  /**
   * A part of `customers` was written `ms` after the request before it: the part before, or
   * for a transaction's first part, its confirming reads.
   */
  observePart(customers: number, ms: number): void {
    if (!(customers > 0) || !(ms >= 0)) return;
    const sample = clamp(ms / customers, MS_PER_CUSTOMER_RANGE);
    this.perCustomer = (1 - PACE_WEIGHT) * this.perCustomer + PACE_WEIGHT * sample;
  }

  /** The transaction committed `ms` after its last part was written. */
  observeFinish(ms: number): void {
    if (!(ms >= 0)) return;
    this.endMs = (1 - PACE_WEIGHT) * this.endMs + PACE_WEIGHT * clamp(ms, FIXED_MS_RANGE);
  }

  /** Whether `customers` more, sent behind `behind` still being written, are expected to have committed by `deadline` (ms, as `now`). */
  fits(now: number, behind: number, customers: number, deadline: number): boolean {
    return now + (behind + customers) * this.perCustomer + this.endMs <= deadline;
  }
}
