import { BLOCK_BITS } from '../../customers/customer-blocks';
import { LISTING_BITS, ListingChanges, listingOf } from '../../search/listings';
import { phoneDigestOf } from '../../search/phone-digests';
import { pagesInKeyOrder } from '../pages-in-key-order';
import type { CachedCustomer, CustomerBlock, ListingChunk, PhoneDigest, SearchChunk } from '../schema';
import type { Migration } from './migration';

/**
 * Version 9: the listings the results list shows, kept in memory to answer the cashier's
 * searches (listings.ts), built from every stored customer, and the digests of the search
 * chunks' phones (phone-digests.ts), built from every chunk. Both are read a range at a
 * time, so that a large cache is never all in memory.
 */
export const v9: Migration = {
  version: 9,
  stores: { listingChunks: 'chunk', phoneDigests: 'chunk' },
  async upgrade(tx) {
    const chunks = tx.table<SearchChunk, number>('searchChunks');
    const digests = tx.table<PhoneDigest, number>('phoneDigests');
    for await (const page of pagesInKeyOrder(chunks, 64, (chunk) => chunk.chunk)) {
      await digests.bulkAdd(page.map(phoneDigestOf));
    }
    const blocks = tx.table<CustomerBlock, number>('customerBlocks');
    const listings = tx.table<ListingChunk, number>('listingChunks');
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
      ).flatMap((block) => block.pks.map((pk, i) => ({ ...(JSON.parse(block.rows[i]!) as CachedCustomer), pk })));
      const changes = new ListingChanges(rows.map(listingOf));
      const { toPut } = changes.apply([]);
      if (toPut.length > 0) await listings.bulkAdd(toPut);
    }
  },
};
