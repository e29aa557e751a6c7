/**
 * The background refresh that fills the cache with the whole customer base, by paging
 * `GET /v1/customers?per_page=100` politely:
 * - a few pages in flight at once (bounded concurrency), one writer storing the pages that
 *   have arrived in one transaction with the cursor;
 * - the cashier first: while they search the cache, pages are asked for and written in the
 *   pauses between their searches, never so late that they would land during the next; a
 *   first fill's transactions grow part by part until the pause is used or a search starts
 *   (`storeParted`), others are cut to the pause's size before they open (`storeBatch`);
 * - back-off with jitter on errors, honouring `Retry-After` on 429;
 * - resumable: the highest page below which everything is stored is kept in `meta`, so a
 *   restart continues there (the service lists customers oldest first, so pages are stable
 *   while new customers register; they land on the last pages);
 * - observable: how many were fetched, of how many, and when the last complete refresh was;
 * - cheap when nothing changed: each page's entity tag is stored with its customers and sent
 *   back as `If-None-Match` next time, so an unchanged page is a 304 with no body and no
 *   write; a page without a tag (or changed) writes only the customers that differ from
 *   what is stored.
 */
import type { TillApi } from '../../../common/contract';
import { backoffDelay, boundedRetryAfter, type BackoffPolicy } from '../connection/backoff';
import { isTransient } from '../connection/failure-kinds';
import { clearMeta, readMeta, writeMeta } from '../db/meta';
import { type OfflineDb, type PageTag, type RefreshCursor } from '../db/schema';
import { customersAtMost } from '../customers/customer-blocks';
import { prepareCustomers, PreparedCustomers, WriteInterrupted, type CustomerCache } from '../customers/customer-cache';
import { StoredIds } from '../customers/stored-ids';
import { pageHash } from './page-hash';
import { yieldToBrowser } from '../search/index-loader';
import { WriteCostModel } from '../customers/write-cost';

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
  /** Why the last run stopped: a reason, worded when shown (refresh-words.ts), so a language switch re-words it. */
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

/** Why a run stopped early. The screens word it (refresh-words.ts `refreshStopWords`). */
export type RefreshStop =
  /** `stop()` was called. */
  | { reason: 'stopped' }
  /** The cache could not store what came; `detail` is the storage's own message, as it gave it. */
  | { reason: 'not_stored'; detail: string }
  /** The service answered "not modified" to a request that was not conditional. */
  | { reason: 'not_modified_unasked' }
  /** A page could not be had; `message` is the bridge's (the till's words in the interface language, or the service's). */
  | { reason: 'call_failed'; message: string };

class StopRun extends Error {
  constructor(readonly stop: RefreshStop) {
    super(stop.reason);
  }
}

/** Pages stored in one transaction at most (and customers, whatever the page size). */
const WRITE_BATCH_PAGES = 10;
const WRITE_BATCH_CUSTOMERS = 1_000;
/**
 * While the cashier searches the cache, the writer fits its transactions between their
 * searches: going by the cashier's rhythm (customer-cache.ts `expectedSearchIn`) and what
 * its transactions cost (write-cost.ts), each is sized to end within a share of the
 * cashier's usual pause, the rest kept in reserve; when too little is left, it waits for
 * the next search to end. A search that comes during a write waits for it (or rolls it
 * back, early on), so the share adapts to keep that rare: cut by a quarter each time a
 * search meets a write, grown a little with each write none met. On a busy till a write's
 * time varies by half or more, so the share that suits is the till's, not a constant's.
 */
export const CASHIER_SHARE = { first: 0.6, min: 0.25, max: 0.8, cut: 0.75, growth: 0.005 } as const;

/** The share after a transaction sized for the cashier's pause, which a search did or did not meet. */
export function adaptedCashierShare(share: number, metBySearch: boolean): number {
  const { min, max, cut, growth } = CASHIER_SHARE;
  return metBySearch ? Math.max(min, share * cut) : Math.min(max, share + growth);
}

/** One block's worth: fewer customers would not fill the record a transaction writes anyway. */
const CASHIER_SLICE_MIN = 16;
/**
 * Pages with nothing to store (304s, pages hashing as stored) move the stored cursor at
 * most this often: a transaction per such page was most of an unchanged refresh's writes.
 * A restart repeats at most these pages, which cost no writes.
 */
const IDLE_CURSOR_EVERY_MS = 2_000;
/** Searches the writer waits the end of for room for a transaction before it writes anyway. */
const MAX_WAITS_FOR_ROOM = 1;
/** Times one write may give way to the cashier's searches before it is let finish. */
const MAX_INTERRUPTIONS = 2;
/**
 * A fill loads the stored ids (stored-ids.ts) when the customers stored beyond its done
 * pages are at most this share of those its pages still hold: then most are new.
 */
const MOSTLY_NEW = 0.1;

/**
 * Pages asked for at once. While the cashier searches, a fetcher asks only when its answer
 * should come before their next search, or right after one, so each brings about one page
 * a pause: with three, pages ran short of what the writer could store in a pause (in traced
 * runs up to a third of its transactions ended for want of pages), and four filled 9%
 * faster in turns with three (docs/benchmark.md). A fleet's daily load is the same: every page is asked
 * for once either way.
 */
const PAGES_IN_FLIGHT = 4;
/** How far the fetchers may run ahead of what is stored, in pages. */
const MAX_PAGES_AHEAD = 12;
/** Weight of the latest page in the running estimate of how long a page takes to come. */
const ROUND_TRIP_WEIGHT = 0.2;

/** A transaction's customers, and whether they were fitted to the cashier's pause by the write cost. */
interface SliceSize {
  customers: number;
  fitted: boolean;
}

interface FetchedPage {
  page: number;
  /** Parsed and folded by the fetcher, so the writer's transactions hold only IndexedDB work. */
  customers: PreparedCustomers;
  /** Of the customers as stored; with the stored one, tells an unchanged page without a read. */
  contentHash: string | null;
  fetchedAt: string;
  lastPage: number;
  total: number;
  /** The service's tag for this page, stored with it. */
  etag: string | null;
  /** A 304: the stored customers of this page are current; nothing to write. */
  unchanged: boolean;
  /** Customers on this page the till could not read (a 304's: as stored with its tag). */
  skipped: number;
}

/** The customers the service listed and the till could not read, over the stored pages' tags. */
async function unreadableOnPages(db: OfflineDb, perPage: number): Promise<number> {
  let unreadable = 0;
  await db.pageTags.each((tag) => {
    if (tag.perPage === perPage) unreadable += tag.skipped ?? 0;
  });
  return unreadable;
}

/** Removes and returns the pages that follow `from` without a gap, a batch's worth at most. */
function takeInOrder(arrived: Map<number, FetchedPage>, from: number, maxPages: number): FetchedPage[] {
  const batch: FetchedPage[] = [];
  let customers = 0;
  for (let page = from; arrived.has(page) && batch.length < maxPages; page++) {
    const fetched = arrived.get(page)!;
    if (batch.length > 0 && customers + fetched.customers.length > WRITE_BATCH_CUSTOMERS) break;
    arrived.delete(page);
    batch.push(fetched);
    customers += fetched.customers.length;
  }
  return batch;
}

/** Whether the page's customers hash as those stored from it: unchanged, as a 304 says. */
function hashesAsStored(page: FetchedPage, tags: Map<number, PageTag>): boolean {
  return page.contentHash !== null && tags.get(page.page)?.contentHash === page.contentHash;
}

/** The oldest fetch time of the pages written together: "from the cache of" never claims fresher data. */
function oldestFetchedAt(pages: readonly FetchedPage[]): string {
  return pages.reduce((oldest, page) => (page.fetchedAt < oldest ? page.fetchedAt : oldest), pages[0]!.fetchedAt);
}

/** The pages whose customers are all among the first `stored` of theirs, taken in order. */
function completedPages(pages: readonly FetchedPage[], stored: number): FetchedPage[] {
  const complete: FetchedPage[] = [];
  let left = stored;
  for (const page of pages) {
    if (page.customers.length > left) break;
    left -= page.customers.length;
    complete.push(page);
  }
  return complete;
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
  private readonly random: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly yieldToPage: () => Promise<void>;
  private readonly concurrency: number;
  private readonly perPage: number;
  private readonly backoff: BackoffPolicy;
  private readonly maxTries: number;

  constructor(private readonly options: CacheRefreshOptions) {
    this.now = options.now ?? (() => new Date());
    this.random = options.random ?? Math.random;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.yieldToPage = options.yieldToPage ?? yieldToBrowser;
    this.concurrency = options.concurrency ?? PAGES_IN_FLIGHT;
    this.perPage = options.perPage ?? 100;
    this.backoff = options.backoff ?? { baseMs: 1_000, maxMs: 60_000 };
    this.maxTries = options.maxTriesPerPage ?? 5;
    this.writeCost = options.writeCost ?? new WriteCostModel();
  }

  progress(): RefreshProgress {
    return { ...this.snapshot };
  }

  subscribe(listener: (progress: RefreshProgress) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
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
        first = await this.fetchPage(1, null);
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
   * writer stores every page that has arrived in order after the cursor (up to
   * WRITE_BATCH_PAGES) in ONE transaction that also moves the cursor: the pages and the
   * cursor commit together, and a restart repeats exactly the pages not stored. A parted
   * write may end inside a page: the cursor then stays before it, the rest of the page is
   * stored next, and a restart fetches it again (its stored customers are known by id).
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
    this.storedIds = beyondDonePages <= toCome * MOSTLY_NEW ? await StoredIds.load(db) : null;
    try {
      await this.fillPages(cursor, first);
    } finally {
      this.storedIds?.close();
      this.storedIds = null;
    }
  }

  private async fillPages(cursor: RefreshCursor, first: FetchedPage | null): Promise<void> {
    // A run that only confirms what is stored may end without ever storing its cursor.
    this.cursorStoredAt = performance.now();
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

    const fetcher = async () => {
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
        if (!waitedForSearch && this.answerWouldMeetSearch()) {
          waitedForSearch = true;
          await this.options.cache.nextSearchEnd();
          continue;
        }
        waitedForSearch = false;
        const page = next++;
        try {
          const stored = tags.get(page);
          const fetched = await this.fetchPage(page, {
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

    // Transactions of a size fixed by the options take no part of the cashier's pause but theirs.
    const fixedSlices = this.options.cashierTransactionCustomers !== undefined;
    const writer = async () => {
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
        const batch = takeInOrder(arrived, cursor.pagesDone + 1, WRITE_BATCH_PAGES);
        try {
          const left = this.storedIds && !fixedSlices ? await this.storeParted(cursor, batch, tags) : null;
          // What a parted write did not take waits for the next turn, as pages do.
          if (left) for (const page of left) arrived.set(page.page, page);
          // While the cashier searches, storeBatch cuts the batch into short transactions.
          else await this.storeBatch(cursor, batch, tags);
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

    const writing = writer();
    await Promise.all(Array.from({ length: this.concurrency }, fetcher));
    fetching = false;
    changed.notify();
    await writing;
    if (failure !== null) throw failure;
  }

  /**
   * The batch's customers and the cursor moved past them, with the pages' tags: one
   * transaction, or while the cashier searches, several short ones, of which the last moves
   * the cursor (a restart repeats the batch; what was stored compares unchanged).
   */
  private async storeBatch(cursor: RefreshCursor, batch: FetchedPage[], tags: Map<number, PageTag>): Promise<void> {
    const { db, cache } = this.options;
    const moved = this.movedCursor(cursor, batch);
    // A page hashing as stored is unchanged, as a 304 says: no read, no write.
    const toWrite = batch.filter((page) => !page.unchanged && !hashesAsStored(page, tags));
    const customers = PreparedCustomers.concat(toWrite.map((page) => page.customers));
    const fetchedAt = oldestFetchedAt(batch);
    const newTags = batch.filter((page) => !page.unchanged).map((page) => this.tagOf(page));
    const tagsKept = newTags.every((tag) => {
      const stored = tags.get(tag.page);
      return (
        stored !== undefined &&
        stored.etag === tag.etag &&
        stored.contentHash === tag.contentHash &&
        stored.skipped === tag.skipped
      );
    });
    if (customers.length === 0 && tagsKept && performance.now() - this.cursorStoredAt < IDLE_CURSOR_EVERY_MS) {
      this.advance(cursor, moved, batch);
      return;
    }
    // All but the last slice: customers only.
    let from = 0;
    let slice: SliceSize;
    for (;;) {
      slice = await this.nextSliceSize(customers.length - from);
      if (from + slice.customers >= customers.length) break;
      await this.storeSlice(customers.slice(from, from + slice.customers), fetchedAt, slice);
      from += slice.customers;
      await cache.whenSearchesIdle();
    }
    // The tags commit with the customers they describe: a tag never vouches for a page not stored.
    await this.storeSlice(customers.slice(from, customers.length), fetchedAt, slice, {
      tables: [db.meta, db.pageTags],
      write: async () => {
        await Promise.all([
          writeMeta(db, 'refreshCursor', moved),
          newTags.length > 0 ? db.pageTags.bulkPut(newTags) : undefined,
        ]);
      },
    });
    for (const tag of newTags) tags.set(tag.page, tag);
    this.cursorStoredAt = performance.now();
    this.advance(cursor, moved, batch);
  }

  /**
   * A fill's pages of new customers, as many as its pause allows, in one transaction that
   * grows part by part (customer-cache.ts `putNewCustomersWhile`) and moves the cursor past
   * the pages it completed, with their tags. Returns the pages (or the rest of a page) left
   * to store, or null when the batch cannot go this way (it goes through `storeBatch`).
   */
  private async storeParted(
    cursor: RefreshCursor,
    batch: FetchedPage[],
    tags: Map<number, PageTag>,
  ): Promise<FetchedPage[] | null> {
    const { db, cache } = this.options;
    // Pages with new content, one entry per customer across them (a page that repeats one
    // of the page before, as when the service's order shifts, ends the run).
    let run = 0;
    const ids = new Set<string>();
    for (const page of batch) {
      if (page.unchanged || page.customers.length === 0) break;
      if (hashesAsStored(page, tags)) break;
      if (page.customers.items.some((item) => ids.has(item.id))) break;
      for (const item of page.customers.items) ids.add(item.id);
      run++;
    }
    if (run === 0) return null;
    const pages = batch.slice(0, run);
    const customers = PreparedCustomers.concat(pages.map((page) => page.customers));
    const fetchedAt = oldestFetchedAt(pages);
    const room = await this.roomFor(Math.min(customers.length, CASHIER_SLICE_MIN));
    const started = performance.now();
    const metBefore = cache.backgroundWritesMetBySearch;
    let complete: FetchedPage[] = [];
    const stored = await cache.putNewCustomersWhile(customers, fetchedAt, {
      storedIds: this.storedIds!,
      deadline: room.deadline,
      alongside: {
        tables: [db.meta, db.pageTags],
        write: async (count) => {
          complete = completedPages(pages, count);
          if (complete.length === 0) return;
          await Promise.all([
            writeMeta(db, 'refreshCursor', this.movedCursor(cursor, complete)),
            db.pageTags.bulkPut(complete.map((page) => this.tagOf(page))),
          ]);
        },
      },
    });
    if (stored === null) return null;
    this.writeCost.observe(stored, performance.now() - started);
    if (room.fitted) this.share = adaptedCashierShare(this.share, cache.backgroundWritesMetBySearch > metBefore);
    if (complete.length > 0) {
      for (const page of complete) tags.set(page.page, this.tagOf(page));
      this.cursorStoredAt = performance.now();
    }
    this.advance(cursor, this.movedCursor(cursor, complete), complete, stored);
    // The rest of the page it stopped in (its first customers are stored), and what follows.
    const left = batch.slice(complete.length);
    const stopped = left[0];
    const storedOfStopped = stored - complete.reduce((sum, page) => sum + page.customers.length, 0);
    if (stopped && storedOfStopped > 0) {
      left[0] = { ...stopped, customers: stopped.customers.slice(storedOfStopped, stopped.customers.length) };
    }
    return left;
  }

  /**
   * The milliseconds a transaction that starts now may take before the cashier's next
   * search, keeping a share of their usual pause in reserve (CASHIER_SHARE); null while
   * they are not searching.
   */
  private pauseBudget(): number | null {
    const { cache } = this.options;
    const room = cache.expectedSearchIn();
    return room === null ? null : room - (1 - this.share) * (cache.typicalSearchPause ?? 0);
  }

  /**
   * When a transaction that starts now should have committed: before the cashier's next
   * search, keeping a share of their pause in reserve (CASHIER_SHARE), or never while they
   * are not searching. When not even `customers` fit, it waits for a search to end first
   * (once: see `nextSliceSize`). `fitted` says the time was the pause's.
   */
  private async roomFor(customers: number): Promise<{ deadline: number; fitted: boolean }> {
    const { cache } = this.options;
    for (let waited = 0; ; waited++) {
      const budget = this.pauseBudget();
      if (budget === null) return { deadline: Number.POSITIVE_INFINITY, fitted: false };
      const fitted = this.writeCost.estimate(customers) <= budget;
      if (fitted || waited >= MAX_WAITS_FOR_ROOM) return { deadline: performance.now() + budget, fitted };
      await cache.nextSearchEnd();
    }
  }

  /** The cursor moved past `pages` (stored in order after it). */
  private movedCursor(cursor: RefreshCursor, pages: readonly FetchedPage[]): RefreshCursor {
    const last = pages[pages.length - 1];
    if (!last) return { ...cursor };
    return {
      ...cursor,
      pagesDone: last.page,
      lastPage: Math.max(cursor.lastPage, ...pages.map((page) => page.lastPage)),
      total: last.total,
    };
  }

  /** The tag a stored page keeps: the service's entity tag and its content hash. */
  private tagOf(page: FetchedPage): PageTag {
    const tag: PageTag = { page: page.page, perPage: this.perPage };
    if (page.etag) tag.etag = page.etag;
    if (page.contentHash !== null) tag.contentHash = page.contentHash;
    if (page.skipped > 0) tag.skipped = page.skipped;
    return tag;
  }

  /** When the cursor was last stored (monotonic ms). */
  private cursorStoredAt = Number.NEGATIVE_INFINITY;

  /** Moves the cursor past `batch`, stored; `listed` counts customers stored of a page it does not complete too. */
  private advance(
    cursor: RefreshCursor,
    moved: RefreshCursor,
    batch: FetchedPage[],
    listed = batch.reduce((sum, page) => sum + (page.unchanged ? this.perPage : page.customers.length), 0),
  ): void {
    Object.assign(cursor, moved);
    this.update({
      resumable: true,
      pagesDone: cursor.pagesDone,
      lastPage: cursor.lastPage,
      total: cursor.total,
      fetched: Math.min(this.snapshot.fetched + listed, cursor.total),
    });
  }

  /** Writes rolled back for a cashier's search, for the record (`interruptedWrites`). */
  private interruptions = 0;

  /** How many of this refresh's writes gave way to a cashier's search and were written again. */
  get interruptedWrites(): number {
    return this.interruptions;
  }

  /** While a fill's pages are taken to be new: the ids stored, which ones are not (see `fill`). */
  private storedIds: StoredIds | null = null;

  /** What this till's write transactions cost, fixed part and per customer, learnt as they commit. */
  private readonly writeCost: WriteCostModel;

  private share: number = CASHIER_SHARE.first;

  /** The share of the cashier's pause a transaction may take now (see CASHIER_SHARE). */
  get cashierShare(): number {
    return this.share;
  }

  /**
   * How many of the `left` customers the next transaction takes: all of them while the
   * cashier is not searching, otherwise as many as fit before their next search (waiting
   * for it first when not even a block's worth would).
   */
  private async nextSliceSize(left: number): Promise<SliceSize> {
    const { cache } = this.options;
    for (let waited = 0; ; waited++) {
      const budget = this.pauseBudget();
      if (budget === null) return { customers: left, fitted: false };
      if (this.options.cashierTransactionCustomers !== undefined)
        return { customers: this.options.cashierTransactionCustomers, fitted: false };
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
      await cache.nextSearchEnd();
    }
  }

  /**
   * One transaction of the refresh's. A cashier's search that starts while it still reads
   * rolls it back, and it is written again once the searches are done; a write interrupted
   * MAX_INTERRUPTIONS times in a row is let finish, so a cashier who never stops searching
   * cannot stall the refresh. Whether a search met one that was fitted to the cashier's
   * pause adapts the share of the pause the next ones take (one that could not fit was
   * expected to meet one).
   */
  private async storeSlice(
    customers: PreparedCustomers,
    fetchedAt: string,
    size: SliceSize,
    alongside?: Parameters<CustomerCache['putCustomers']>[2],
  ): Promise<void> {
    const { cache } = this.options;
    for (let interruptions = 0; ; interruptions++) {
      const started = performance.now();
      const metBefore = cache.backgroundWritesMetBySearch;
      try {
        await cache.putCustomers(customers, fetchedAt, alongside, {
          onlyChanged: true,
          expectNew: this.storedIds ?? undefined,
          interruptible: interruptions < MAX_INTERRUPTIONS,
        });
        this.writeCost.observe(customers.length, performance.now() - started);
        return;
      } catch (error) {
        if (!(error instanceof WriteInterrupted)) throw error;
        this.interruptions += 1;
        await cache.whenSearchesIdle();
      } finally {
        if (size.fitted) this.share = adaptedCashierShare(this.share, cache.backgroundWritesMetBySearch > metBefore);
      }
    }
  }

  /** How long a page takes to come (ms), a running estimate; null until one has come. */
  private pageRoundTripMs: number | null = null;

  /**
   * Whether a page asked for now would be answered during the cashier's next search, going
   * by their rhythm and how long pages take. Handling an answer (the call's transport, then
   * parsing and preparing the page) takes the till's processor from that search: on a busy
   * two-core till, a fill that asked regardless made the slowest searches (those that met
   * no write) take half as long again. Asked right after a search instead, pages come
   * while the cashier reads its answer, as the writes do.
   */
  private answerWouldMeetSearch(): boolean {
    const room = this.options.cache.expectedSearchIn();
    return room !== null && this.pageRoundTripMs !== null && room < this.pageRoundTripMs;
  }

  private observeRoundTrip(ms: number): void {
    this.pageRoundTripMs =
      this.pageRoundTripMs === null ? ms : (1 - ROUND_TRIP_WEIGHT) * this.pageRoundTripMs + ROUND_TRIP_WEIGHT * ms;
  }

  /**
   * One page, with retries; returns it unstored (the writer stores it). With a stored tag
   * the request is conditional; a 304 keeps the cursor's page count and total.
   */
  private async fetchPage(
    page: number,
    known: { etag: string | null; skipped: number; cursor: RefreshCursor } | null,
  ): Promise<FetchedPage> {
    for (let tries = 1; ; tries++) {
      const asked = performance.now();
      const result = await this.options.api.customerPage({
        page,
        per_page: this.perPage,
        ...(known?.etag ? { if_none_match: known.etag } : {}),
      });
      this.observeRoundTrip(performance.now() - asked);
      if (result.ok && result.notModified) {
        if (!known) throw new StopRun({ reason: 'not_modified_unasked' });
        return {
          page,
          customers: new PreparedCustomers([]),
          contentHash: null,
          fetchedAt: this.now().toISOString(),
          lastPage: known.cursor.lastPage,
          total: known.cursor.total,
          etag: result.etag ?? known.etag,
          unchanged: true,
          skipped: known.skipped,
        };
      }
      if (result.ok) {
        const customers = prepareCustomers(result.data);
        return {
          page,
          customers,
          contentHash: pageHash(customers.json()),
          fetchedAt: this.now().toISOString(),
          lastPage: result.meta.last_page,
          total: result.meta.total,
          etag: result.etag ?? null,
          unchanged: false,
          skipped: result.skipped ?? 0,
        };
      }
      const { error } = result;
      if (!isTransient(error) || tries >= this.maxTries || this.stopRequested) {
        throw new StopRun({ reason: 'call_failed', message: error.message });
      }
      let delay = backoffDelay(tries, this.backoff, this.random);
      delay = Math.max(delay, boundedRetryAfter(error.retryAfterMs));
      await this.sleep(delay);
    }
  }

  private update(patch: Partial<RefreshProgress>): void {
    this.snapshot = { ...this.snapshot, ...patch };
    const snapshot = this.progress();
    for (const listener of this.listeners) listener(snapshot);
  }
}
