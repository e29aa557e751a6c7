/**
 * What each part of the counter works with, wired by index.ts through counter-operations.ts,
 * and what they all do alike: a cache read that answers the cashier first lets the answers
 * already shown finish writing through, so it sees them.
 */
import type { Settings, TillApi } from '../../../common/contract';
import type { CustomerCache } from '../cache/customer-cache';
import type { WriteBehind } from '../cache/write-behind';
import type { OfflineDb } from '../db/schema';
import type { Outbox } from '../outbox/outbox';

/** The settings the counter reads; `shopRedeemWhenSplit` is true unless said otherwise. */
export type CounterSettings = Pick<Settings, 'defaultCountry' | 'branchId' | 'allowOfflineRedemption'> &
  Partial<Pick<Settings, 'shopRedeemWhenSplit'>>;

/** What the counter's operations work with, wired by index.ts. */
export interface CounterDeps {
  db: OfflineDb;
  /** `window.till`, observed by the connection monitor. */
  api: TillApi;
  cache: CustomerCache;
  outbox: Outbox;
  writeBehind: WriteBehind;
  settings: () => CounterSettings;
  now: () => Date;
  /** The connection monitor says the service cannot be reached now. */
  offlineNow: () => boolean;
  /** Asks the replayer to run now, unless offline. */
  replaySoon: () => void;
  /** Who is at the till now (recorded with every redemption, registration and correction); null if nobody was named. */
  cashier?: () => string | null;
}

/** A part of the counter: its dependencies at hand, and reads that wait for the writes. */
export abstract class CounterPart {
  protected readonly db: OfflineDb;
  protected readonly api: TillApi;
  protected readonly cache: CustomerCache;
  protected readonly outbox: Outbox;
  protected readonly writeBehind: WriteBehind;
  protected readonly settings: CounterDeps['settings'];
  protected readonly now: () => Date;
  protected readonly offlineNow: () => boolean;
  protected readonly replaySoon: () => void;
  protected readonly cashier: () => string | null;

  constructor(deps: CounterDeps) {
    ({
      db: this.db,
      api: this.api,
      cache: this.cache,
      outbox: this.outbox,
      writeBehind: this.writeBehind,
      settings: this.settings,
      now: this.now,
      offlineNow: this.offlineNow,
      replaySoon: this.replaySoon,
    } = deps);
    this.cashier = deps.cashier ?? (() => null);
  }

  /** Cache reads that answer the cashier see every answer already shown. */
  protected async afterWrites<T>(read: () => Promise<T>): Promise<T> {
    await this.writeBehind.settled();
    return read();
  }
}
