/** Reading the cache's customers in tests, through the same module the app stores them with. */
import { firstCustomers, findCustomersByIds } from '../../renderer/offline/customers/customer-reads';
import type { CachedCustomer, OfflineDb } from '../../renderer/offline/db/schema';
import { listedPks, readListing, type CustomerListing } from '../../renderer/offline/search/listings';

export { countCustomers, getCustomerRow } from '../../renderer/offline/customers/customer-reads';

/** Every stored customer, in pk order. */
export function allCustomers(db: OfflineDb): Promise<CachedCustomer[]> {
  return firstCustomers(db, Number.POSITIVE_INFINITY);
}

/** How many customers are stored under this id (0 or 1: the id index is unique). */
export async function customersWithId(db: OfflineDb, id: string): Promise<number> {
  return (await findCustomersByIds(db, [id])).size;
}

/** Every stored customer listing (listings.ts), in pk order. */
export async function allListings(db: OfflineDb): Promise<CustomerListing[]> {
  const chunks = await db.listingChunks.toArray();
  return chunks.flatMap((chunk) => listedPks(chunk).map((pk) => readListing(chunk, pk)!));
}
