/**
 * Which of the service's customer ids the cache may hold, in memory: what lets a fill
 * insert pages of new customers without looking each one up, now that the blocks' id index
 * is no longer unique (version 7, db/migrations/v7-id-index-not-unique.ts).
 *
 * Why: a unique index makes IndexedDB read its index before every entry it adds. With the
 * service's ids (random uuids) that read misses the index's cache ever more often as the
 * base grows: about 30% of a customer's write at 1,000,000
 * (docs/decisions/2026-11-24-id-index-not-unique.md). A fill's customers are nearly always
 * new, so asking memory is the cheap way to learn the few that are not.
 *
 * What it holds: a 53-bit hash of every id stored when it was loaded, and of every id any
 * write has sent since (the database's feed tells it the ids of every block before it is
 * sent, rolled back or not: db/customer-feed.ts `sending`). So it never says "not stored"
 * of a stored id; it may say "maybe" of one that is not (a rolled-back write, a deleted
 * customer, a hash shared by two ids: about one in 9,000 million per id at a million),
 * which costs that write its lookups, nothing more. It sees the writes made through the
 * same database object: the app has one page, with one, that writes customers
 * (electron/shell/main.ts takes the single-instance lock and opens one window).
 */
import { cyrb53 } from '../hashing/cyrb53';
import { feedOf } from '../db/customer-feed';
import type { OfflineDb } from '../db/schema';

/** Open addressing over hashes; 0 marks an empty slot. Kept at most half full. */
const MIN_SLOTS = 1024;
/** Ids read per request while loading, so that a large cache is never all in memory at once. */
const LOAD_PAGE = 20_000;

export class StoredIds {
  private slots = new Float64Array(MIN_SLOTS);
  private held = 0;
  private closed = false;
  private unfollow: () => void = () => undefined;

  private constructor() {}

  /**
   * The ids stored in `db` now, and from then on those any write sends. Registered before
   * anything is read: a write whose transaction was created before the reading one is seen
   * by the reads (IndexedDB runs them in order), any later one notes its ids here itself.
   */
  static async load(db: OfflineDb, pageSize = LOAD_PAGE): Promise<StoredIds> {
    const ids = new StoredIds();
    ids.unfollow = feedOf(db).onSending((sent) => {
      for (const id of sent) ids.add(id);
    });
    try {
      let after: string | null = null;
      for (;;) {
        const range = after === null ? db.customerBlocks.orderBy('ids') : db.customerBlocks.where('ids').above(after);
        const page = (await range.limit(pageSize).keys()) as string[];
        for (const id of page) ids.add(id);
        if (page.length < pageSize) break;
        after = page[page.length - 1]!;
      }
    } catch (error) {
      ids.close();
      throw error;
    }
    return ids;
  }

  /** False only when no write has stored `id` (through this page) since before the load. */
  mightHold(id: string): boolean {
    if (this.closed) throw new Error('These stored ids were closed: load them again.');
    const hash = hashOf(id);
    return this.slots[this.slotOf(hash)] === hash;
  }

  mightHoldAny(ids: Iterable<string>): boolean {
    for (const id of ids) if (this.mightHold(id)) return true;
    return false;
  }

  add(id: string): void {
    if (this.closed) return;
    if (this.insert(hashOf(id)) && ++this.held * 2 > this.slots.length) this.grow();
  }

  /** Stops following writes and lets the memory go; `mightHold` is not to be asked after. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.unfollow();
    this.slots = new Float64Array(0);
  }

  /** Where `hash` is, or the empty slot where it would go (linear probing). */
  private slotOf(hash: number): number {
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    while (this.slots[slot] !== 0 && this.slots[slot] !== hash) slot = (slot + 1) & mask;
    return slot;
  }

  private insert(hash: number): boolean {
    const slot = this.slotOf(hash);
    if (this.slots[slot] === hash) return false;
    this.slots[slot] = hash;
    return true;
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Float64Array(old.length * 2);
    for (const hash of old) if (hash !== 0) this.insert(hash);
  }
}

/** The id's cyrb53 hash; never 0, which marks an empty slot. Its low bits pick the slot. */
export function hashOf(id: string): number {
  return cyrb53(id) || 1;
}
