/** Reading the cache's customers in tests, through the same module the app stores them with. */
import { firstCustomers, findCustomersByIds } from '../../renderer/offline/customer-blocks';
import type { CachedCustomer, OfflineDb } from '../../renderer/offline/db';

export { countCustomers, getCustomerRow } from '../../renderer/offline/customer-blocks';

/** Every stored customer, in pk order. */
export function allCustomers(db: OfflineDb): Promise<CachedCustomer[]> {
  return firstCustomers(db, Number.POSITIVE_INFINITY);
}

/** How many customers are stored under this id (0 or 1: the id index is unique). */
export async function customersWithId(db: OfflineDb, id: string): Promise<number> {
  return (await findCustomersByIds(db, [id])).size;
}
