/**
 * Writing customers as the service returned them, merged with what is stored: the same
 * customer keeps its pk, a customer registered offline becomes the service's customer in
 * its row, and (for the refresh) an unchanged record is not written again. For use inside a
 * write transaction over `customerTables`; the caller's transaction decides what commits,
 * and the copies in memory follow that (db/customer-feed.ts).
 */
import {
  contextAfter,
  planCustomerWrite,
  putCustomerRows,
  readWriteContext,
  sendCustomerWrite,
} from './customer-blocks';
import { findCustomersByIdPrefix, findCustomersByIds } from './customer-reads';
import { newRowsWritten, type Change, type WriteOutcome } from './new-customer-writes';
import { newRow, type PreparedCustomers } from './prepared-customers';
import type { StoredIds } from './stored-ids';
import { LOCAL_ID_PREFIX, type CachedCustomer, type OfflineDb } from '../db/schema';

export interface WriteOptions {
  /**
   * Skip customers whose stored record is the same as the service's (the refresh): an
   * unchanged base then costs reads, not writes. Their `fetchedAt` stays the time they last
   * changed; the refresh's completion vouches for them (`confirmedAt`).
   */
  onlyChanged?: boolean;
  /**
   * The customers are most likely not stored yet (a first fill): when these stored ids
   * hold none of theirs, they are inserted without looking each one up first; otherwise
   * the write goes the usual way. Only `putCustomers` takes this (it owns its transaction).
   */
  expectNew?: StoredIds;
  /**
   * A background write (the refresh's): a cashier's search that starts while it still reads
   * what it merges with aborts it, so that the search does not queue behind it (IndexedDB
   * runs a read after every overlapping write created before it). The write is rolled back
   * whole, `alongside` included, and the call fails with `WriteInterrupted`: the caller
   * writes it again once the searches are done. Once its writes are sent, the search waits
   * for them instead: IndexedDB would finish them before rolling them back, so aborting
   * then costs the search more, and wastes the write. Only `putCustomers` takes this.
   */
  interruptible?: boolean;
}

export async function writePreparedCustomers(
  db: OfflineDb,
  prepared: PreparedCustomers,
  fetchedAt: string,
  options: WriteOptions,
  /** Called once the customers are looked up, before the requests that end in the writes are sent. */
  lastRound: () => void = () => undefined,
): Promise<WriteOutcome> {
  const { items } = prepared;
  if (items.length === 0) return { changes: [], kept: null };
  // Customers registered offline are few: one index range finds them all, by phone here.
  // Asked together with the stored customers by id, unless the customers are expected new.
  const ids = items.map((item) => item.id);
  const [locals, lookedUp, context] = await Promise.all([
    findCustomersByIdPrefix(db, LOCAL_ID_PREFIX),
    options.expectNew ? null : findCustomersByIds(db, ids),
    options.expectNew ? readWriteContext(db) : null,
  ]);
  const localByPhone = new Map<string, CachedCustomer>();
  for (const row of locals) if (row.localOnly) localByPhone.set(row.phoneE164, row);
  // The transaction has begun (its reads answered): every write made before it has noted
  // its ids by now, so "not held" means not stored.
  if (
    options.expectNew &&
    !options.expectNew.mightHoldAny(ids) &&
    items.every((item) => !localByPhone.has(item.phoneE164))
  ) {
    const rows = items.map((item) => newRow(item, fetchedAt));
    const plan = planCustomerWrite(context!, rows);
    lastRound();
    await sendCustomerWrite(db, plan);
    return {
      changes: newRowsWritten(rows, plan),
      // With no customer registered offline to match, the next write of new customers may go without reading.
      kept: locals.length === 0 ? contextAfter(context!, plan) : null,
    };
  }
  const existing = lookedUp ?? (await findCustomersByIds(db, ids));
  const rows: Change[] = [];
  for (const item of items) {
    // A customer registered offline becomes the service's customer: same row, same pk.
    const previous = existing.get(item.id) ?? localByPhone.get(item.phoneE164) ?? null;
    // The service's record is stored as it came, so the same JSON means nothing changed.
    if (options.onlyChanged && previous && !previous.localOnly && JSON.stringify(previous.customer) === item.json)
      continue;
    const row = newRow(item, fetchedAt);
    if (previous) row.pk = previous.pk;
    rows.push({ row, previous });
  }
  if (rows.length === 0) return { changes: rows, kept: null };
  lastRound();
  const pks = await putCustomerRows(
    db,
    rows.map((change) => change.row),
    rows.map((change) => change.previous),
  );
  rows.forEach((change, i) => (change.row.pk = pks[i]));
  return { changes: rows, kept: null };
}
