/**
 * Replays the outbox once the service can be reached: one replayer at a time across
 * windows and reloads (Web Locks), oldest item first, nothing deleted silently.
 *
 * - network errors, timeouts, 429 and 5xx: the item waits with exponential back-off and
 *   jitter, and nothing behind it overtakes it (order is kept);
 * - 401: the whole queue pauses until a person fixes the key (`resume()`); it is not a
 *   failed attempt and adds nothing to the back-off;
 * - 422 `reward_unavailable`: reconciled through `checkReward` and attribution.ts: redeemed
 *   inside the window of one of this till's unanswered attempts means most likely ours
 *   (done, and said so); anything else is a conflict, kept for a person;
 * - other refusals (validation, not found): failed, kept until acknowledged; later items go on.
 *
 * Each attempt is recorded, on the service's clock, before the request leaves, so a reload
 * between sending and answering still reconciles correctly.
 */
import { isTransient } from '../connection/failure-kinds';
import { Dexie } from 'dexie';
import type { BridgeError, Reward, ServiceClockReading, TillApi } from '../../../common/contract';
import { attribute, serviceNow } from './attribution';
import { nameConflictsFromShop, recordConflict, settleInShop } from './conflicts';
import { closeAttempt, forgetAttempt, recordAttempt } from './replay-attempts';
import { backoffDelay, boundedRetryAfter, type BackoffPolicy } from '../connection/backoff';
import { customerTables, deleteCustomerRow } from '../customers/customer-blocks';
import { getCustomerRow } from '../customers/customer-reads';
import { clearMeta, readMeta, writeMeta } from '../db/meta';
import {
  type Attribution,
  type OfflineDb,
  type OutboxItem,
  type OutboxNote,
  type RedemptionItem,
  type RegistrationItem,
} from '../db/schema';
import type { CustomerCache } from '../cache/customer-cache';
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

/**
 * Why the queue is paused, as stored: a reason, worded when shown (lib/outbox-words.ts
 * `replayPauseWords`), so a language switch re-words it. Rows written by older versions
 * also carry their English words (`message`).
 */
export interface ReplayPause {
  reason: 'unauthorized';
  since: string;
  message?: string;
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
  /**
   * The main process's copy (main-copy.ts): an attempt is on its disk, as on the page's, before
   * the request leaves, so that a redemption the service makes while both the page and its
   * database are lost is still reconciled as this till's. Without one (tests of the replayer
   * alone), the page's own commit is all there is to wait for.
   */
  copy?: { flushed(): Promise<void> };
}

const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 2_000, maxMs: 5 * 60_000 };

/** The service's clock as the main process estimates it; null where the bridge cannot say. */
export async function readServiceClock(api: Pick<TillApi, 'serviceClock'>): Promise<ServiceClockReading | null> {
  if (typeof api.serviceClock !== 'function') return null;
  try {
    const reading = await api.serviceClock();
    return reading.ok ? reading.data : null;
  } catch {
    return null;
  }
}

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
    const stored = await readMeta(this.options.db, 'replayPause');
    return stored ?? null;
  }

  /** After the key was fixed: lets the queue go again. */
  async resume(): Promise<void> {
    await clearMeta(this.options.db, 'replayPause');
    this.emit();
  }

  /**
   * A working key was saved: the pause ends and every back-off wait goes, with the failures
   * counted towards it (they were most likely the key's), so the queue drains at once.
   */
  async resumeWithNewKey(): Promise<void> {
    await this.options.outbox.clearWaits({ forgetFailures: true });
    await this.resume();
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
        await nameConflictsFromShop(this.options);
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
      const item = await db.outbox
        .where('[state+seq]')
        .between(['pending', after + 1], ['pending', Dexie.maxKey])
        .first();
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

  private async replayRedemption(queued: RedemptionItem): Promise<Outcome> {
    const clock = await readServiceClock(this.options.api);
    const item = await recordAttempt(this.options.db, queued, this.now().toISOString(), clock);
    if (!(await this.attemptKept(queued))) return 'backoff';
    const result = await this.options.api.redeemReward({
      reward_code: item.code,
      phone: item.phoneE164,
      ...(item.branchId ? { branch_id: item.branchId } : {}),
      ...(item.orderReference ? { order_reference: item.orderReference } : {}),
    });
    // recordAttempt opened a record exactly when the clock could be read.
    const opened = clock !== null;
    const error = result.ok ? null : result.error;
    const attempted = await closeAttempt(this.options.db, item, opened, error, result.attempt);
    if (result.ok) {
      // A 2xx is the truth even when the answer could not be read in full; the journal says so.
      const readInFull = result.data.reward !== null && result.data.card !== null;
      await this.complete(
        attempted,
        'redeemed',
        readInFull ? null : { code: 'confirmed_unread' },
        async () => {
          await this.options.cache.applyRedemption(result.data, attempted.phoneE164, undefined, attempted.code);
        },
        undefined,
        { serviceAt: isoOrNull(result.attempt?.end) },
      );
      settleInShop(this.options.api, attempted.code);
      return 'done';
    }
    if (result.error.kind === 'reward_unavailable') return this.reconcile(attempted);
    if (result.error.kind === 'unauthorized') {
      // Nothing was tried, and nothing adds to the back-off.
      await forgetAttempt(this.options.db, queued);
    }
    return this.setBack(attempted, result.error);
  }

  /** A 422 on replay: did one of our unanswered attempts redeem it, or did someone else? */
  private async reconcile(item: RedemptionItem): Promise<Outcome> {
    const check = await this.options.api.checkReward({ reward_code: item.code, phone: item.phoneE164 });
    if (!check.ok) {
      if (check.error.kind === 'not_found') {
        return this.conflict(item, null, { verdict: 'not_found', redeemedAt: null, attemptsAt: [] });
      }
      return this.setBack(item, check.error);
    }
    const reward = check.data;
    const redeemedAt = reward.redeemed_at;
    // Read after the check: its answer refined the estimate.
    const clock = await readServiceClock(this.options.api);
    if (reward.status !== 'redeemed' || !redeemedAt) {
      return this.conflict(item, reward, { verdict: 'not_redeemed', redeemedAt: null, attemptsAt: [] });
    }
    const verdict = attribute(redeemedAt, item.unanswered ?? [], clock);
    if (verdict.ours) {
      await this.complete(
        item,
        'redeemed_answer_lost',
        // The outcome and the attempt's time say it all: "most likely this till's".
        null,
        async () => {
          await this.options.cache.putReward(reward, item.phoneE164);
        },
        undefined,
        { serviceAt: serviceNow(clock), attemptAt: verdict.attemptAt },
      );
      settleInShop(this.options.api, item.code);
      return 'done';
    }
    return this.conflict(item, reward, verdict.attribution);
  }

  private async conflict(item: RedemptionItem, reward: Reward | null, found: Attribution): Promise<Outcome> {
    await recordConflict(this.options, item, reward, found);
    return 'conflict';
  }

  private async replayRegistration(queued: RegistrationItem): Promise<Outcome> {
    const item = await recordAttempt(this.options.db, queued, this.now().toISOString());
    if (!(await this.attemptKept(queued))) return 'backoff';
    const result = await this.options.api.registerCustomer({
      name: item.name,
      phone: item.phoneE164,
      ...(item.email ? { email: item.email } : {}),
      ...(item.birthday ? { birthday: item.birthday } : {}),
    });
    if (!result.ok) {
      if (result.error.kind === 'unauthorized') await forgetAttempt(this.options.db, queued);
      return this.setBack(item, result.error);
    }
    const { db, cache } = this.options;
    // The index and listings follow what this transaction commits (db/customer-feed.ts).
    await this.complete(
      item,
      'registered',
      null,
      async () => {
        const [written] = await cache.writeCustomers([result.data.customer], this.now().toISOString());
        if (written!.row.pk !== item.customerPk) {
          // The service's customer was already cached (another till registered them): the local row goes.
          const local = await getCustomerRow(db, item.customerPk);
          if (local?.localOnly) await deleteCustomerRow(db, item.customerPk);
        }
      },
      result.data.customer.id,
    );
    return 'done';
  }

  /**
   * Whether the attempt just recorded is in the main process's copy too. Not in time, it is
   * not made: the record is put back as it was, and the queue waits for its next pass.
   */
  private async attemptKept(before: OutboxItem): Promise<boolean> {
    try {
      await this.options.copy?.flushed();
      return true;
    } catch (error) {
      console.warn("A replay waits: the main process's copy did not take its attempt in time", error);
      await forgetAttempt(this.options.db, before);
      return false;
    }
  }

  /** Moves the item to the journal together with the cache update, in one transaction. */
  private async complete(
    item: OutboxItem,
    outcome: 'redeemed' | 'redeemed_answer_lost' | 'registered',
    note: OutboxNote | null,
    updateCache: () => Promise<void>,
    customerId?: string,
    times: { serviceAt?: string | null; attemptAt?: string | null } = {},
  ): Promise<void> {
    const { db, outbox } = this.options;
    await db.transaction('rw', [db.outbox, db.journal, db.rewards, ...customerTables(db)], async () => {
      await updateCache();
      await outbox.finish(item, outcome, note, customerId, times);
    });
  }

  /** A failed attempt: pause on 401, back off on transient errors, otherwise keep it as failed. */
  private async setBack(item: OutboxItem, error: BridgeError): Promise<Outcome> {
    const { db } = this.options;
    if (error.kind === 'unauthorized') {
      await db.outbox.update(item.seq!, { lastError: error });
      // The reason, not words: they are made when shown (`replayPauseWords`), in the language of then.
      await writeMeta(db, 'replayPause', { reason: 'unauthorized', since: this.now().toISOString() });
      this.emit();
      return 'paused';
    }
    if (isTransient(error)) {
      const failures = (item.failures ?? 0) + 1;
      const delay = Math.max(backoffDelay(failures, this.backoff, this.random), boundedRetryAfter(error.retryAfterMs));
      const nextAttemptAt = new Date(this.now().getTime() + delay).toISOString();
      await db.outbox.update(item.seq!, { lastError: error, nextAttemptAt, failures });
      return 'backoff';
    }
    const note: OutboxNote = { code: 'refused', said: error.message };
    await db.outbox.update(item.seq!, { state: 'failed', lastError: error, note, nextAttemptAt: null });
    return 'failed';
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }
}

type Outcome = 'done' | 'conflict' | 'failed' | 'backoff' | 'paused';

function isoOrNull(ms: number | null | undefined): string | null {
  return typeof ms === 'number' && Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}
