/**
 * How big the refresh's next write transaction may be, and when it may start, so that it
 * falls between the cashier's searches. While the cashier searches the cache, the writer
 * fits its transactions between their searches: going by the cashier's rhythm
 * (customer-cache.ts `expectedSearchIn`) and what its transactions cost (write-cost.ts),
 * each is sized to end within a share of the cashier's usual pause, the rest kept in
 * reserve; when too little is left, it waits for the next search to end. While the cashier
 * is not searching, a transaction takes as much as it likes.
 */
import type { CustomerCache } from '../cache/customer-cache';
import { WriteCostModel } from '../pacing/write-cost';

/**
 * The share of the cashier's pause a transaction may take. A search that comes during a
 * write waits for it (or rolls it back, early on), so the share adapts to keep that rare:
 * cut by a quarter each time a search meets a write, grown a little with each write none
 * met. On a busy till a write's time varies widely, so the share that suits is the till's,
 * not a constant's (docs/decisions/2026-11-23-writes-fitted-to-pauses.md).
 */
export const CASHIER_SHARE = { first: 0.6, min: 0.25, max: 0.8, cut: 0.75, growth: 0.005 } as const;

/** The share after a transaction sized for the cashier's pause, which a search did or did not meet. */
export function adaptedCashierShare(share: number, metBySearch: boolean): number {
  const { min, max, cut, growth } = CASHIER_SHARE;
  return metBySearch ? Math.max(min, share * cut) : Math.min(max, share + growth);
}

/** One block's worth: fewer customers would not fill the record a transaction writes anyway. */
const CASHIER_SLICE_MIN = 16;
/** Searches the writer waits the end of for room for a transaction before it writes anyway. */
const MAX_WAITS_FOR_ROOM = 1;

/** A transaction's customers, and whether they were fitted to the cashier's pause by the write cost. */
export interface SliceSize {
  customers: number;
  fitted: boolean;
}

/** When a transaction that starts now should have committed, and whether that was fitted to the cashier's pause. */
export interface Room {
  deadline: number;
  fitted: boolean;
}

export type PacedCache = Pick<CustomerCache, 'expectedSearchIn' | 'typicalSearchPause' | 'nextSearchEnd'>;

export class WritePacer {
  private readonly cache: PacedCache;
  /** What this till's write transactions cost, fixed part and per customer, learnt as they commit. */
  private readonly writeCost: WriteCostModel;
  /** Customers per transaction while the cashier searches, when fixed by the options. */
  private readonly fixedCustomers: number | undefined;
  private share: number = CASHIER_SHARE.first;

  constructor(cache: PacedCache, writeCost: WriteCostModel, fixedCustomers: number | undefined) {
    this.cache = cache;
    this.writeCost = writeCost;
    this.fixedCustomers = fixedCustomers;
  }

  /** The share of the cashier's pause a transaction may take now (see CASHIER_SHARE). */
  get cashierShare(): number {
    return this.share;
  }

  /** Transactions of a size fixed by the options take no part of the cashier's pause but theirs. */
  get fixedSlices(): boolean {
    return this.fixedCustomers !== undefined;
  }

  /** A transaction of `customers` committed in `ms`: what the next ones are expected to cost learns from it. */
  observeWrite(customers: number, ms: number): void {
    this.writeCost.observe(customers, ms);
  }

  /** A transaction fitted to the cashier's pause committed; a search did or did not meet it. */
  observeFitted(metBySearch: boolean): void {
    this.share = adaptedCashierShare(this.share, metBySearch);
  }

  /**
   * When a transaction of some of `left` customers that starts now should have committed:
   * before the cashier's next search, keeping a share of their pause in reserve
   * (CASHIER_SHARE), or never while they are not searching. When not even a block's worth
   * fits, it waits for a search to end first (once: see `nextSliceSize`). `fitted` says the
   * time was the pause's.
   */
  async roomFor(left: number): Promise<Room> {
    const customers = Math.min(left, CASHIER_SLICE_MIN);
    for (let waited = 0; ; waited++) {
      const budget = this.pauseBudget();
      if (budget === null) return { deadline: Number.POSITIVE_INFINITY, fitted: false };
      const fitted = this.writeCost.estimate(customers) <= budget;
      if (fitted || waited >= MAX_WAITS_FOR_ROOM) return { deadline: performance.now() + budget, fitted };
      await this.cache.nextSearchEnd();
    }
  }

  /**
   * How many of the `left` customers the next transaction takes: all of them while the
   * cashier is not searching, otherwise as many as fit before their next search (waiting
   * for it first when not even a block's worth would).
   */
  async nextSliceSize(left: number): Promise<SliceSize> {
    for (let waited = 0; ; waited++) {
      const budget = this.pauseBudget();
      if (budget === null) return { customers: left, fitted: false };
      if (this.fixedCustomers !== undefined) return { customers: this.fixedCustomers, fitted: false };
      const fits = this.writeCost.customersWithin(budget);
      if (fits >= Math.min(left, CASHIER_SLICE_MIN)) return { customers: Math.min(left, fits), fitted: true };
      // Not even a block fits right after a search: the fixed part alone outlasts the
      // pause (a large database, a busy till), so a search will meet the write whatever
      // its size. Waiting longer would only slow the fill: it takes what the pause pays
      // for beyond that fixed part, so each meeting moves the fill on by a pause's worth.
      if (waited >= MAX_WAITS_FOR_ROOM) {
        const worth = this.writeCost.customersBeyondFixedPart(budget);
        return { customers: Math.min(left, Math.max(CASHIER_SLICE_MIN, worth)), fitted: false };
      }
      await this.cache.nextSearchEnd();
    }
  }

  /**
   * The milliseconds a transaction that starts now may take before the cashier's next
   * search, keeping a share of their usual pause in reserve (CASHIER_SHARE); null while
   * they are not searching.
   */
  private pauseBudget(): number | null {
    const room = this.cache.expectedSearchIn();
    return room === null ? null : room - (1 - this.share) * (this.cache.typicalSearchPause ?? 0);
  }
}
