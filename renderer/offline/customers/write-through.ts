/**
 * Customers written through as the service returned them (search pages, register, update,
 * refresh batches), each with the time it was fetched: one write transaction over the
 * customer tables and a caller's tables alongside, which a cashier's search may roll back
 * while it still reads (search-rhythm.ts), and a fill's new customers written without
 * reading first (new-customer-writes.ts). The copies in memory follow what commits through
 * the database's feed (db/customer-feed.ts), not through here.
 */
import type { Table } from 'dexie';
import type { Customer } from '../../../common/contract';
import { CustomerIdTaken, customerTables } from './customer-blocks';
import { writePreparedCustomers, type WriteOptions } from './customer-writes';
import { NewCustomerWrites, StaleWriteContext, type Change, type WriteOutcome } from './new-customer-writes';
import { PreparedCustomers, prepareCustomers } from './prepared-customers';
import type { InterruptibleWrite, SearchRhythm } from '../pacing/search-rhythm';
import type { CachedCustomer, OfflineDb } from '../db/schema';

/** More tables written in the same transaction as the customers, both or neither committed. */
export interface Alongside {
  tables: readonly Table[];
  write: () => Promise<void>;
}

/** A background write was rolled back so that a cashier's search would not wait for it. */
export class WriteInterrupted extends Error {
  constructor() {
    super('The write gave way to a search; nothing of it was stored.');
    this.name = 'WriteInterrupted';
  }
}

export class WriteThrough {
  /** A fill's writes of new customers, planned from what the write before left (in these transactions). */
  readonly newCustomers: NewCustomerWrites;

  constructor(
    private readonly db: OfflineDb,
    /** The cashier's searches, which an interruptible write makes way for. */
    private readonly rhythm: SearchRhythm,
  ) {
    this.newCustomers = new NewCustomerWrites(
      db,
      (alongside, options, scope) => this.inWriteTransaction(alongside, options, scope),
      () => rhythm.whenSearchesIdle(),
    );
  }

  /**
   * Stores customers as the service returned them. `alongside` writes more tables in the
   * same transaction: the refresh moves its cursor with the pages it stores, so both commit
   * or neither does.
   *
   * Everything derived from the records (phone parsing, name folding, the JSON compared
   * with the stored record) is computed before the transaction opens: a cashier's read
   * waits for a write transaction to end, so it holds only the IndexedDB work.
   */
  async putCustomers(
    customers: readonly Customer[] | PreparedCustomers,
    fetchedAt: string,
    alongside?: Alongside,
    options: WriteOptions = {},
  ): Promise<CachedCustomer[]> {
    const prepared = customers instanceof PreparedCustomers ? customers : prepareCustomers(customers);
    if (options.expectNew) {
      try {
        return await this.putPrepared(prepared, fetchedAt, alongside, options);
      } catch (error) {
        // Some were stored after all (the transaction rolled back): the usual way, which reads first.
        if (!(error instanceof CustomerIdTaken)) throw error;
      }
    }
    return this.putPrepared(prepared, fetchedAt, alongside, { ...options, expectNew: undefined });
  }

  private async putPrepared(
    prepared: PreparedCustomers,
    fetchedAt: string,
    alongside: Alongside | undefined,
    options: WriteOptions,
  ): Promise<CachedCustomer[]> {
    const storedIds = options.expectNew;
    const planned = storedIds ? this.newCustomers.plan(prepared, fetchedAt) : null;
    if (storedIds && planned) {
      try {
        const rows = await this.inWriteTransaction(alongside, options, (writesSent) =>
          this.newCustomers.send(planned, storedIds, writesSent),
        );
        this.newCustomers.sentWithoutReading += 1;
        return rows;
      } catch (error) {
        // Something else wrote meanwhile (and nothing of this write was kept): the usual way.
        if (!(error instanceof StaleWriteContext)) throw error;
      }
    }
    return this.inWriteTransaction(alongside, options, (writesSent) =>
      writePreparedCustomers(this.db, prepared, fetchedAt, options, writesSent),
    );
  }

  /**
   * One write transaction over the customer tables and `alongside`'s (whose `write`, if
   * any, runs beside `scope`); `scope` calls `writesSent` before it sends its writes (see
   * `WriteOptions.interruptible`), and may ask `cashierCame` whether a search has met it, or
   * the cashier's own work waits for it.
   */
  private async inWriteTransaction(
    alongside: { tables: readonly Table[]; write?: () => Promise<void> } | undefined,
    options: WriteOptions,
    scope: (writesSent: () => void, cashierCame: () => boolean) => Promise<WriteOutcome>,
  ): Promise<CachedCustomer[]> {
    const tables = [...customerTables(this.db), ...(alongside?.tables ?? [])];
    // Its transaction is known once the scope runs; a search may abort it from then on.
    const write: InterruptibleWrite | null = options.interruptible
      ? { transaction: null, aborted: false, writesSent: false, metBySearch: false, cashierWaits: false }
      : null;
    let outcome: WriteOutcome;
    try {
      outcome = await this.db.transaction('rw', tables, async (transaction) => {
        if (write) {
          write.transaction = transaction;
          this.rhythm.writeBegins(write);
        }
        // Side by side: the transaction commits both or neither, and a round trip is spared.
        const [written] = await Promise.all([
          scope(
            () => {
              if (write) write.writesSent = true;
            },
            () => write?.metBySearch === true || write?.cashierWaits === true,
          ),
          alongside?.write?.(),
        ]);
        return written;
      });
    } catch (error) {
      this.newCustomers.keep(null);
      if (write?.aborted) throw new WriteInterrupted();
      throw error;
    } finally {
      if (write) this.rhythm.writeEnds(write);
    }
    this.newCustomers.keep(outcome.kept);
    return outcome.changes.map((change) => change.row);
  }

  /**
   * The writes of `putCustomers`, for use inside a caller's transaction over `customerTables`;
   * the copies in memory follow them once that transaction has committed (db/customer-feed.ts).
   */
  async writeCustomers(
    customers: readonly Customer[],
    fetchedAt: string,
    options: WriteOptions = {},
  ): Promise<Change[]> {
    return (
      await writePreparedCustomers(this.db, prepareCustomers(customers), fetchedAt, {
        ...options,
        expectNew: undefined,
      })
    ).changes;
  }
}
