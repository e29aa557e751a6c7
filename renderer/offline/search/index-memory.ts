/**
 * One database's search index in memory (search-index.ts): loaded once in the background
 * (index-loader.ts), then kept current by every customer write this page commits, as the
 * listings are (listing-memory.ts): the database's feed (db/customer-feed.ts) tells it what
 * each committed write stored and removed, whoever wrote it.
 */
import { feedOf, type CommittedCustomerWrites } from '../db/customer-feed';
import type { CachedCustomer, OfflineDb } from '../db/schema';
import { loadSearchIndex, yieldToBrowser, type IndexLoadOptions, type IndexLoadProgress } from './index-loader';
import { SlimSearchIndex, type IndexEntry } from './search-index';

function entryOf(row: CachedCustomer): IndexEntry {
  return { pk: row.pk!, phoneE164: row.phoneE164, nameWords: row.nameWords };
}

export class IndexMemory {
  readonly index = new SlimSearchIndex(yieldToBrowser);
  private state: 'empty' | 'loading' | 'ready' = 'empty';
  /** pks a commit wrote while the index loads: the loader must not index an older read of them. */
  private readonly writtenDuringLoad = new Set<number>();

  private constructor() {}

  /** The index of `db`, following the writes to it from now on. */
  static open(db: OfflineDb): IndexMemory {
    const memory = new IndexMemory();
    feedOf(db).onCommitted((writes) => memory.follow(writes));
    return memory;
  }

  /** Loaded: from now on the index answers for every stored customer. */
  get ready(): boolean {
    return this.state === 'ready';
  }

  /**
   * Reads every stored customer's search fields into the index (index-loader.ts). A customer a
   * commit wrote meanwhile is kept as that commit left it. Call once.
   */
  async load(db: OfflineDb, options: Omit<IndexLoadOptions, 'skip'>): Promise<IndexLoadProgress> {
    this.state = 'loading';
    const progress = await loadSearchIndex(db, this.index, {
      ...options,
      skip: (pk) => this.writtenDuringLoad.has(pk),
    });
    if (progress.done) {
      this.state = 'ready';
      this.writtenDuringLoad.clear();
    }
    return progress;
  }

  private follow({ written, removed }: CommittedCustomerWrites): void {
    for (const { row, previous } of written) {
      if (this.state === 'loading') this.writtenDuringLoad.add(row.pk!);
      this.index.upsert(entryOf(row), previous && previous.pk === row.pk ? entryOf(previous) : null);
    }
    for (const row of removed) {
      if (this.state === 'loading') this.writtenDuringLoad.add(row.pk!);
      this.index.remove(entryOf(row));
    }
  }
}
