import type { EntityTable } from 'dexie';
import { searchFieldsOf } from '../../customers/customer-blocks';
import { nameWordsOf } from '../../search/fold';
import { writeSearchLines } from '../../search/search-chunks';
import type { CachedCustomer, SearchChunk } from '../schema';
import type { Migration } from './migration';

/**
 * Version 3: folding learnt Arabic (alef wasla, alef maqsura, ta marbuta, tatweel), so the
 * stored name words are folded again; only rows whose words change are rewritten.
 */
export const v3: Migration = {
  version: 3,
  stores: {},
  async upgrade(tx) {
    const changed: CachedCustomer[] = [];
    await tx
      .table<CachedCustomer, number>('customers')
      .toCollection()
      .modify((row) => {
        const words = nameWordsOf(row.customer.name);
        if (words.join(' ') === row.nameWords.join(' ')) return;
        row.nameWords = words;
        changed.push(row);
      });
    if (changed.length > 0) {
      await writeSearchLines(
        tx.table('searchChunks') as EntityTable<SearchChunk, 'chunk'>,
        changed.map(searchFieldsOf),
      );
    }
  },
};
