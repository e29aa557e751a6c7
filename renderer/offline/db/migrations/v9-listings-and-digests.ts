import { BLOCK_BITS, rowsOf } from './frozen/blocks';
import { LISTING_BITS, listingChunksOf, pagesInKeyOrder, phoneDigestOf } from './frozen/listings';
import type { StoredBlock, StoredListingChunk, StoredPhoneDigest, StoredSearchChunk } from './frozen/rows';
import type { Migration } from './migration';

/**
 * Version 9: the listings the results list shows, kept in memory to answer the cashier's
 * searches (search/listings.ts), built from every stored customer, and the digests of the search
 * chunks. phones (search/phone-digests.ts), built from every chunk. Both are read a range at a
 * time, so that a large cache is never all in memory.
 */
export const v9: Migration = {
  version: 9,
  stores: { listingChunks: 'chunk', phoneDigests: 'chunk' },
  async upgrade(tx) {
    const chunks = tx.table<StoredSearchChunk, number>('searchChunks');
    const digests = tx.table<StoredPhoneDigest, number>('phoneDigests');
    for await (const page of pagesInKeyOrder(chunks, 64, (chunk) => chunk.chunk)) {
      await digests.bulkAdd(page.map(phoneDigestOf));
    }
    const blocks = tx.table<StoredBlock, number>('customerBlocks');
    const listings = tx.table<StoredListingChunk, number>('listingChunks');
    const last = await blocks.toCollection().last();
    if (!last) return;
    // Blocks (of 1 << BLOCK_BITS pks) covering 16 listing chunks: no chunk is split between two reads.
    const step = 16 << (LISTING_BITS - BLOCK_BITS);
    for (let from = 0; from <= last.block; from += step) {
      const rows = (
        await blocks
          .where(':id')
          .between(from, from + step)
          .toArray()
      ).flatMap(rowsOf);
      const toPut = listingChunksOf(rows);
      if (toPut.length > 0) await listings.bulkAdd(toPut);
    }
  },
};
