/**
 * The offline core behind one facade, for the Pinia stores.
 *
 * The cashier-facing operations try the service first and fall back to the cache (or the
 * outbox) when it cannot be reached, saying which one answered (`source`). Everything the
 * service returns is written through to the cache behind the answer (write-behind.ts): the
 * cashier never waits for IndexedDB, which may be busy with the background refresh. Reads
 * that answer from the cache first let the queued writes finish, so they see them.
 *
 *   const offline = createOfflineServices({ api: window.till, settings: () => tillStore.settings });
 *   offline.start();
 *   const found = await offline.searchCustomers('layla', 1);
 */
import type {
  AttemptTiming,
  BridgeError,
  Customer,
  PageMeta,
  RegisterCustomerPayload,
  Redemption,
  Reward,
  Settings,
  TillApi,
  UpdateCustomerPayload,
} from '../../common/contract';
import { readPhone } from '../lib/phone';
import { isUnreachable, mayHaveBeenApplied } from './connection/failure-kinds';
import { openOfflineDb } from './db/open';
import {
  LOCAL_ID_PREFIX,
  rewardKey,
  type JournalEntry,
  type OfflineDb,
  type OutboxItem,
  type RedemptionItem,
} from './db/schema';
import { CacheRefresh, refreshDue, type RefreshProgress } from './refresh/cache-refresh';
import { DEFAULT_REFRESH_SCHEDULE, nextRefreshAt, type RefreshSchedule } from './refresh/refresh-schedule';
import {
  ConnectionMonitor,
  defaultTimers,
  observeApi,
  type ConnectionSnapshot,
  type Timers,
} from './connection/connection-monitor';
import { CustomerCache, PAGE_SIZE, type CacheSearchResult } from './customers/customer-cache';
import type { ListedCustomer } from './search/listings';
import { journalToCsv } from './outbox/journal-csv';
import { checkRewardOffline, type OfflineCheck } from './rewards/offline-check';
import { Outbox, type OnlineAttempt, type OutboxCounts, type QueueRefusal } from './outbox/outbox';
import { parseQuery } from './search/search-index';
import { Replayer, readServiceClock, type LockManagerLike, type ReplayPause, type ReplayRun } from './outbox/replayer';
import { closedAttempt, serviceNow } from './outbox/attribution';
import type { AttemptRecord } from './db/schema';
import { WriteBehind, type WriteFailureListener } from './customers/write-behind';
import { t } from '../i18n';

export type {
  OfflineCheck,
  OutboxCounts,
  RefreshProgress,
  ConnectionSnapshot,
  ReplayPause,
  ReplayRun,
  OutboxItem,
  RedemptionItem,
  JournalEntry,
};
// Views and stores import the offline core through this module only (a lint rule): the words
// for a queued item's outcome, and which bridge errors mean "not reachable", come from here.
export { isUnreachable } from './connection/failure-kinds';
export type { ListedCard, ListedCustomer } from './search/listings';
export { conflictWords, likelyOursWords, type ConflictWords } from './outbox/reconciliation-words';
// A stopped refresh and a paused queue keep a reason; these word it in the interface language.
export { refreshStopWords } from './refresh/refresh-words';
export { replayPauseWords } from './outbox/replayer';

/** After a refresh stopped (offline, rejected key), wait this long before trying again. */
const REFRESH_RETRY_AFTER_STOP_MS = 60_000;

export interface CacheNote {
  /** Oldest fetch time among the customers shown: "from the cache of <time>". */
  of: string | null;
  /** False while the search index is still loading and the answer may miss customers. */
  complete: boolean;
  /** More matched than can be listed: type more. */
  capped: boolean;
}

/** The service's search gives whole customers; the cache's, what the results list shows of each. */
export type CustomerSearch =
  | { ok: true; source: 'service'; customers: Customer[]; meta: PageMeta }
  | { ok: true; source: 'cache'; customers: ListedCustomer[]; meta: PageMeta; cache: CacheNote }
  | { ok: false; error: BridgeError };

export type CustomerLookup =
  | {
      ok: true;
      source: 'service' | 'cache';
      customer: Customer;
      cachedAt: string | null;
      pendingCodes: string[];
      localOnly: boolean;
    }
  | { ok: false; error: BridgeError };

export type RewardCheck =
  | { ok: true; source: 'service'; reward: Reward; pendingHere: boolean }
  | { ok: true; source: 'cache'; check: OfflineCheck }
  | { ok: false; error: BridgeError };

export type RedeemOutcome =
  | { outcome: 'redeemed'; redemption: Redemption }
  /**
   * Stored in the outbox. `answerLost`: sent online with no answer the till could read, so the
   * service may already have made it (then `check` is absent: the service, not the cache, checked).
   */
  | { outcome: 'queued'; item: RedemptionItem; check?: OfflineCheck; answerLost?: true }
  | {
      outcome: 'refused';
      reason: QueueRefusal | 'already_queued';
      message: string;
      check?: OfflineCheck;
      fields?: Record<string, string>;
    }
  | { outcome: 'failed'; error: BridgeError };

export type RegisterOutcome =
  | { outcome: 'registered'; customer: Customer; created: boolean }
  | { outcome: 'queued'; customer: Customer }
  | { outcome: 'known_here'; customer: Customer }
  | { outcome: 'refused'; message: string; fields: Record<string, string> }
  | { outcome: 'failed'; error: BridgeError };

export interface OfflineServicesOptions {
  /** `window.till`. */
  api: TillApi;
  /** The current settings (country, branch, whether offline redemption is allowed). */
  settings: () => Pick<Settings, 'defaultCountry' | 'branchId' | 'allowOfflineRedemption'> & {
    refreshSchedule?: RefreshSchedule;
  };
  db?: OfflineDb;
  /** `navigator.locks` by default; null falls back to an in-page lock. */
  locks?: LockManagerLike | null;
  now?: () => Date;
  random?: () => number;
  timers?: Timers;
  /** Browser `online`/`offline` hints (the window). */
  events?: Pick<EventTarget, 'addEventListener' | 'removeEventListener'>;
  /** How often the replayer looks at the queue while online. */
  replayEveryMs?: number;
  /** A complete refresh older than this is started again; without it, `settings().refreshSchedule` decides. */
  refreshEveryMs?: number;
}

export type OfflineServices = ReturnType<typeof createOfflineServices>;

function defaultLocks(): LockManagerLike | null {
  const locks = (globalThis.navigator as { locks?: LockManagerLike } | undefined)?.locks;
  return locks && typeof locks.request === 'function' ? locks : null;
}

export function createOfflineServices(options: OfflineServicesOptions) {
  const now = options.now ?? (() => new Date());
  const random = options.random ?? Math.random;
  const timers = options.timers ?? defaultTimers;
  const settings = options.settings;
  const db = options.db ?? openOfflineDb();
  const connection = new ConnectionMonitor({
    probe: () => options.api.connectionStatus(),
    now,
    random,
    timers,
    ...(options.events ? { events: options.events } : {}),
  });
  const api = observeApi(options.api, connection);
  const cache = new CustomerCache(db, { now, defaultCountry: () => settings().defaultCountry });
  const outbox = new Outbox(db, cache, { now });
  const replayer = new Replayer({
    db,
    api,
    cache,
    outbox,
    locks: options.locks === undefined ? defaultLocks() : options.locks,
    now,
    random,
  });
  const refresh = new CacheRefresh({ api, db, cache, now, random });
  /** The service's answers, written through to the cache in order behind the answer. */
  const writeBehind = new WriteBehind();
  /** Cache reads that answer the cashier see every answer already shown. */
  const afterWrites = async <T>(read: () => Promise<T>): Promise<T> => {
    await writeBehind.settled();
    return read();
  };
  const replayEveryMs = options.replayEveryMs ?? 10_000;
  /** This till's moment for the next refresh: its jitter is drawn once per completed refresh. */
  let planned: { after: string; jitter: number } | null = null;
  const nextRefreshAfter = (last: Date): Date => {
    if (planned?.after !== last.toISOString()) planned = { after: last.toISOString(), jitter: random() };
    return nextRefreshAt(last, settings().refreshSchedule ?? DEFAULT_REFRESH_SCHEDULE, planned.jitter);
  };

  const offlineNow = () => connection.state === 'offline';

  function replaySoon(): void {
    if (!offlineNow()) void replayer.runOnce();
  }

  let refreshLoaded = false;
  async function refreshIfDue(): Promise<void> {
    if (offlineNow()) return;
    if (!refreshLoaded) {
      await refresh.load();
      refreshLoaded = true;
    }
    if (refreshDue(refresh.progress(), now(), options.refreshEveryMs ?? nextRefreshAfter, REFRESH_RETRY_AFTER_STOP_MS))
      void refresh.run();
  }

  let replayTimer: unknown = null;
  let unsubscribeConnection: (() => void) | null = null;

  function scheduleReplay(): void {
    replayTimer = timers.setTimeout(() => {
      replaySoon();
      void refreshIfDue();
      scheduleReplay();
    }, replayEveryMs);
  }

  function stop(): void {
    if (replayTimer !== null) timers.clearTimeout(replayTimer);
    replayTimer = null;
    unsubscribeConnection?.();
    connection.stop();
    refresh.stop();
  }

  async function searchOffline(text: string, page: number): Promise<CustomerSearch> {
    const found: CacheSearchResult = await afterWrites(() => cache.search(text, page, PAGE_SIZE));
    return {
      ok: true,
      source: 'cache',
      customers: found.customers.map(({ id, name, phone, cards }) => ({ id, name, phone, cards })),
      meta: { current_page: found.page, last_page: found.lastPage, per_page: found.perPage, total: found.total },
      cache: { of: found.cacheOf, complete: found.complete, capped: found.capped },
    };
  }

  async function pendingCodesOf(customerId: string): Promise<string[]> {
    return (await cache.rewardsOf(customerId))
      .filter((row) => row.pendingOutboxSeq !== undefined)
      .map((row) => row.code);
  }

  async function lookupOffline(id: string, error: BridgeError): Promise<CustomerLookup> {
    const cached = await afterWrites(() => cache.getCustomer(id));
    if (!cached) return { ok: false, error };
    return {
      ok: true,
      source: 'cache',
      customer: { ...cached.record.customer, rewards: cached.rewards.map((row) => row.reward) },
      cachedAt: cached.record.fetchedAt,
      pendingCodes: cached.rewards.filter((row) => row.pendingOutboxSeq !== undefined).map((row) => row.code),
      localOnly: cached.record.localOnly === true,
    };
  }

  async function queueRedemption(
    input: { code: string; phone: string; orderReference?: string | null },
    firstAttemptAt: string | null,
    unanswered: AttemptRecord | null = null,
  ): Promise<RedeemOutcome> {
    const queued = await afterWrites(() =>
      outbox.queueRedemption({ ...input, firstAttemptAt, unanswered }, settings()),
    );
    if (queued.ok) return { outcome: 'queued', item: queued.item, check: queued.check };
    return {
      outcome: 'refused',
      reason: queued.reason,
      message: queued.message,
      ...(queued.check ? { check: queued.check } : {}),
      ...(queued.fields ? { fields: queued.fields } : {}),
    };
  }

  /** A redemption of this code already waits (or failed, or conflicts) in this till's outbox. */
  async function redemptionWaitsHere(code: string): Promise<boolean> {
    const cached = await db.rewards.get(rewardKey(code));
    return cached?.pendingOutboxSeq !== undefined || (await outbox.redemptionOf(code)) !== undefined;
  }

  /**
   * A 2xx: the service redeemed it. Written through to the cache; where the answer could not be
   * read in full, the journal keeps the record, since the screen cannot show all of it.
   */
  function redeemed(redemption: Redemption, sent: OnlineAttempt, attempt: AttemptTiming | undefined): RedeemOutcome {
    const fetchedAt = now().toISOString();
    writeBehind.queue('a redemption', () => cache.applyRedemption(redemption, sent.phoneE164, fetchedAt, sent.code));
    if (redemption.reward === null || redemption.card === null) {
      const serviceAt = typeof attempt?.end === 'number' ? new Date(attempt.end).toISOString() : null;
      writeBehind.queue('a redemption read in part', () => outbox.journalConfirmedUnread({ ...sent, serviceAt }));
    }
    return { outcome: 'redeemed', redemption };
  }

  async function recordUnanswered(
    sent: OnlineAttempt,
    attempt: AttemptRecord | null,
    error: BridgeError,
  ): Promise<RedeemOutcome> {
    try {
      // Without the main process's timing the attempt still counts, its times unknown.
      const window = attempt ?? { start: null, end: null, uncertaintyMs: null, localStart: 0, localEnd: null };
      const item = await afterWrites(() => outbox.recordUnanswered({ ...sent, attempt: window, error }));
      replaySoon();
      return { outcome: 'queued', item, answerLost: true };
    } catch (failure) {
      console.error('An unanswered redemption could not be recorded', failure);
      return { outcome: 'failed', error };
    }
  }

  // Only operations leave this function: the database, cache, outbox, replayer, refresh and
  // connection monitor stay inside, so callers cannot bypass the write-through and replay rules.
  return {
    /** The connection as the monitor sees it now, and its changes. */
    connectionNow: (): ConnectionSnapshot => connection.current(),
    onConnectionChange: (listener: (snapshot: ConnectionSnapshot) => void) => connection.subscribe(listener),
    /** Asks the service now instead of at the next probe; resolves to the state it found. */
    probeConnectionNow: () => connection.probeNow(),
    /** Another probe (the header's) learnt whether the service answers. */
    noteReachable(reachable: boolean, reason?: string): void {
      if (reachable) connection.markOnline();
      else connection.markOffline(reason ?? t('connection.unreachable'));
    },

    /** How far the background refresh of the cache is, and its changes. */
    refreshProgress: (): RefreshProgress => refresh.progress(),
    onRefreshProgress: (listener: (progress: RefreshProgress) => void) => refresh.subscribe(listener),
    /** Reads the refresh's stored progress (when it last completed) without starting one. */
    async loadRefreshProgress(): Promise<RefreshProgress> {
      const progress = await refresh.load();
      refreshLoaded = true;
      return progress;
    },

    /** When this till's next complete refresh is planned; null before its first. */
    plannedRefreshAt(): Date | null {
      const last = refresh.progress().lastCompleteRefreshAt;
      if (last === null) return null;
      return options.refreshEveryMs !== undefined
        ? new Date(Date.parse(last) + options.refreshEveryMs)
        : nextRefreshAfter(new Date(last));
    },

    /**
     * Loads the offline search index from the cache (start() does it too); until it is in,
     * offline searches answer from a slower scan that may say it is incomplete.
     */
    prepareOfflineSearch: async (): Promise<void> => {
      await cache.loadIndex();
    },

    /** Loads the search index, starts the connection probe, the replay loop and the refresh. */
    start(): void {
      void cache.loadIndex();
      connection.start();
      unsubscribeConnection = connection.subscribe((snapshot) => {
        if (snapshot.state === 'online') {
          replaySoon();
          void refreshIfDue();
        }
      });
      scheduleReplay();
      replaySoon();
      void refreshIfDue();
    },

    stop,

    /** Stops everything and closes the database (a till window going away, or a test's end). */
    close(): void {
      stop();
      db.close();
    },

    /** Find customers by phone, name words or part of a number; from the cache when offline. */
    async searchCustomers(text: string, page = 1): Promise<CustomerSearch> {
      if (offlineNow()) return searchOffline(text, page);
      const query = parseQuery(text, settings().defaultCountry);
      const base = { page, per_page: PAGE_SIZE };
      const payload =
        query.kind === 'phone'
          ? { ...base, phone: query.e164 }
          : query.kind === 'digits'
            ? { ...base, search: query.digits }
            : query.kind === 'name'
              ? { ...base, search: text.trim() }
              : base;
      let result = await api.searchCustomers(payload);
      // As offline: a complete number nobody has exactly is still worth a digit search.
      if (result.ok && query.kind === 'phone' && result.data.length === 0) {
        result = await api.searchCustomers({ ...base, search: query.digits });
      }
      if (result.ok) {
        const customers = result.data;
        const fetchedAt = now().toISOString();
        writeBehind.queue('a page of search results', () => cache.putCustomers(customers, fetchedAt));
        return { ok: true, source: 'service', customers, meta: result.meta };
      }
      if (isUnreachable(result.error)) return searchOffline(text, page);
      return { ok: false, error: result.error };
    },

    /** One customer with the rewards awaiting redemption; from the cache when offline. */
    async getCustomer(id: string): Promise<CustomerLookup> {
      const notReachable: BridgeError = { kind: 'offline', message: t('connection.notCachedCustomer') };
      if (id.startsWith(LOCAL_ID_PREFIX) || offlineNow()) return lookupOffline(id, notReachable);
      const result = await api.getCustomer({ id });
      if (result.ok) {
        const customer = result.data;
        const fetchedAt = now().toISOString();
        writeBehind.queue('a customer and their rewards', () => cache.putCustomerWithRewards(customer, fetchedAt));
        return {
          ok: true,
          source: 'service',
          customer,
          cachedAt: fetchedAt,
          // Pending marks live on the rewards table, which the refresh never writes: a quick read.
          pendingCodes: await pendingCodesOf(id),
          localOnly: false,
        };
      }
      if (isUnreachable(result.error)) return lookupOffline(id, result.error);
      return { ok: false, error: result.error };
    },

    /** Check a code; offline, from the cached rewards, saying so. */
    async checkReward(code: string, phone: string): Promise<RewardCheck> {
      const country = settings().defaultCountry;
      const offline = async () => ({
        ok: true as const,
        source: 'cache' as const,
        check: await afterWrites(() =>
          checkRewardOffline(db, { code, phone }, { defaultCountry: country, now: now() }),
        ),
      });
      if (offlineNow()) return offline();
      const reading = readPhone(phone, country);
      const result = await api.checkReward({ reward_code: code.trim(), phone: reading?.e164 ?? phone.trim() });
      if (result.ok) {
        const reward = result.data;
        const fetchedAt = now().toISOString();
        writeBehind.queue('a checked reward', () => cache.putReward(reward, reading?.e164 ?? null, fetchedAt));
        // The pending mark is set by the outbox, not by write-through: read it as it stands.
        const pendingHere = (await db.rewards.get(rewardKey(reward.code)))?.pendingOutboxSeq !== undefined;
        return { ok: true, source: 'service', reward, pendingHere };
      }
      if (isUnreachable(result.error)) return offline();
      return { ok: false, error: result.error };
    },

    /**
     * Redeem after the order is settled. Offline (or when the answer is lost) it is queued,
     * if the settings allow it, and the caller hears "queued" only once it is stored.
     */
    async redeemReward(input: { code: string; phone: string; orderReference?: string | null }): Promise<RedeemOutcome> {
      if (await redemptionWaitsHere(input.code)) {
        return { outcome: 'refused', reason: 'already_queued', message: t('rewards.refusal.alreadyQueued') };
      }
      if (offlineNow()) return queueRedemption(input, null);
      const { branchId, defaultCountry } = settings();
      const phoneE164 = readPhone(input.phone, defaultCountry)?.e164 ?? input.phone.trim();
      const sent = {
        code: input.code.trim(),
        phoneE164,
        branchId,
        orderReference: input.orderReference?.trim() || null,
        attemptedAt: now().toISOString(),
      };
      const result = await api.redeemReward({
        reward_code: sent.code,
        phone: phoneE164,
        ...(branchId ? { branch_id: branchId } : {}),
        ...(sent.orderReference ? { order_reference: sent.orderReference } : {}),
      });
      if (result.ok) return redeemed(result.data, sent, result.attempt);
      // The service may have made it with its answer lost (no answer, a 5xx, an unreadable one):
      // recorded at once and settled by the replayer, whatever the settings say.
      if (mayHaveBeenApplied(result.error) && result.attempt?.requestSent !== false) {
        const attempt = result.attempt ? closedAttempt(result.attempt) : null;
        return recordUnanswered(sent, attempt, result.error);
      }
      // Never sent, so never made: queued as offline, where the settings allow it.
      if (isUnreachable(result.error) && settings().allowOfflineRedemption) return queueRedemption(input, null);
      return { outcome: 'failed', error: result.error };
    },

    /** Register (idempotent by phone); offline it is queued and the customer usable at once. */
    async registerCustomer(payload: RegisterCustomerPayload): Promise<RegisterOutcome> {
      const queue = async (): Promise<RegisterOutcome> => {
        const queued = await afterWrites(() => outbox.queueRegistration(payload, settings()));
        if (!queued.ok) return { outcome: 'refused', message: queued.message, fields: queued.fields };
        if (!queued.queued) return { outcome: 'known_here', customer: queued.customer.customer };
        replaySoon();
        return { outcome: 'queued', customer: queued.customer.customer };
      };
      if (offlineNow()) return queue();
      const result = await api.registerCustomer(payload);
      if (result.ok) {
        const { customer, created } = result.data;
        const fetchedAt = now().toISOString();
        writeBehind.queue('a registered customer', () => cache.putCustomers([customer], fetchedAt));
        return { outcome: 'registered', customer, created };
      }
      if (isUnreachable(result.error)) return queue();
      return { outcome: 'failed', error: result.error };
    },

    /** Corrections need the service (they are not queued); the answer is written through. */
    async updateCustomer(payload: UpdateCustomerPayload) {
      const result = await api.updateCustomer(payload);
      if (result.ok) {
        const customer = result.data;
        const fetchedAt = now().toISOString();
        writeBehind.queue('a corrected customer', () => cache.putCustomers([customer], fetchedAt));
      }
      return result;
    },

    /**
     * Subscribes to failed write-through (the answer was shown, the cache missed it): for the
     * error log. Without a subscriber the failures go to the console.
     */
    onCacheWriteFailure: (listener: WriteFailureListener) => writeBehind.onFailure(listener),
    /** Resolves once every answer shown so far is written through (or its failure reported). */
    cacheWritesSettled: () => writeBehind.settled(),

    /** Programmes on cached customers' cards (a bounded read, for the Settings screen). */
    programmesSeen: () => cache.programmesSeen(),

    // The outbox screen.
    outboxItems: () => outbox.items(),
    journal: () => outbox.journal(),
    counts: () => outbox.counts(),
    acknowledge: async (seq: number) => outbox.acknowledge(seq, serviceNow(await readServiceClock(api))),
    retry: async (seq: number) => {
      const retried = await outbox.retry(seq);
      if (retried) replaySoon();
      return retried;
    },
    exportJournalCsv: async () => journalToCsv(await outbox.journal()),
    replayPause: () => replayer.pause(),
    /** "Retry now" on a paused queue. */
    resumeReplay: async () => {
      await replayer.resume();
      replaySoon();
    },
    /** A new key was saved: the pause and every back-off wait end, and the queue goes at once. */
    resumeAfterKeyChange: async () => {
      await replayer.resumeWithNewKey();
      replaySoon();
    },
    /** The service's clock as the main process estimates it (null where unknown). */
    serviceClock: () => readServiceClock(api),
    replayNow: () => replayer.runOnce(),
    /** A person asked to send now: the back-off waits no longer apply. */
    clearBackoff: () => outbox.clearWaits(),
    /** Subscribes to outbox changes (counts) and pause changes. */
    onOutboxChange(listener: () => void): () => void {
      const a = outbox.subscribe(listener);
      const b = replayer.subscribe(listener);
      return () => {
        a();
        b();
      };
    },
  };
}
