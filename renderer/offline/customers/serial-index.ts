/**
 * Every cached card's serial number, in memory, for the loyalty card's scan offline: a hash of
 * the serial (cyrb53, upper-cased) to the customer's pk. A hash, not the serial, keeps it to a
 * few megabytes at 100,000 customers; the candidate's record is read and its cards compared,
 * so a collision never opens the wrong customer.
 *
 * Built by one read of every block in the background once the search index and listings are
 * in (cache/customer-cache.ts), and kept true from the database's feed (db/customer-feed.ts), as the
 * listings are: whoever writes a customer, the serials follow once the write commits.
 */
import { pagesInKeyOrder } from '../db/pages-in-key-order';
import { feedOf } from '../db/customer-feed';
import type { CachedCustomer, OfflineDb } from '../db/schema';
import { getCustomerRow } from './customer-reads';
import { cyrb53 } from '../hashing/cyrb53';
import { rowAt } from './customer-blocks';

/** Two customers' serials share a hash (or one serial is on two customers): read them all. */
const SEVERAL = -1;
const BLOCKS_PER_READ = 256;

export function normaliseSerial(serial: string): string {
  return serial.trim().toUpperCase();
}

function serialsOf(row: CachedCustomer): string[] {
  return row.customer.cards.flatMap((card) => (card.serial_number ? [normaliseSerial(card.serial_number)] : []));
}

export class SerialIndex {
  private readonly pks = new Map<number, number>();
  private state: 'empty' | 'loading' | 'ready' = 'empty';
  /** pks written while loading: the load's older read of them must not win. */
  private readonly writtenDuringLoad = new Set<number>();

  constructor(private readonly db: OfflineDb) {
    feedOf(db).onCommitted(({ written, removed }) => {
      for (const { row, previous } of written) {
        if (previous) this.forget(previous);
        this.add(row);
        if (this.state === 'loading') this.writtenDuringLoad.add(row.pk!);
      }
      for (const row of removed) this.forget(row);
    });
  }

  get ready(): boolean {
    return this.state === 'ready';
  }

  /** Reads every block once; yields to the page between reads. */
  async load(options: { yieldToPage?: () => Promise<void> } = {}): Promise<void> {
    if (this.state !== 'empty') return;
    this.state = 'loading';
    const pages = pagesInKeyOrder(
      this.db.customerBlocks,
      BLOCKS_PER_READ,
      (block) => block.block,
      async () => {
        await options.yieldToPage?.();
        return true;
      },
    );
    for await (const page of pages) {
      for (const block of page) {
        for (let i = 0; i < block.pks.length; i++) {
          if (!this.writtenDuringLoad.has(block.pks[i]!)) this.add(rowAt(block, i));
        }
      }
    }
    this.writtenDuringLoad.clear();
    this.state = 'ready';
  }

  /** The cached customer holding a card with this serial, or null. */
  async find(serial: string): Promise<CachedCustomer | null> {
    const wanted = normaliseSerial(serial);
    if (this.state !== 'ready') return this.scan(wanted);
    const pk = this.pks.get(cyrb53(wanted));
    if (pk === undefined) return null;
    if (pk === SEVERAL) return this.scan(wanted);
    const row = await getCustomerRow(this.db, pk);
    return row && serialsOf(row).includes(wanted) ? row : null;
  }

  private add(row: CachedCustomer): void {
    for (const serial of serialsOf(row)) {
      const key = cyrb53(serial);
      const known = this.pks.get(key);
      this.pks.set(key, known === undefined || known === row.pk ? row.pk! : SEVERAL);
    }
  }

  private forget(row: CachedCustomer): void {
    for (const serial of serialsOf(row)) {
      const key = cyrb53(serial);
      if (this.pks.get(key) === row.pk) this.pks.delete(key);
    }
  }

  /** Before the index is in, or for a shared hash: every block read (slow, but right). */
  private async scan(wanted: string): Promise<CachedCustomer | null> {
    for await (const page of pagesInKeyOrder(this.db.customerBlocks, BLOCKS_PER_READ, (block) => block.block)) {
      for (const block of page) {
        for (let i = 0; i < block.pks.length; i++) {
          // A cheap look at the JSON before parsing it.
          if (!block.rows[i]!.toUpperCase().includes(wanted)) continue;
          const row = rowAt(block, i);
          if (serialsOf(row).includes(wanted)) return row;
        }
      }
    }
    return null;
  }
}
