/**
 * One database's customer listings (listings.ts) in memory, as they are stored: loaded
 * once in the background, then kept current by every customer write this page commits
 * (the database's feed, db/customer-feed.ts, tells the listing chunks a committed write
 * stored). The app has one page that writes customers (stored-ids.ts says why), so what
 * this holds once loaded is what is stored.
 */
import { feedOf } from '../db/customer-feed';
import type { ListingChunk, OfflineDb } from '../db/schema';
import { pagesInKeyOrder } from '../db/pages-in-key-order';
import { readListing, listingChunkOf, type CustomerListing, type ListingChunkWrites } from './listings';

/**
 * Chunks (of 128 customers, about 12 KB) read per request while loading. Measured in the
 * bench browser at 100,000 customers: 8-16 a request loaded in 0.22-0.29 s, 64 in 0.50 s,
 * 256 or more in 0.55 s (a large answer costs more a byte to bring over from IndexedDB).
 */
const LOAD_PAGE = 16;

export interface ListingLoadOptions {
  /** Gives the page a turn between reads. */
  yieldToPage?: () => Promise<void>;
  pageSize?: number;
}

export class ListingMemory {
  private readonly chunks = new Map<number, ListingChunk>();
  private state: 'empty' | 'loading' | 'ready' = 'empty';
  /** Chunks a commit set while the load ran: the load's read of them may be older. */
  private readonly setDuringLoad = new Set<number>();
  private closed = false;
  private unfollow: () => void = () => undefined;

  private constructor() {}

  /** Memory for `db`, following the writes to it from now on, until `db` closes. */
  static open(db: OfflineDb): ListingMemory {
    const memory = new ListingMemory();
    memory.unfollow = feedOf(db).onCommitted(({ listings }) => {
      for (const writes of listings) memory.apply(writes);
    });
    db.on('close', () => memory.close());
    return memory;
  }

  /** Loaded: from now on a listing it lacks is one that is not stored. */
  get ready(): boolean {
    return this.state === 'ready';
  }

  /** Bytes of listings held (offsets included). */
  get bytes(): number {
    let bytes = 0;
    for (const chunk of this.chunks.values()) bytes += chunk.lines.byteLength + chunk.offsets.byteLength;
    return bytes;
  }

  get(pk: number): CustomerListing | undefined {
    const chunk = this.chunks.get(listingChunkOf(pk));
    return chunk ? readListing(chunk, pk) : undefined;
  }

  /** The listings of `pks`, in order, or null unless memory is loaded and holds every one. */
  getAll(pks: readonly number[]): CustomerListing[] | null {
    if (!this.ready) return null;
    const listings: CustomerListing[] = [];
    for (const pk of pks) {
      const listing = this.get(pk);
      if (!listing) return null;
      listings.push(listing);
    }
    return listings;
  }

  /** A committed write's chunks. */
  apply(writes: ListingChunkWrites): void {
    if (this.closed) return;
    for (const chunk of writes.toPut) this.set(chunk.chunk, chunk);
    for (const id of writes.toDelete) this.set(id, null);
  }

  private set(id: number, chunk: ListingChunk | null): void {
    if (this.state === 'loading') this.setDuringLoad.add(id);
    if (chunk) this.chunks.set(id, chunk);
    else this.chunks.delete(id);
  }

  /**
   * Reads every stored chunk, a page of chunks a request, giving the page a turn before each
   * request (index-loader.ts says why the first too). A chunk a commit set meanwhile is kept
   * as that commit left it. Once: later calls return at once.
   */
  async load(db: OfflineDb, options: ListingLoadOptions = {}): Promise<void> {
    if (this.state !== 'empty') return;
    this.state = 'loading';
    const pages = pagesInKeyOrder(
      db.listingChunks,
      options.pageSize ?? LOAD_PAGE,
      (chunk) => chunk.chunk,
      async () => {
        await options.yieldToPage?.();
        return !this.closed;
      },
    );
    try {
      for await (const page of pages) {
        for (const chunk of page) if (!this.setDuringLoad.has(chunk.chunk)) this.chunks.set(chunk.chunk, chunk);
      }
      if (this.closed) return;
      this.state = 'ready';
    } finally {
      this.setDuringLoad.clear();
      if (this.state === 'loading') this.state = 'empty';
    }
  }

  /** Stops following writes and lets the memory go. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.unfollow();
    this.chunks.clear();
    this.state = 'empty';
  }
}
