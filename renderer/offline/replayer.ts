/**
 * Replays the outbox once the service can be reached: one replayer at a time across
 * windows and reloads (Web Locks), oldest item first, nothing deleted silently.
 *
 * - network errors, timeouts, 429 and 5xx: the item waits with exponential back-off and
 *   jitter, and nothing behind it overtakes it (order is kept);
 * - 401: the whole queue pauses until a person fixes the key (`resume()`);
 * - 422 `reward_unavailable`: reconciled through `checkReward`. Redeemed at or after our
 *   first attempt means that attempt succeeded and only its answer was lost: done.
 *   Otherwise the reward was used elsewhere while we were offline: a conflict, kept;
 * - other refusals (validation, not found): failed, kept until acknowledged; later items go on.
 *
 * The first attempt's time is stored before the request leaves, so a reload between
 * sending and answering still reconciles correctly.
 */
import { isTransient, mayHaveBeenApplied } from './failure-kinds';
import { Dexie } from 'dexie';
import type { BridgeError, Reward, TillApi } from '../../electron/contract';
import { backoffDelay, type BackoffPolicy } from './backoff';
import { clearMeta, customerTables, deleteCustomerRow, readMeta, writeMeta, type CachedCustomer, type OfflineDb, type OutboxItem, type RedemptionItem, type RegistrationItem } from './db';
import type { CustomerCache } from './customer-cache';
import type { Outbox } from './outbox';

/** The part of the Web Locks API the replayer uses; `navigator.locks` in the app, a fake in tests. */
export interface LockManagerLike {
  request<T>(name: string, options: { ifAvailable: true }, callback: (lock: unknown) => Promise<T>): Promise<T>;
}

export const REPLAY_LOCK_NAME = 'loyalty-till:outbox-replay';

export interface ReplayRun {
  /** False when another window (or another replayer here) holds the lock: it is replaying. */
  ran: boolean;
  done: number;
  conflicts: number;
  failed: number;
  /** Why the run ended before the queue was empty. */
  stoppedBy: 'backoff' | 'paused' | null;
}

export interface ReplayPause {
  reason: 'unauthorized';
  since: string;
  message: string;
}

export interface ReplayerOptions {
  db: OfflineDb;
  api: TillApi;
  cache: CustomerCache;
  outbox: Outbox;
  /** `navigator.locks`; null where the platform has none (see `localLocks`). */
  locks: LockManagerLike | null;
  now?: () => Date;
  random?: () => number;
  backoff?: BackoffPolicy;
  lockName?: string;
}

const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 2_000, maxMs: 5 * 60_000 };

/**
 * In-page stand-in where `navigator.locks` is missing: it keeps replayers of this page
 * apart. Chromium (and so Electron) always has Web Locks, which also covers other windows.
 */
const heldLocally = new Set<string>();
export const localLocks: LockManagerLike = {
  async request(name, _options, callback) {
    if (heldLocally.has(name)) return callback(null);
    heldLocally.add(name);
    try {
      return await callback({ name });
    } finally {
      heldLocally.delete(name);
    }
  },
};

/** The service's timestamps are to the second: our attempt time is compared at that precision. */
function wholeSecond(iso: string): number {
  return Math.floor(Date.parse(iso) / 1000) * 1000;
}

export class Replayer {
  private readonly now: () => Date;
  private readonly random: () => number;
  private readonly backoff: BackoffPolicy;
  private readonly locks: LockManagerLike;
  private readonly lockName: string;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly options: ReplayerOptions) {
    this.now = options.now ?? (() => new Date());
    this.random = options.random ?? Math.random;
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.locks = options.locks ?? localLocks;
    this.lockName = options.lockName ?? REPLAY_LOCK_NAME;
  }

  /** Called when the pause state changes. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async pause(): Promise<ReplayPause | null> {
    return (await readMeta(this.options.db, 'replayPause')) ?? null;
  }

  /** After the key was fixed: lets the queue go again. */
  async resume(): Promise<void> {
    await clearMeta(this.options.db, 'replayPause');
    this.emit();
  }

  /** When the first pending item may next be tried (null: now, or nothing pending). */
  async nextAttemptAt(): Promise<string | null> {
    const first = await this.options.db.outbox.where('state').equals('pending').first();
    return first?.nextAttemptAt ?? null;
  }

  /** One pass over the queue, if no other replayer is running. */
  async runOnce(): Promise<ReplayRun> {
    return this.locks.request(this.lockName, { ifAvailable: true }, async (lock) => {
      const run: ReplayRun = { ran: lock !== null, done: 0, conflicts: 0, failed: 0, stoppedBy: null };
      if (lock === null) return run;
      try {
        await this.replay(run);
      } finally {
        this.options.outbox.notify();
      }
      return run;
    });
  }

  private async replay(run: ReplayRun): Promise<void> {
    const { db } = this.options;
    if (await this.pause()) {
      run.stoppedBy = 'paused';
      return;
    }
    let after = 0;
    for (;;) {
      // Re-read each time: other code may have queued, acknowledged or retried meanwhile.
      const item = await db.outbox.where('[state+seq]').between(['pending', after + 1], ['pending', Dexie.maxKey]).first();
      if (!item) return;
      after = item.seq!;
      if (item.nextAttemptAt !== null && Date.parse(item.nextAttemptAt) > this.now().getTime()) {
        run.stoppedBy = 'backoff';
        return;
      }
      const outcome = item.kind === 'redeem' ? await this.replayRedemption(item) : await this.replayRegistration(item);
      if (outcome === 'done') run.done += 1;
      else if (outcome === 'conflict') run.conflicts += 1;
      else if (outcome === 'failed') run.failed += 1;
      else {
        run.stoppedBy = outcome;
        return;
      }
    }
  }

  /** Stores the attempt before the request leaves. */
  private async recordAttempt<T extends OutboxItem>(item: T): Promise<T> {
    const at = this.now().toISOString();
    const changes = {
      firstAttemptAt: item.firstAttemptAt ?? at,
      lastAttemptAt: at,
      attempts: item.attempts + 1,
    };
    await this.options.db.outbox.update(item.seq!, changes);
    return { ...item, ...changes };
  }

  private async replayRedemption(queued: RedemptionItem): Promise<Outcome> {
    const item = await this.recordAttempt(queued);
    const result = await this.options.api.redeemReward({
      reward_code: item.code,
      phone: item.phoneE164,
      ...(item.branchId ? { branch_id: item.branchId } : {}),
      ...(item.orderReference ? { order_reference: item.orderReference } : {}),
    });
    if (result.ok) {
      await this.complete(item, 'redeemed', null, async () => {
        await this.options.cache.applyRedemption(result.data, item.phoneE164);
      });
      return 'done';
    }
    if (result.error.kind === 'reward_unavailable') return this.reconcile(item);
    const attempted = mayHaveBeenApplied(result.error) ? item : await this.forgetAttempt(item, queued.firstAttemptAt);
    return this.setBack(attempted, result.error);
  }

  /** An attempt the service cannot have acted on is no evidence for reconciliation. */
  private async forgetAttempt<T extends OutboxItem>(item: T, firstAttemptAt: string | null): Promise<T> {
    await this.options.db.outbox.update(item.seq!, { firstAttemptAt });
    return { ...item, firstAttemptAt };
  }

  /** A 422 on replay: did our own earlier attempt redeem it (answer lost), or did someone else? */
  private async reconcile(item: RedemptionItem): Promise<Outcome> {
    const check = await this.options.api.checkReward({ reward_code: item.code, phone: item.phoneE164 });
    if (!check.ok) {
      if (check.error.kind === 'not_found') {
        return this.conflict(item, null, 'The service refused the redemption and no longer finds this code for this phone.');
      }
      return this.setBack(item, check.error);
    }
    const reward = check.data;
    const redeemedAt = reward.redeemed_at;
    if (reward.status === 'redeemed' && redeemedAt && Date.parse(redeemedAt) >= wholeSecond(item.firstAttemptAt!)) {
      await this.complete(item, 'redeemed_answer_lost', `Confirmed redeemed at ${redeemedAt}; the first answer was lost.`, async () => {
        await this.options.cache.putReward(reward, item.phoneE164);
      });
      return 'done';
    }
    const why =
      reward.status === 'redeemed' && redeemedAt
        ? `Redeemed elsewhere at ${redeemedAt}, before this till's first attempt at ${item.firstAttemptAt}.`
        : `The service reports the reward as ${reward.status}${reward.expires_at ? ` (expires ${reward.expires_at})` : ''}.`;
    return this.conflict(item, reward, why);
  }

  private async conflict(item: RedemptionItem, reward: Reward | null, note: string): Promise<Outcome> {
    const { db, cache } = this.options;
    await db.transaction('rw', [db.outbox, db.rewards, ...customerTables(db)], async () => {
      await db.outbox.update(item.seq!, (row) => {
        if (row.kind !== 'redeem') return;
        Object.assign(row, { state: 'conflict', serviceReward: reward, note, nextAttemptAt: null });
      });
      // The cache learns the service's view; the pending mark stays until a person acknowledges.
      if (reward) await cache.putReward(reward, item.phoneE164);
    });
    return 'conflict';
  }

  private async replayRegistration(queued: RegistrationItem): Promise<Outcome> {
    const item = await this.recordAttempt(queued);
    const result = await this.options.api.registerCustomer({
      name: item.name,
      phone: item.phoneE164,
      ...(item.email ? { email: item.email } : {}),
      ...(item.birthday ? { birthday: item.birthday } : {}),
    });
    if (!result.ok) return this.setBack(item, result.error);
    const { db, cache } = this.options;
    const written: { row: CachedCustomer; previous: CachedCustomer | null }[] = [];
    let orphan: CachedCustomer | null = null;
    await this.complete(item, 'registered', null, async () => {
      written.push(...(await cache.writeCustomers([result.data.customer], this.now().toISOString())));
      const stored = written[0]!.row;
      if (stored.pk !== item.customerPk) {
        // The service's customer was already cached (another till registered them): the local row goes.
        const local = await db.customers.get(item.customerPk);
        if (local?.localOnly) {
          await deleteCustomerRow(db, item.customerPk);
          orphan = local;
        }
      }
    }, result.data.customer.id);
    for (const { row, previous } of written) cache.indexWrite(row, previous);
    if (orphan) cache.indexRemove(orphan);
    return 'done';
  }

  /** Moves the item to the journal together with the cache update, in one transaction. */
  private async complete(
    item: OutboxItem,
    outcome: 'redeemed' | 'redeemed_answer_lost' | 'registered',
    note: string | null,
    updateCache: () => Promise<void>,
    customerId?: string,
  ): Promise<void> {
    const { db, outbox } = this.options;
    await db.transaction('rw', [db.outbox, db.journal, db.rewards, ...customerTables(db)], async () => {
      await updateCache();
      await outbox.finish(item, outcome, note, customerId);
    });
  }

  /** A failed attempt: pause on 401, back off on transient errors, otherwise keep it as failed. */
  private async setBack(item: OutboxItem, error: BridgeError): Promise<Outcome> {
    const { db } = this.options;
    if (error.kind === 'unauthorized') {
      await db.outbox.update(item.seq!, { lastError: error });
      await writeMeta(db, 'replayPause', {
        reason: 'unauthorized',
        since: this.now().toISOString(),
        message: 'The service rejected the API key. Queued work waits until the key is fixed in the settings.',
      });
      this.emit();
      return 'paused';
    }
    if (isTransient(error)) {
      let delay = backoffDelay(item.attempts, this.backoff, this.random);
      if (error.retryAfterMs !== undefined) delay = Math.max(delay, error.retryAfterMs);
      const nextAttemptAt = new Date(this.now().getTime() + delay).toISOString();
      await db.outbox.update(item.seq!, { lastError: error, nextAttemptAt });
      return 'backoff';
    }
    await db.outbox.update(item.seq!, { state: 'failed', lastError: error, note: error.message, nextAttemptAt: null });
    return 'failed';
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }
}

type Outcome = 'done' | 'conflict' | 'failed' | 'backoff' | 'paused';
