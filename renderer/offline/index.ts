/**
 * The offline core behind one facade, for the Pinia stores: this module only wires the
 * subsystems (docs/offline.md) and hands out their operations.
 *
 * - counter-operations.ts: what the cashier does, service first, the cache or the outbox
 *   answering when it cannot be reached;
 * - background-work.ts: the outbox's replay and the cache's complete refresh;
 * - the outbox screen's operations, the connection and the refresh's progress, below.
 *
 *   const offline = createOfflineServices({ api: window.till, settings: () => tillStore.settings });
 *   offline.start();
 *   const found = await offline.searchCustomers('layla', 1);
 */
import type { RegisterCustomerPayload, TillApi, UpdateCustomerPayload } from '../../common/contract';
import { BackgroundWork } from './background-work';
import {
  ConnectionMonitor,
  defaultTimers,
  observeApi,
  saidOrUnreachable,
  type ConnectionSnapshot,
  type Timers,
} from './connection/connection-monitor';
import { CounterOperations, type CounterSettings } from './counter-operations';
import { findCardHolder } from './card-lookup';
import { CustomerCache } from './cache/customer-cache';
import { WriteBehind, type WriteFailureListener } from './cache/write-behind';
import { openOfflineDb } from './db/open';
import { attachKeptWrites } from './db/kept-tables';
import { keyAtEveryOpen, lastDataKeyProblem, onDataKeyProblem, type DataKeyProblem } from './db/key-at-open';
import { runSealingPass, type SealingProgress } from './sealing-pass';
import { MainCopy } from './outbox/main-copy';
import { reconcileAtEveryOpen, type Reconciliation } from './outbox/copy-reconciliation';
import type { JournalEntry, OfflineDb, OutboxItem, RedemptionItem } from './db/schema';
import { serviceNow } from './outbox/attribution';
import { journalRetention } from './outbox/journal-retention';
import { buildShiftReport, journalBefore, type ShiftReport } from './shift-report/shift-report';
import { serveReportRequests } from './shift-report/report-requests';
import { toReportPart } from './shift-report/shop-report';
import { Outbox, type OutboxCounts } from './outbox/outbox';
import { Replayer, readServiceClock, type LockManagerLike, type ReplayPause, type ReplayRun } from './outbox/replayer';
import { CacheRefresh, type RefreshProgress } from './refresh/cache-refresh';
import { readCacheFacts } from './refresh/cache-facts';
import type { RefreshSchedule } from './refresh/refresh-schedule';
import type { OfflineCheck } from './rewards/offline-check';

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
  ShiftReport,
};
export type { CashierLine, RedemptionState, RewardLine, StateCounts } from './shift-report/shift-report';
export type { Reconciliation } from './outbox/copy-reconciliation';
export type { DataKeyProblem, DataKeyProblemReason } from './db/key-at-open';
export type { SealingProgress } from './sealing-pass';
export { OPEN_ITEM_STATE, REDEMPTION_STATES } from './shift-report/shift-report';
export { mergeShopReport, type ShopShiftReport, type TillLine } from './shift-report/shop-report';
export type {
  CacheNote,
  CustomerLookup,
  CustomerSearch,
  RedeemOutcome,
  RegisterOutcome,
  RewardCheck,
} from './counter-operations';
// Views and stores import the offline core through this module only (a lint rule): the words
// for a queued item's outcome, and which bridge errors mean "not reachable", come from here.
export { isUnreachable } from './connection/failure-kinds';
export type { ListedCard, ListedCustomer } from './search/listings';

export interface OfflineServicesOptions {
  /** `window.till`. */
  api: TillApi;
  /** The current settings (country, branch, whether offline redemption is allowed). */
  settings: () => CounterSettings & { refreshSchedule?: RefreshSchedule; journalPersonalDays?: number };
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
  /** Who is at the till now, recorded with the work they do; nobody named by default. */
  cashier?: () => string | null;
}

export type OfflineServices = ReturnType<typeof createOfflineServices>;

function defaultLocks(): LockManagerLike | null {
  const locks = (globalThis.navigator as { locks?: LockManagerLike } | undefined)?.locks;
  return locks && typeof locks.request === 'function' ? locks : null;
}

/** The waiting redemptions are announced to the shop at start-up; tried this often, this far apart. */
const ANNOUNCE_TRIES = 5;
const ANNOUNCE_RETRY_MS = 5000;

/** The subsystems, built and wired; only their operations leave this module (below). */
function wireSubsystems(options: OfflineServicesOptions) {
  const now = options.now ?? (() => new Date());
  const random = options.random ?? Math.random;
  const timers = options.timers ?? defaultTimers;
  const settings = options.settings;
  const db = options.db ?? openOfflineDb();
  // The data key first, before anything reads or writes (docs/security.md): at every opening,
  // ahead of the reconciliation with the main process's copy, which reads the outbox.
  keyAtEveryOpen(db, { api: options.api, now });
  const connection = new ConnectionMonitor({
    probe: () => options.api.connectionStatus(),
    now,
    random,
    timers,
    ...(options.events ? { events: options.events } : {}),
  });
  const api = observeApi(options.api, connection);
  const cache = new CustomerCache(db, { now, defaultCountry: () => settings().defaultCountry });
  // What the outbox and the journal commit is kept by the main process too (docs/offline.md).
  const copy = new MainCopy({ api: options.api, timers, random });
  attachKeptWrites(db, copy);
  const outbox = new Outbox(db, cache, { now, copy });
  const replayer = new Replayer({
    db,
    api,
    cache,
    outbox,
    locks: options.locks === undefined ? defaultLocks() : options.locks,
    now,
    random,
    copy,
  });
  const refresh = new CacheRefresh({ api, db, cache, now, random });
  const background = new BackgroundWork({
    connection,
    replayer,
    refresh,
    timers,
    now,
    random,
    schedule: () => settings().refreshSchedule,
    replayEveryMs: options.replayEveryMs ?? 10_000,
    ...(options.refreshEveryMs !== undefined ? { refreshEveryMs: options.refreshEveryMs } : {}),
  });
  /** The service's answers, written through to the cache in order behind the answer. */
  const writeBehind = new WriteBehind();
  const counter = new CounterOperations({
    db,
    api,
    cache,
    outbox,
    writeBehind,
    settings,
    now,
    offlineNow: () => connection.state === 'offline',
    replaySoon: () => background.replaySoon(),
    ...(options.cashier ? { cashier: options.cashier } : {}),
  });
  return { now, timers, db, connection, api, cache, outbox, copy, replayer, refresh, background, writeBehind, counter };
}

/**
 * The outbox's waiting redemptions, told to the shop again at start-up; the ledger starts
 * beside the window, so a try it was not yet running for is made again a little later. Gives
 * back what stops the tries.
 */
function announceAtStart(counter: CounterOperations, timers: Timers): () => void {
  let timer: unknown;
  let stopped = false;
  const announce = (triesLeft: number): void => {
    void counter
      .announcePending()
      .catch(() => false)
      .then((done) => {
        if (done || stopped || triesLeft <= 1) return;
        timer = timers.setTimeout(() => announce(triesLeft - 1), ANNOUNCE_RETRY_MS);
      });
  };
  announce(ANNOUNCE_TRIES);
  return () => {
    stopped = true;
    timers.clearTimeout(timer);
  };
}

/** The end-of-shift report, from the journal and what is still open, and this till's part of the shop's. */
function shiftReports(outbox: Outbox, now: () => Date) {
  const shiftReport = async (since: string, until?: string): Promise<ShiftReport> =>
    buildShiftReport({
      since,
      until: until ?? now().toISOString(),
      upToNow: until === undefined,
      journal: await outbox.journalSince(since),
      open: await outbox.items(),
    });
  /** This till's report for the shop's other tills, from the journal (none of its customers' details). */
  const reportPart = async (since: string, until: string) => toReportPart(await shiftReport(since, until));
  return { shiftReport, reportPart };
}

/**
 * The outbox and journal reconciled with the main process's copy at every opening of the
 * database (outbox/copy-reconciliation.ts), and what the last reconciliation found, for the
 * screens to say what was put back.
 */
function restoredWork(
  db: OfflineDb,
  needs: { api: TillApi; copy: MainCopy; now: () => Date; timers: Timers },
  changed: () => void,
) {
  let last: Reconciliation | null = null;
  const listeners = new Set<(outcome: Reconciliation) => void>();
  const stop = reconcileAtEveryOpen(db, {
    ...needs,
    reconciled(outcome) {
      last = outcome;
      if (outcome.restoredItems > 0 || outcome.restoredEntries > 0) changed();
      for (const listener of listeners) listener(outcome);
    },
  });
  return {
    stop,
    last: () => last,
    subscribe(listener: (outcome: Reconciliation) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The first start's sealing pass, run once a page (in the background, making way for the cashier). */
function sealingPass(db: OfflineDb, cache: CustomerCache) {
  const controller = new AbortController();
  let running: Promise<SealingProgress> | null = null;
  return {
    run(): Promise<SealingProgress> {
      if (running) return running;
      const started = runSealingPass({ db, rhythm: cache, signal: controller.signal });
      running = started;
      // Stopped early or failed: the next ask (or start) goes on from where it got.
      const again = () => {
        if (running === started) running = null;
      };
      started.then((progress) => progress.done || again(), again);
      return started;
    },
    stop: () => controller.abort(),
  };
}

/** The data key's problems as the screens say them, and the sealing pass. */
function sealingOperations(db: OfflineDb, sealing: ReturnType<typeof sealingPass>) {
  return {
    /**
     * Why the till's database started blank, when it did: the main process's data key was lost,
     * or the database was sealed under another key (db/key-at-open.ts). Told at once when found
     * before the subscription. The screens say it.
     */
    onDataKeyProblem: (listener: (problem: DataKeyProblem) => void) => onDataKeyProblem(db, listener),
    /** The last key problem found (null when none). */
    dataKeyProblem: (): DataKeyProblem | null => lastDataKeyProblem(db),
    /**
     * Seals what an earlier version stored in clear (sealing-pass.ts), making way for the
     * cashier; start() begins it. Resolves once done (or stopped: it goes on at the next start).
     */
    sealLegacyRecords: (): Promise<SealingProgress> => sealing.run(),
  };
}

/** The database's end, once everything that uses it is stopped (`stopAll`). */
function databaseOperations(db: OfflineDb, stopAll: () => void) {
  return {
    /** Stops everything and closes the database (a till window going away, or a test's end). */
    close(): void {
      stopAll();
      db.close();
    },
    /** Stops everything and deletes the database (the till's data forgotten: it starts blank). */
    async deleteDatabase(): Promise<void> {
      stopAll();
      await db.delete();
    },
  };
}

/** The connection as the header sees it: the monitor's snapshot and its changes, and the asks. */
function connectionOperations(connection: ConnectionMonitor) {
  return {
    /** The connection as the monitor sees it now, and its changes. */
    connectionNow: (): ConnectionSnapshot => connection.current(),
    onConnectionChange: (listener: (snapshot: ConnectionSnapshot) => void) => connection.subscribe(listener),
    /** Asks the service now instead of at the next probe; resolves to the state it found. */
    probeConnectionNow: () => connection.probeNow(),
    /** Another probe (the header's) learnt whether the service answers. */
    noteReachable(reachable: boolean, reason?: string): void {
      if (reachable) connection.markOnline();
      else connection.markOffline(saidOrUnreachable(reason));
    },
  };
}

/** The background refresh of the cache as Settings shows it: its progress and its plan. */
function refreshOperations(refresh: CacheRefresh, background: BackgroundWork) {
  return {
    /** How far the background refresh of the cache is, and its changes. */
    refreshProgress: (): RefreshProgress => refresh.progress(),
    onRefreshProgress: (listener: (progress: RefreshProgress) => void) => refresh.subscribe(listener),
    /** Reads the refresh's stored progress (when it last completed) without starting one. */
    loadRefreshProgress: (): Promise<RefreshProgress> => background.loadRefreshProgress(),
    /** When this till's next complete refresh is planned; null before its first. */
    plannedRefreshAt: (): Date | null => background.plannedRefreshAt(),
  };
}

export function createOfflineServices(options: OfflineServicesOptions) {
  const { now, timers, db, connection, api, cache, outbox, copy, replayer, refresh, background, writeBehind, counter } =
    wireSubsystems(options);
  const { shiftReport, reportPart } = shiftReports(outbox, now);
  const restored = restoredWork(db, { api: options.api, copy, now, timers }, () => outbox.notify());
  let stopAnnouncing: (() => void) | null = null;
  let stopServingReports: (() => void) | null = null;
  const sealing = sealingPass(db, cache);
  const days = () => options.settings().journalPersonalDays;
  const retention = journalRetention({ db, now, timers, days, changed: () => outbox.notify() });

  function stop(): void {
    retention.stop();
    stopAnnouncing?.();
    stopAnnouncing = null;
    stopServingReports?.();
    stopServingReports = null;
    background.stop();
    connection.stop();
  }

  // Only operations leave this function: the database, cache, outbox, replayer, refresh and
  // connection monitor stay inside, so callers cannot bypass the write-through and replay rules.
  return {
    ...connectionOperations(connection),
    ...refreshOperations(refresh, background),
    ...sealingOperations(db, sealing),

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
      background.start();
      stopAnnouncing?.();
      stopAnnouncing = announceAtStart(counter, timers);
      stopServingReports ??= serveReportRequests({ api, build: reportPart, timers });
      void sealing
        .run()
        .catch((error: unknown) => console.warn('The sealing pass stopped; it goes on at the next start', error));
      retention.start();
    },

    stop,

    ...databaseOperations(db, () => {
      stop();
      sealing.stop();
      restored.stop();
    }),

    /**
     * What the last reconciliation with the main process's copy found (null before the first):
     * items and entries put back that this page's database had lost, and whether it was empty.
     */
    copyReconciliation: (): Reconciliation | null => restored.last(),
    onCopyReconciled: (listener: (outcome: Reconciliation) => void) => restored.subscribe(listener),

    /** Tells the shop again of every redemption waiting in the outbox (start() does it too). */
    announcePending: () => counter.announcePending(),

    /** Find customers by phone, name words or part of a number; from the cache when offline. */
    searchCustomers: (text: string, page = 1) => counter.searchCustomers(text, page),
    /** One customer with the rewards awaiting redemption; from the cache when offline. */
    getCustomer: (id: string) => counter.getCustomer(id),
    /** A loyalty card's serial to its holder's id: the service's search kept to exact serials, else the cache. */
    findCardHolder: (serial: string) =>
      findCardHolder({ api, cache, offlineNow: () => connection.state === 'offline' }, serial),
    /** Check a code; offline, from the cached rewards, saying so. */
    checkReward: (code: string, phone: string) => counter.checkReward(code, phone),
    /** Redeem after the order is settled (counter-operations.ts says what each outcome means). */
    redeemReward: (input: { code: string; phone: string; orderReference?: string | null }) =>
      counter.redeemReward(input),
    /** Register (idempotent by phone); offline it is queued and the customer usable at once. */
    registerCustomer: (payload: RegisterCustomerPayload) => counter.registerCustomer(payload),
    /** Corrections need the service (they are not queued); the answer is written through. */
    updateCustomer: (payload: UpdateCustomerPayload) => counter.updateCustomer(payload),

    /**
     * Subscribes to failed write-through (the answer was shown, the cache missed it): for the
     * error log. Without a subscriber the failures go to the console.
     */
    onCacheWriteFailure: (listener: WriteFailureListener) => writeBehind.onFailure(listener),
    /** Resolves once every answer shown so far is written through (or its failure reported). */
    cacheWritesSettled: () => writeBehind.settled(),

    /** Programmes on cached customers' cards (a bounded read, for the Settings screen). */
    programmesSeen: () => cache.programmesSeen(),
    /** The cache's last complete refresh and its size then, for the till's health. */
    cacheFacts: () => readCacheFacts(db),

    // The outbox screen.
    outboxItems: () => outbox.items(),
    /** What left the outbox (the Outbox screen's "done"). */
    journal: () => outbox.outboxJournal(),
    /** The whole journal since a time (ISO): the shift report's record. */
    journalSince: (since: string) => outbox.journalSince(since),
    counts: () => outbox.counts(),
    acknowledge: async (seq: number) => outbox.acknowledge(seq, serviceNow(await readServiceClock(api))),
    retry: async (seq: number) => {
      const retried = await outbox.retry(seq);
      if (retried) background.replaySoon();
      return retried;
    },
    /** The whole journal, then what is still open (waiting, in conflict, failed): the CSV's rows (lib/journal-csv.ts). */
    journalExport: async () => outbox.exportRows(await outbox.journal()),
    /**
     * The end-of-shift report from a time to another (ISO; without an end, to now): the
     * journal between them and everything still open.
     */
    shiftReport,
    /** This till's report as the shop's other tills receive it. */
    shopReportPart: reportPart,
    /** The report's CSV rows: the same entries as the report, and everything still open. */
    shiftExport: async (since: string, until?: string) =>
      outbox.exportRows(journalBefore(await outbox.journalSince(since), until)),
    replayPause: () => replayer.pause(),
    /** "Retry now" on a paused queue. */
    resumeReplay: async () => {
      await replayer.resume();
      background.replaySoon();
    },
    /** A new key was saved: the pause and every back-off wait end, and the queue goes at once. */
    resumeAfterKeyChange: async () => {
      await replayer.resumeWithNewKey();
      background.replaySoon();
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
