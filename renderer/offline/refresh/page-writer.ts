/**
 * Storing fetched pages: their customers, their tags and the cursor moved past them, so
 * that a cursor never points past what is stored and a tag never vouches for a page not
 * stored. A batch goes in one transaction, or while the cashier searches in several short
 * ones sized by the pacer (write-pacer.ts), of which the last moves the cursor
 * (`storeBatch`); a first fill's pages of new customers go in one transaction that grows
 * part by part until the cashier's pause is used or a search starts (`storeParted`).
 */
import type { OfflineDb, PageTag, RefreshCursor } from '../db/schema';
import { writeMeta } from '../db/meta';
import { PreparedCustomers, WriteInterrupted, type CustomerCache } from '../cache/customer-cache';
import type { StoredIds } from '../customers/stored-ids';
import type { FetchedPage } from './page-fetcher';
import type { SliceSize, WritePacer } from './write-pacer';

/** Pages stored in one transaction at most (and customers, whatever the page size). */
const WRITE_BATCH_PAGES = 10;
const WRITE_BATCH_CUSTOMERS = 1_000;
/**
 * Pages with nothing to store (304s, pages hashing as stored) move the stored cursor at
 * most this often: a transaction per such page was most of an unchanged refresh's writes.
 * A restart repeats at most these pages, which cost no writes.
 */
const IDLE_CURSOR_EVERY_MS = 2_000;
/** Times one write may give way to the cashier's searches before it is let finish. */
const MAX_INTERRUPTIONS = 2;

/** Removes and returns the pages that follow `from` without a gap, a batch's worth at most. */
export function takeInOrder(
  arrived: Map<number, FetchedPage>,
  from: number,
  maxPages: number = WRITE_BATCH_PAGES,
): FetchedPage[] {
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

export type WrittenCache = Pick<
  CustomerCache,
  'putCustomers' | 'putNewCustomersWhile' | 'sealNewCustomersAhead' | 'backgroundWritesMetBySearch' | 'whenSearchesIdle'
>;

export interface PageWriterOptions {
  db: OfflineDb;
  cache: WrittenCache;
  perPage: number;
  pacer: WritePacer;
  /**
   * The cursor was moved past stored pages (it holds their count now); `listed` customers
   * were stored, counting those of a page it does not complete yet.
   */
  advanced: (cursor: RefreshCursor, listed: number) => void;
}

export class PageWriter {
  private readonly db: OfflineDb;
  private readonly cache: WrittenCache;
  private readonly perPage: number;
  private readonly pacer: WritePacer;
  private readonly advanced: (cursor: RefreshCursor, listed: number) => void;
  /** When the cursor was last stored (monotonic ms). */
  private cursorStoredAt = Number.NEGATIVE_INFINITY;
  /** Writes rolled back for a cashier's search, for the record (`interruptedWrites`). */
  private interruptions = 0;
  /** While a fill's pages are taken to be new: the ids stored, which ones are not (see `beginFill`). */
  private storedIds: StoredIds | null = null;

  constructor(options: PageWriterOptions) {
    this.db = options.db;
    this.cache = options.cache;
    this.perPage = options.perPage;
    this.pacer = options.pacer;
    this.advanced = options.advanced;
  }

  /** How many of this refresh's writes gave way to a cashier's search and were written again. */
  get interruptedWrites(): number {
    return this.interruptions;
  }

  /**
   * A fill starts. With `storedIds` (its pages are mostly new to the cache) the customers
   * these do not hold are inserted without a lookup each, and pages of new customers go
   * through parted writes; they are closed at `endFill`.
   */
  beginFill(storedIds: StoredIds | null): void {
    this.storedIds = storedIds;
    // A run that only confirms what is stored may end without ever storing its cursor.
    this.cursorStoredAt = performance.now();
  }

  endFill(): void {
    this.storedIds?.close();
    this.storedIds = null;
  }

  /**
   * Stores what it can of `batch` (pages in order after the cursor) and moves the cursor
   * past what it completed. Returns the pages, or the rest of a page, a parted write left
   * to store: they wait for the next turn, as pages do.
   */
  async store(cursor: RefreshCursor, batch: FetchedPage[], tags: Map<number, PageTag>): Promise<FetchedPage[]> {
    const left = this.storedIds && !this.pacer.fixedSlices ? await this.storeParted(cursor, batch, tags) : null;
    if (left) return left;
    // While the cashier searches, storeBatch cuts the batch into short transactions.
    await this.storeBatch(cursor, batch, tags);
    return [];
  }

  /**
   * The batch's customers and the cursor moved past them, with the pages' tags: one
   * transaction, or while the cashier searches, several short ones, of which the last moves
   * the cursor (a restart repeats the batch; what was stored compares unchanged).
   */
  private async storeBatch(cursor: RefreshCursor, batch: FetchedPage[], tags: Map<number, PageTag>): Promise<void> {
    const { db, cache } = this;
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
      slice = await this.pacer.nextSliceSize(customers.length - from);
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
    const { db, cache } = this;
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
    // Sealed before the room is measured: the pause the write is fitted to is the transaction's.
    const ahead = await cache.sealNewCustomersAhead(customers, fetchedAt);
    // A cashier who came meanwhile goes first: the transaction opens once their work is done.
    await cache.whenSearchesIdle();
    const room = await this.pacer.roomFor(customers.length);
    const started = performance.now();
    const metBefore = cache.backgroundWritesMetBySearch;
    let complete: FetchedPage[] = [];
    const stored = await cache.putNewCustomersWhile(customers, fetchedAt, {
      storedIds: this.storedIds!,
      deadline: room.deadline,
      ahead,
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
    this.pacer.observeWrite(stored, performance.now() - started);
    if (room.fitted) this.pacer.observeFitted(cache.backgroundWritesMetBySearch > metBefore);
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
    const { cache } = this;
    for (let interruptions = 0; ; interruptions++) {
      const started = performance.now();
      const metBefore = cache.backgroundWritesMetBySearch;
      try {
        await cache.putCustomers(customers, fetchedAt, alongside, {
          onlyChanged: true,
          expectNew: this.storedIds ?? undefined,
          interruptible: interruptions < MAX_INTERRUPTIONS,
        });
        this.pacer.observeWrite(customers.length, performance.now() - started);
        return;
      } catch (error) {
        if (!(error instanceof WriteInterrupted)) throw error;
        this.interruptions += 1;
        await cache.whenSearchesIdle();
      } finally {
        if (size.fitted) this.pacer.observeFitted(cache.backgroundWritesMetBySearch > metBefore);
      }
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

  /** Moves the cursor past `batch`, stored; `listed` counts customers stored of a page it does not complete too. */
  private advance(
    cursor: RefreshCursor,
    moved: RefreshCursor,
    batch: FetchedPage[],
    listed = batch.reduce((sum, page) => sum + (page.unchanged ? this.perPage : page.customers.length), 0),
  ): void {
    Object.assign(cursor, moved);
    this.advanced(cursor, listed);
  }
}
