import type { StoredCustomer, StoredSearchChunk } from './frozen/rows';
import { linesOf, pkOfLine, writeSearchLines } from './frozen/search-lines';
import type { Migration } from './migration';

/**
 * Version 5: no multi-entry name-word index (it cost most of a customer's write; the
 * in-memory index and, while it loads, the search chunks serve names). The name search
 * while the index loads now reads the search chunks, so the upgrade makes sure every
 * customer has its line there, adding any that is missing.
 */
export const v5: Migration = {
  version: 5,
  stores: { customers: '++pk, &id, phoneE164' },
  async upgrade(tx) {
    const chunks = tx.table<StoredSearchChunk, number>('searchChunks');
    const listed = new Set<number>();
    await chunks.each((chunk) => {
      for (const line of linesOf(chunk)) listed.add(pkOfLine(line));
    });
    const customers = tx.table<StoredCustomer, number>('customers');
    const allPks = (await customers.toCollection().primaryKeys()) as number[];
    const missing = allPks.filter((pk) => !listed.delete(pk));
    // What is left in `listed` is a line of no customer.
    const stale = [...listed];
    if (missing.length === 0 && stale.length === 0) return;
    const rows = (await customers.bulkGet(missing)).filter((row): row is StoredCustomer => row !== undefined);
    await writeSearchLines(chunks, rows, stale);
  },
};
