import type { StoredCustomer } from './frozen/rows';
import { writeSearchLines } from './frozen/search-lines';
import type { Migration } from './migration';

/**
 * Version 2: the packed search chunks the index loads from, filled from existing customers;
 * the outbox gains [state+seq], so the replayer reads "the next pending item" by index.
 */
export const v2: Migration = {
  version: 2,
  stores: { searchChunks: 'chunk', outbox: '++seq, state, [state+seq]' },
  async upgrade(tx) {
    const rows = await tx.table<StoredCustomer, number>('customers').toArray();
    await writeSearchLines(tx.table('searchChunks'), rows);
  },
};
