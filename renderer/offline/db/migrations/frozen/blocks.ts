/**
 * Customers packed 16 to a record, as version 6 moved them (copied from
 * customers/customer-blocks.ts at commit feaa1bd; never edited, see README.md).
 */
import type { StoredBlock, StoredCustomer } from './rows';

export const BLOCK_BITS = 4;

/** Customers (with their pks) as whole block records, in pk order. */
export function packCustomerBlocks(rows: readonly StoredCustomer[]): StoredBlock[] {
  const blocks = new Map<number, StoredBlock>();
  for (const row of [...rows].sort((a, b) => a.pk! - b.pk!)) {
    const key = row.pk! >> BLOCK_BITS;
    let block = blocks.get(key);
    if (!block) blocks.set(key, (block = { block: key, pks: [], ids: [], rows: [] }));
    const { pk, ...stored } = row;
    block.pks.push(pk!);
    block.ids.push(row.id);
    block.rows.push(JSON.stringify(stored));
  }
  return [...blocks.values()];
}

/** The customers of a block, each with its pk. */
export function rowsOf(block: StoredBlock): StoredCustomer[] {
  return block.pks.map((pk, i) => ({ ...(JSON.parse(block.rows[i]!) as StoredCustomer), pk }));
}
