import { nameWordsOf } from './frozen/fold';
import type { StoredCustomer } from './frozen/rows';
import { writeSearchLines } from './frozen/search-lines';
import type { Migration } from './migration';

/**
 * Version 3: folding learnt Arabic (alef wasla, alef maqsura, ta marbuta, tatweel), so the
 * stored name words are folded again; only rows whose words change are rewritten.
 */
export const v3: Migration = {
  version: 3,
  stores: {},
  async upgrade(tx) {
    const changed: StoredCustomer[] = [];
    await tx
      .table<StoredCustomer, number>('customers')
      .toCollection()
      .modify((row) => {
        const words = nameWordsOf(row.customer.name);
        if (words.join(' ') === row.nameWords.join(' ')) return;
        row.nameWords = words;
        changed.push(row);
      });
    if (changed.length > 0) await writeSearchLines(tx.table('searchChunks'), changed);
  },
};
