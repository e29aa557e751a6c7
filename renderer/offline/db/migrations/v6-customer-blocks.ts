import { BLOCK_BITS, packCustomerBlocks } from './frozen/blocks';
import type { StoredBlock, StoredCustomer, StoredServiceCustomer } from './frozen/rows';
import type { Migration } from './migration';

/**
 * Version 6: customers packed 16 to a record (frozen/blocks.ts): a fill's writes cost a
 * request per block, not per customer. The rows move in pk order, a few thousand at a
 * time so that a large cache is never all in memory; the search chunks stay as they are.
 */
export const v6: Migration = {
  version: 6,
  stores: { customers: null, customerBlocks: 'block, &*ids, *phones' },
  async upgrade(tx) {
    const customers = tx.table<StoredCustomer, number>('customers');
    const blocks = tx.table<StoredBlock, number>('customerBlocks');
    // The old key generator's next value, so that no pk is ever given twice.
    const nextPk = await customers.add({
      id: '\u0000next-pk',
      phoneE164: '',
      nameWords: [],
      customer: {} as StoredServiceCustomer,
      fetchedAt: '',
    });
    const step = 256 << BLOCK_BITS;
    for (let from = 0; from < nextPk; from += step) {
      const rows = await customers
        .where(':id')
        .between(from, Math.min(from + step, nextPk))
        .toArray();
      if (rows.length > 0) await blocks.bulkAdd(packCustomerBlocks(rows));
    }
    await tx.table('meta').put({ key: 'nextCustomerPk', value: nextPk });
  },
};
