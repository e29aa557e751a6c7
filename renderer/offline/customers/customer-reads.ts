/**
 * Reading cached customers (inside or outside a transaction): by pk, by the service's id or
 * an id prefix, the first in pk order, how many are stored. It never writes: every write of
 * the customer tables goes through customer-blocks.ts, which also keeps the blocks' layout
 * these reads follow (`blockOf`, `rowAt`) and says why customers are stored so.
 */
import type { CachedCustomer, CustomerBlock, OfflineDb } from '../db/schema';
import { pagesInKeyOrder } from '../db/pages-in-key-order';
import { blockOf, rowAt } from './customer-blocks';

function rowsWhere(block: CustomerBlock, keep: (index: number) => boolean): CachedCustomer[] {
  const rows: CachedCustomer[] = [];
  for (let i = 0; i < block.pks.length; i++) if (keep(i)) rows.push(rowAt(block, i));
  return rows;
}

/** The customers with these pks, in the same order (undefined for a pk not stored). */
export async function getCustomerRows(db: OfflineDb, pks: readonly number[]): Promise<(CachedCustomer | undefined)[]> {
  // No pks, no request: even an empty read opens a transaction, which waits behind a fill's write.
  if (pks.length === 0) return [];
  const ids = [...new Set(pks.map(blockOf))];
  const blocks = new Map<number, CustomerBlock>();
  (await db.customerBlocks.bulkGet(ids)).forEach((block, i) => {
    if (block) blocks.set(ids[i]!, block);
  });
  return pks.map((pk) => {
    const block = blocks.get(blockOf(pk));
    const index = block ? block.pks.indexOf(pk) : -1;
    return index < 0 ? undefined : rowAt(block!, index);
  });
}

export async function getCustomerRow(db: OfflineDb, pk: number): Promise<CachedCustomer | undefined> {
  return (await getCustomerRows(db, [pk]))[0];
}

export async function findCustomerById(db: OfflineDb, id: string): Promise<CachedCustomer | undefined> {
  return (await findCustomersByIds(db, [id])).get(id);
}

/**
 * The stored customers among these ids. One index request per id, all in flight at once:
 * measured twice as fast in Chromium as `anyOf`, whose cursor waits for each key.
 */
export async function findCustomersByIds(db: OfflineDb, ids: readonly string[]): Promise<Map<string, CachedCustomer>> {
  const wanted = [...new Set(ids)];
  const blocks = await Promise.all(wanted.map((id) => db.customerBlocks.where('ids').equals(id).first()));
  const found = new Map<string, CachedCustomer>();
  wanted.forEach((id, i) => {
    const block = blocks[i];
    const index = block ? block.ids.indexOf(id) : -1;
    if (index >= 0) found.set(id, rowAt(block!, index));
  });
  return found;
}

/** Customers whose id starts with `prefix` (those registered offline: few). */
export async function findCustomersByIdPrefix(db: OfflineDb, prefix: string): Promise<CachedCustomer[]> {
  // A block with two such customers comes once per customer.
  const blocks = new Map<number, CustomerBlock>();
  for (const block of await db.customerBlocks.where('ids').startsWith(prefix).toArray()) blocks.set(block.block, block);
  return [...blocks.values()].flatMap((block) => rowsWhere(block, (i) => block.ids[i]!.startsWith(prefix)));
}

/** The first blocks in pk order, read a page at a time until they hold `customers` customers (or there are no more). */
async function firstBlocks(db: OfflineDb, customers: number): Promise<CustomerBlock[]> {
  const blocks: CustomerBlock[] = [];
  let held = 0;
  if (customers <= 0) return blocks;
  for await (const page of pagesInKeyOrder(db.customerBlocks, BLOCKS_PER_READ, (block) => block.block)) {
    for (const block of page) held += block.pks.length;
    blocks.push(...page);
    if (held >= customers) break;
  }
  return blocks;
}

const BLOCKS_PER_READ = 64;

/** The first `limit` customers in pk order (a bounded read: only the blocks that hold them). */
export async function firstCustomers(db: OfflineDb, limit: number): Promise<CachedCustomer[]> {
  const blocks = await firstBlocks(db, limit);
  return blocks.flatMap((block) => rowsWhere(block, () => true)).slice(0, limit);
}

/** The first `limit` pks (the fallback search's "everyone"), without parsing a customer. */
export async function firstCustomerPks(db: OfflineDb, limit: number): Promise<number[]> {
  const blocks = await firstBlocks(db, limit);
  return blocks.flatMap((block) => block.pks).slice(0, limit);
}

/**
 * At most how many customers are stored, in one read: the pks allocated so far (never
 * reused, so a deleted customer only makes it an overcount). For decisions that need the
 * cache's size, not an exact count: `countCustomers` visits every entry of the id index,
 * which cost the browser about 1.5 s at 100,000 customers.
 */
export async function customersAtMost(db: OfflineDb): Promise<number> {
  const counter = await db.meta.get('nextCustomerPk');
  return typeof counter?.value === 'number' ? counter.value - 1 : 0;
}

/** How many customers are stored: the entries of the id index (one per customer), counted by IndexedDB. */
export async function countCustomers(db: OfflineDb): Promise<number> {
  return db.customerBlocks.where('ids').aboveOrEqual('').count();
}
