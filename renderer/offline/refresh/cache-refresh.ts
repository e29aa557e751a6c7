/**
 * The background refresh that fills the cache with the whole customer base, by paging
 * `GET /v1/customers?per_page=100` politely:
 * - a few pages in flight at once (bounded concurrency), one writer storing the pages that
 *   have arrived in one transaction with the cursor;
 * - the cashier first: while they search the cache, pages are asked for and written in the
 *   pauses between their searches, never so late that they would land during the next; a
 *   first fill's transactions grow part by part until the pause is used or a search starts
 *   (page-writer.ts `storeParted`), others are cut to the pause's size before they open
 *   (`storeBatch`, sized by write-pacer.ts);
 * - back-off with jitter on errors, honouring `Retry-After` on 429 (page-fetcher.ts);
 * - resumable: the highest page below which everything is stored is kept in `meta`, so a
 *   restart continues there (the service lists customers oldest first, so pages are stable
 *   while new customers register; they land on the last pages);
 * - observable: how many were fetched, of how many, and when the last complete refresh was;
 * - cheap when nothing changed: each page's entity tag is stored with its customers and sent
 *   back as `If-None-Match` next time, so an unchanged page is a 304 with no body and no
 *   write; a page without a tag (or changed) writes only the customers that differ from
 *   what is stored.
 *
 * This module keeps the run (its progress, load/run/stop, the cursor) and the fill loop that
 * wires the fetchers (page-fetcher.ts) to the writer (page-writer.ts) and its pacer
 * (write-pacer.ts).
 */
import type { TillApi } from '../../../common/contract';
import type { BackoffPolicy } from '../connection/backoff';
import { clearMeta, readMeta, writeMeta } from '../db/meta';
import { type OfflineDb, type PageTag, type RefreshCursor } from '../db/schema';
import { customersAtMost } from '../customers/customer-reads';
import type { CustomerCache } from '../cache/customer-cache';
import { StoredIds } from '../customers/stored-ids';
import { yieldToBrowser } from '../search/index-loader';
import { WriteCostModel } from '../pacing/write-cost';
import { PageFetcher, type FetchedPage } from './page-fetcher';
import { PageWriter, takeInOrder } from './page-writer';
import { StopRun, type RefreshStop } from './refresh-stop';
import { WritePacer } from './write-pacer';

export type { RefreshStop } from './refresh-stop';
export { CASHIER_SHARE, adaptedCashierShare } from './write-pacer';

export type RefreshState = 'idle' | 'running' | 'stopped';

export interface RefreshProgress {
  state: RefreshState;
  /** Pages stored in the current (or last) run, up to `lastPage`. */
  pagesDone: number;
  lastPage: number | null;
  /** Customers stored so far in the current refresh, counting pages from a resumed run. */
  fetched: number;
  /** The service's total when it last said. */
  total: number | null;
  lastCompleteRefreshAt: string | null;
  /**
   * Customers the service listed that the till could not read, in the last complete refresh:
   * left out of the cache (an older copy stays) and counted, never lost silently.
   */
  unreadable: number;
  /** Why the last run stopped: a reason, worded when shown (lib/refresh-words.ts), so a language switch re-words it. */
  stoppedBecause: RefreshStop | null;
  /** When the last run stopped early (it resumes from its cursor). */
  stoppedAt: string | null;
  /** A refresh was left part-way (a cursor is stored): the next run continues it. */
  resumable: boolean;
}

/**
 * Whether a refresh should start now: never while one runs; a stopped one after a pause
 * (so a rejected key or a dead network is not hammered); a part-way one at once; otherwise
 * once `nextAfter(last complete refresh)` has come (refresh-schedule.ts), or a fixed
 * interval in ms after it.
 */
export function refreshDue(
  progress: RefreshProgress,
  now: Date,
  nextAfter: number | ((last: Date) => Date),
  retryAfterStopMs: number,
): boolean {
  if (progress.state === 'running') return false;
  if (progress.state === 'stopped' && progress.stoppedAt !== null) {
    return now.getTime() - Date.parse(progress.stoppedAt) >= retryAfterStopMs;
  }
  if (progress.resumable) return true;
  if (progress.lastCompleteRefreshAt === null) return true;
  const last = new Date(progress.lastCompleteRefreshAt);
  const due = typeof nextAfter === 'number' ? last.getTime() + nextAfter : nextAfter(last).getTime();
  return now.getTime() >= due;
}

export interface CacheRefreshOptions {
  api: Pick<TillApi, 'customerPage'>;
  db: OfflineDb;
  cache: CustomerCache;
  now?: () => Date;
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
  yieldToPage?: () => Promise<void>;
  /** Pages in flight at once. */
  concurrency?: number;
  perPage?: number;
  backoff?: BackoffPolicy;
  /** Tries of one page before the run stops (and resumes later from its cursor). */
  maxTriesPerPage?: number;
  /** What its write transactions cost, as learnt so far (a fresh model by default). */
  writeCost?: WriteCostModel;
  /** Customers per transaction while the cashier searches, fixed (by default it adapts). */
  cashierTransactionCustomers?: number;
}

/**
 * Pages asked for at once. While the cashier searches, a fetcher asks only when its answer
 * should come before their next search, or right after one, so each brings about one page
 * a pause: with three, pages ran short of what the writer could store in a pause, and four
 * filled faster (docs/decisions/2026-11-24-four-pages-in-flight.md). A fleet's daily load is
 * the same: every page is asked for once either way.
 */
const PAGES_IN_FLIGHT = 4;
/**
 * How far the fetchers may run ahead of what is stored, in pages: the pages waiting in
 * memory survive the garbage collector's scavenges (docs/decisions/2026-11-24-fetch-twelve-pages-ahead.md),
 * and six, quicker for a redemption queued meanwhile, made the fill slower and dearer
 * (docs/decisions/2026-11-29-twelve-pages-ahead-kept.md).
 */
export const MAX_PAGES_AHEAD = 12;
/**
 * A fill loads the stored ids (stored-ids.ts) when the customers stored beyond its done
 * pages are at most this share of those its pages still hold: then most are new.
 */
const MOSTLY_NEW = 0.1;

/** The customers the service listed and the till could not read, over the stored pages' tags. */
async function unreadableOnPages(db: OfflineDb, perPage: number): Promise<number> {
  let unreadable = 0;
  await db.pageTags.each((tag) => {
    if (tag.perPage === perPage) unreadable += tag.skipped ?? 0;
  });
  return unreadable;
}

/** Wakes whoever waits for "something changed" (a page arrived, a batch was stored). */
class Changes {
  private waiters: (() => void)[] = [];

  next(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  notify(): void {
    for (const resolve of this.waiters.splice(0)) resolve();
  }
}

export class CacheRefresh {
  private readonly options: CacheRefreshOptions;
  private snapshot: RefreshProgress = {
    state: 'idle',
    pagesDone: 0,
    lastPage: null,
    fetched: 0,
    total: null,
    lastCompleteRefreshAt: null,
    unreadable: 0,
    stoppedBecause: null,
    stoppedAt: null,
    resumable: false,
  };
  private readonly listeners = new Set<(progress: RefreshProgress) => void>();
  private running: Promise<RefreshProgress> | null = null;
  private stopRequested = false;
  private readonly now: () => Date;
  private readonly yieldToPage: () => Promise<void>;
  private readonly concurrency: number;
  private readonly perPage: number;
  private readonly fetcher: PageFetcher;
  private readonly pacer: WritePacer;
  private readonly writer: PageWriter;

  constructor(options: CacheRefreshOptions) {
    this.options = options;
    this.now = options.now ?? (() => new Date());
    this.yieldToPage = options.yieldToPage ?? yieldToBrowser;
    this.concurrency = options.concurrency ?? PAGES_IN_FLIGHT;
    this.perPage = options.perPage ?? 100;
    this.fetcher = new PageFetcher({
      api: options.api,
      cache: options.cache,
      perPage: this.perPage,
      now: this.now,
      stopRequested: () => this.stopRequested,
      random: options.random,
      sleep: options.sleep,
      backoff: options.backoff,
      maxTriesPerPage: options.maxTriesPerPage,
    });
    this.pacer = new WritePacer(
      options.cache,
      options.writeCost ?? new WriteCostModel(),
      options.cashierTransactionCustomers,
    );
    this.writer = new PageWriter({
      db: options.db,
      cache: options.cache,
      perPage: this.perPage,
      pacer: this.pacer,
      advanced: (cursor, listed) => this.cursorMoved(cursor, listed),
    });
  }

  progress(): RefreshProgress {
    return { ...this.snapshot };
  }

  subscribe(listener: (progress: RefreshProgress) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** How many of this refresh's writes gave way to a cashier's search and were written again. */
  get interruptedWrites(): number {
    return this.writer.interruptedWrites;
  }

  /** The share of the cashier's pause a transaction may take now (see CASHIER_SHARE). */
  get cashierShare(): number {
    return this.pacer.cashierShare;
  }

  /** Reads the last complete refresh from the database, for the header before any run. */
  async load(): Promise<RefreshProgress> {
    const last = await readMeta(this.options.db, 'lastCompleteRefresh');
    const cursor = await readMeta(this.options.db, 'refreshCursor');
    if (last) this.options.cache.confirmedAt = last.at;
    this.update({
      lastCompleteRefreshAt: last?.at ?? null,
      unreadable: last?.unreadable ?? 0,
      resumable: cursor !== undefined,
      ...(cursor ? { pagesDone: cursor.pagesDone, lastPage: cursor.lastPage, total: cursor.total } : {}),
    });
    return this.progress();
  }

  /** Runs (or resumes) a refresh; calling it while one runs returns the same run. */
  run(): Promise<RefreshProgress> {
    if (!this.running) {
      this.stopRequested = false;
      this.running = this.refresh().finally(() => {
        this.running = null;
      });
    }
    return this.running;
  }

  /** Stops after the pages in flight (those in order are stored); the cursor keeps the place. */
  stop(): void {
    this.stopRequested = true;
  }

  private async refresh(): Promise<RefreshProgress> {
    const { db } = this.options;
    this.update({ state: 'running', stoppedBecause: null, stoppedAt: null });
    try {
      let cursor = await readMeta(db, 'refreshCursor');
      let first: FetchedPage | null = null;
      if (!cursor || cursor.perPage !== this.perPage) {
        const startedAt = this.now().toISOString();
        // Unconditional: a new run needs the page count and total, which a 304 does not carry.
        first = await this.fetcher.fetchPage(1, null);
        // Stored (page 1 with it) by the writer: a cursor never points past what is stored.
        cursor = { startedAt, perPage: this.perPage, lastPage: first.lastPage, total: first.total, pagesDone: 0 };
        this.update({ pagesDone: 0, lastPage: cursor.lastPage, total: cursor.total, fetched: 0 });
      } else {
        this.update({
          pagesDone: cursor.pagesDone,
          lastPage: cursor.lastPage,
          total: cursor.total,
          fetched: cursor.pagesDone * this.perPage,
        });
      }
      await this.fill(cursor, first);
      const total = this.snapshot.total ?? 0;
      // Pages past the end no longer exist; their tags would vouch for nothing.
      await db.pageTags.where('page').above(cursor.lastPage).delete();
      const unreadable = await unreadableOnPages(db, this.perPage);
      await writeMeta(db, 'lastCompleteRefresh', { at: cursor.startedAt, total, unreadable });
      await clearMeta(db, 'refreshCursor');
      this.options.cache.confirmedAt = cursor.startedAt;
      this.update({
        state: 'idle',
        resumable: false,
        lastCompleteRefreshAt: cursor.startedAt,
        unreadable,
        fetched: Math.min(this.snapshot.fetched, total),
      });
    } catch (error) {
      if (!(error instanceof StopRun)) throw error;
      this.update({ state: 'stopped', stoppedBecause: error.stop, stoppedAt: this.now().toISOString() });
    }
    return this.progress();
  }

  /**
   * Pages after the cursor: a few fetchers, one writer.
   *
   * IndexedDB runs read-write transactions over the same tables one after another, and a
   * read waits for every overlapping write created before it; one transaction per page
   * made the fill slow and made the cashier's reads queue behind several writes. So the
   * writer stores every page that has arrived in order after the cursor (a batch's worth at
   * most, page-writer.ts `takeInOrder`) in ONE transaction that also moves the cursor: the
   * pages and the cursor commit together, and a restart repeats exactly the pages not
   * stored. A parted write may end inside a page: the cursor then stays before it, the rest
   * of the page is stored next, and a restart fetches it again (its stored customers are
   * known by id).
   */
  private async fill(cursor: RefreshCursor, first: FetchedPage | null): Promise<void> {
    // Few customers stored beyond what the pages done hold (a first fill or its resumption,
    // with perhaps some the cashier looked up meanwhile): the pages to come are mostly new to
    // the cache, and those the stored ids do not hold are inserted without a lookup each.
    // Otherwise nearly every one is stored, and reading all their ids first would cost more
    // than it saves.
    const { db } = this.options;
    const beyondDonePages = (await customersAtMost(db)) - cursor.pagesDone * this.perPage;
    const toCome = cursor.total - cursor.pagesDone * this.perPage;
    this.writer.beginFill(beyondDonePages <= toCome * MOSTLY_NEW ? await StoredIds.load(db) : null);
    try {
      await this.fillPages(cursor, first);
    } finally {
      this.writer.endFill();
    }
  }

  private async fillPages(cursor: RefreshCursor, first: FetchedPage | null): Promise<void> {
    const tags = new Map<number, PageTag>();
    for (const tag of await this.options.db.pageTags.toArray())
      if (tag.perPage === this.perPage) tags.set(tag.page, tag);
    const arrived = new Map<number, FetchedPage>();
    if (first) arrived.set(1, first);
    const changed = new Changes();
    let next = cursor.pagesDone + 1 + (first ? 1 : 0);
    let lastPage = cursor.lastPage;
    let failure: unknown = null;
    let fetching = true;

    const fetchPages = async () => {
      // A fetcher that has waited for a search to end asks at once, even if its answer may
      // come during the next one (pages slower than the cashier's pause must still come).
      let waitedForSearch = false;
      while (failure === null && next <= lastPage) {
        if (this.stopRequested) {
          failure = new StopRun({ reason: 'stopped' });
          break;
        }
        // Fetch only so far ahead of the writer: pages waiting in memory stay bounded.
        if (next > cursor.pagesDone + MAX_PAGES_AHEAD) {
          await changed.next();
          continue;
        }
        if (!waitedForSearch && this.fetcher.answerWouldMeetSearch()) {
          waitedForSearch = true;
          await this.options.cache.nextSearchEnd();
          continue;
        }
        waitedForSearch = false;
        const page = next++;
        try {
          const stored = tags.get(page);
          const fetched = await this.fetcher.fetchPage(page, {
            etag: stored?.etag ?? null,
            skipped: stored?.skipped ?? 0,
            cursor,
          });
          // New customers may add pages while we page: follow them.
          lastPage = Math.max(lastPage, fetched.lastPage);
          arrived.set(page, fetched);
        } catch (error) {
          failure ??= error;
        }
        changed.notify();
      }
    };

    const writePages = async () => {
      for (;;) {
        if (!arrived.has(cursor.pagesDone + 1)) {
          // After a failure the pages in order are still stored; the rest are fetched again.
          if (!fetching) return;
          await changed.next();
          continue;
        }
        // The cashier first: a search queues behind at most the one write already running,
        // and while they search that write is a few milliseconds long.
        const { cache } = this.options;
        await cache.whenSearchesIdle();
        const batch = takeInOrder(arrived, cursor.pagesDone + 1);
        try {
          // What a parted write did not take waits for the next turn, as pages do.
          for (const page of await this.writer.store(cursor, batch, tags)) arrived.set(page.page, page);
        } catch (error) {
          failure ??= new StopRun({
            reason: 'not_stored',
            detail: error instanceof Error ? error.message : String(error),
          });
          changed.notify();
          return;
        }
        if (this.stopRequested) {
          failure ??= new StopRun({ reason: 'stopped' });
          changed.notify();
          return;
        }
        changed.notify();
        await this.yieldToPage();
      }
    };

    const writing = writePages();
    await Promise.all(Array.from({ length: this.concurrency }, fetchPages));
    fetching = false;
    changed.notify();
    await writing;
    if (failure !== null) throw failure;
  }

  /** The writer moved the cursor past stored pages; `listed` customers were stored with them. */
  private cursorMoved(cursor: RefreshCursor, listed: number): void {
    this.update({
      resumable: true,
      pagesDone: cursor.pagesDone,
      lastPage: cursor.lastPage,
      total: cursor.total,
      fetched: Math.min(this.snapshot.fetched + listed, cursor.total),
    });
  }

  private update(patch: Partial<RefreshProgress>): void {
    this.snapshot = { ...this.snapshot, ...patch };
    const snapshot = this.progress();
    for (const listener of this.listeners) listener(snapshot);
  }
}
