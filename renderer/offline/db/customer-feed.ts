/**
 * The one event every copy of the cached customers in memory follows. Customer tables are
 * written only by customers/customer-blocks.ts, which tells this database's feed what each
 * write changed; the search index, the listings and the stored ids follow the feed, so a
 * new writer cannot forget to update one of them.
 *
 * Two moments are told apart:
 * - `committed`: the customers written and removed, and the listing chunks stored, once the
 *   transaction that made them has committed (never before: a write rolled back must not
 *   show in a search). Outside a transaction, once its requests have succeeded.
 * - `sending`: the ids of the customers a write is about to send. The stored ids answer
 *   "might this id be stored?", so they must hear of an id before it can be stored, not
 *   after: a fill's next write asks them while the last one may still be committing.
 *
 * The feed belongs to the database object (`feedOf`), so two databases never hear each
 * other's writes, and nothing is kept in module state.
 */
import { Dexie } from 'dexie';
import type { CachedCustomer, ListingChunk, OfflineDb } from './schema';

export interface CustomerChange {
  row: CachedCustomer;
  /** The row as it was stored before, when the write replaced one (same pk or not). */
  previous: CachedCustomer | null;
}

export interface ListingWrites {
  toPut: ListingChunk[];
  toDelete: number[];
}

/** What one transaction's customer writes changed, told once it has committed. */
export interface CommittedCustomerWrites {
  written: CustomerChange[];
  removed: CachedCustomer[];
  listings: ListingWrites[];
}

export type CommitListener = (writes: CommittedCustomerWrites) => void;
export type SendListener = (ids: readonly string[]) => void;

export class CustomerFeed {
  private readonly commitListeners = new Set<CommitListener>();
  private readonly sendListeners = new Set<SendListener>();
  /** What the open transactions (by their outermost transaction) wrote so far. */
  private readonly pending = new WeakMap<object, CommittedCustomerWrites>();

  /** Calls `listener` after every committed customer write; returns the unsubscribe. */
  onCommitted(listener: CommitListener): () => void {
    this.commitListeners.add(listener);
    return () => this.commitListeners.delete(listener);
  }

  /** Calls `listener` with the ids of every customer write, before it is sent; returns the unsubscribe. */
  onSending(listener: SendListener): () => void {
    this.sendListeners.add(listener);
    return () => this.sendListeners.delete(listener);
  }

  sending(ids: readonly string[]): void {
    for (const listener of this.sendListeners) listener(ids);
  }

  /**
   * Notes what a write changes; told with the rest of its transaction once that commits.
   * `sent` is the write's requests: outside a transaction, they are told once it resolves.
   */
  record(changes: Partial<CommittedCustomerWrites>, sent: Promise<unknown>): Promise<unknown> {
    let transaction = Dexie.currentTransaction;
    if (!transaction) return sent.then(() => this.tell(complete(changes)));
    while (transaction.parent) transaction = transaction.parent;
    let writes = this.pending.get(transaction);
    if (!writes) {
      const collected = complete({});
      writes = collected;
      this.pending.set(transaction, collected);
      transaction.on('complete', () => this.tell(collected));
    }
    writes.written.push(...(changes.written ?? []));
    writes.removed.push(...(changes.removed ?? []));
    writes.listings.push(...(changes.listings ?? []));
    return sent;
  }

  private tell(writes: CommittedCustomerWrites): void {
    if (writes.written.length === 0 && writes.removed.length === 0 && writes.listings.length === 0) return;
    for (const listener of this.commitListeners) listener(writes);
  }
}

function complete(changes: Partial<CommittedCustomerWrites>): CommittedCustomerWrites {
  return { written: changes.written ?? [], removed: changes.removed ?? [], listings: changes.listings ?? [] };
}

const FEED = Symbol('customer feed');

/** The feed of this database object, made on first use. */
export function feedOf(db: OfflineDb): CustomerFeed {
  const holder = db as OfflineDb & { [FEED]?: CustomerFeed };
  return (holder[FEED] ??= new CustomerFeed());
}
