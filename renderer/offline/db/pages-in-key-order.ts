/**
 * Reads a table keyed by number (search chunks, listing chunks, phone digests, customer
 * blocks: keys from 0) in key order, `perRead` records a request: each a primary-key range
 * read, Dexie's fast getAll path, so a large cache is read in short requests and never held
 * whole. The caller may stop between pages (leave the loop), and `beforeRead` runs before
 * every request, the first too: the loads give the cashier's searches their turn there.
 * Outside a transaction, sealed records are opened asynchronously by the browser's own AES.
 */
import type { Table } from 'dexie';
import { readSealedAsync } from './sealed-tables';

export async function* pagesInKeyOrder<T, TInsert>(
  table: Table<T, number, TInsert>,
  perRead: number,
  keyOf: (record: T) => number,
  /** Runs before each request; false stops the reading there. */
  beforeRead?: () => Promise<boolean>,
): AsyncGenerator<T[], void, undefined> {
  let after = -1;
  for (;;) {
    if (beforeRead && !(await beforeRead())) return;
    // Sealed records are opened by Web Crypto, the page's own AES (sealed-tables.ts).
    const page = await readSealedAsync(table.db, table.name, () =>
      table.where(':id').above(after).limit(perRead).toArray(),
    );
    if (page.length > 0) yield page;
    if (page.length < perRead) return;
    after = keyOf(page[page.length - 1]!);
  }
}
