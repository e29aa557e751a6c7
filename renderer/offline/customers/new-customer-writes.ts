/**
 * A fill's writes of new customers, one after another: each leaves the context the next
 * will find (customer-blocks.ts `contextAfter`), so the next is planned before its
 * transaction opens and sent at once, with the reads that confirm nothing else wrote
 * meanwhile: one round trip instead of two, and none of the planning while the transaction
 * holds the tables a cashier's search reads (docs/decisions/2026-11-23-write-without-reading-first.md).
 * The transactions themselves are the write-through's (write-through.ts `inWriteTransaction`).
 */
import type { Table } from 'dexie';
import {
  confirmWriteContext,
  contextAfter,
  CustomerIdTaken,
  PartedWrite,
  type PartPlannedAhead,
  planPart,
  partSizes,
  planCustomerWrite,
  sendCustomerWrite,
  type CustomerWritePlan,
  type WriteContext,
} from './customer-blocks';
import { newRow, type PreparedCustomers } from './prepared-customers';
import type { StoredIds } from './stored-ids';
import { PartedWritePace } from '../pacing/write-cost';
import { sealAhead } from '../db/sealed-tables';
import { digestPhonesAhead } from '../search/phone-digests';
import type { CachedCustomer, OfflineDb } from '../db/schema';

/**
 * Customers per part of a fill's parted write (`putNewCustomersWhile`): four blocks, a few
 * milliseconds of writing, so a search that comes during the write waits for little more.
 */
const PART_CUSTOMERS = 64;

/** Something wrote the customers since the write context a planned write was planned from. */
export class StaleWriteContext extends Error {}

export type Change = { row: CachedCustomer; previous: CachedCustomer | null };

/** A write's changes, and what the next write of new customers may plan from once it commits. */
export interface WriteOutcome {
  changes: Change[];
  kept: WriteContext | null;
}

/** A write of new customers planned from a kept context, before its transaction opens. */
interface PlannedWrite {
  kept: WriteContext;
  rows: CachedCustomer[];
  plan: CustomerWritePlan;
}

/** How a parted write ends and what it stores with its customers (`putNewCustomersWhile`). */
export interface PartedWriteOptions {
  /** The ids stored, as `WriteOptions.expectNew`. */
  storedIds: StoredIds;
  /** When the transaction should have committed by (`performance.now()` time); Infinity when nothing waits. */
  deadline: number;
  /** More writes in the same transaction, told how many customers it stores once that is known. */
  alongside: { tables: readonly Table[]; write: (stored: number) => Promise<void> };
  /** Its parts planned and sealed before the transaction opened (`sealAhead`), when they were. */
  ahead?: PartsPlannedAhead | null;
}

/**
 * A parted write's parts, planned from the kept context and their blocks sealed, before its
 * transaction opens (`NewCustomerWrites.sealAhead`); used only while that context is still the
 * one kept, and for the same customers.
 */
export interface PartsPlannedAhead {
  from: WriteContext;
  customers: PreparedCustomers;
  rows: CachedCustomer[];
  parts: PartPlannedAhead[];
}

/** The write-through's transaction (write-through.ts `inWriteTransaction`), as these writes use it. */
export type WriteTransaction = (
  alongside: { tables: readonly Table[]; write?: () => Promise<void> } | undefined,
  options: { interruptible?: boolean },
  scope: (writesSent: () => void, cashierCame: () => boolean) => Promise<WriteOutcome>,
) => Promise<CachedCustomer[]>;

/** New customers' rows with the pks `plan` gave them, as changes (none was stored before). */
export function newRowsWritten(rows: readonly CachedCustomer[], plan: CustomerWritePlan): Change[] {
  return rows.map((row, i) => ({ row: { ...row, pk: plan.pks[i]! }, previous: null }));
}

export class NewCustomerWrites {
  /** What the last write left for the next to plan from; cleared by any write that fails. */
  private kept: WriteContext | null = null;
  private readonly partPace = new PartedWritePace();
  /** Writes of new customers sent without reading what they merge with first. */
  sentWithoutReading = 0;

  constructor(
    private readonly db: OfflineDb,
    private readonly inWriteTransaction: WriteTransaction,
    /** Resolves once the cashier's searches and own work are done: `sealAhead` waits on it between parts. */
    private readonly cashierDone: () => Promise<void>,
  ) {}

  /** After every write of the cache: what the next may plan from (null after a failure). */
  keep(context: WriteContext | null): void {
    this.kept = context;
  }

  /**
   * A fill's new customers (the first ones of `customers`) in one transaction that grows
   * part by part (customer-blocks.ts `PartedWrite`) while there is time: a part is sent
   * only when it and the one still being written are expected to have committed by the
   * deadline, by what parts cost in this transaction and the ones before
   * (`PartedWritePace`), and none once a cashier's search has started. So a search that
   * comes during the write waits for at most a part and the commit, whatever was planned,
   * and the transaction's length follows what writes cost now. The first part is always
   * written.
   *
   * Goes only from a kept context, and only with customers the stored
   * ids do not hold: a part with one that they may hold ends the write before it. Returns
   * how many customers were stored, or null when none could go this way (nothing stored:
   * write them with `putCustomers`).
   */
  async putWhile(customers: PreparedCustomers, fetchedAt: string, options: PartedWriteOptions): Promise<number | null> {
    const kept = this.kept;
    if (!kept || customers.length === 0) return null;
    const ahead = options.ahead?.from === kept && options.ahead.customers === customers ? options.ahead : null;
    const rows = ahead?.rows ?? customers.items.map((item) => newRow(item, fetchedAt));
    const sizes = partSizes(rows.length, kept.nextPk, PART_CUSTOMERS);
    let lastWrittenAt = 0;
    let stored: CachedCustomer[];
    try {
      stored = await this.inWriteTransaction(
        { tables: options.alongside.tables },
        { interruptible: true },
        async (writesSent, cashierCame) => {
          // Its writes are sent from the start: a search that comes waits for what is in flight.
          writesSent();
          // Until the confirming reads end (below): a bound, should they never say so.
          lastWrittenAt = performance.now();
          const parted = new PartedWrite(this.db, kept);
          const changes: Change[] = [];
          // The confirming reads first: a transaction's requests run in the order they are made.
          const confirmed = confirmWriteContext(this.db, kept);
          // Requests run in order: the first part's writes begin when the confirming reads end.
          // The rejection is handled here too: a rollback must not leave them unheard.
          void confirmed.then(
            () => (lastWrittenAt = performance.now()),
            () => undefined,
          );
          const inFlight: { customers: number; done: boolean; written: Promise<unknown> }[] = [];
          let count = 0;
          for (const [index, size] of sizes.entries()) {
            const part = rows.slice(count, count + size);
            if (count > 0) {
              // Decided with at most one part in flight: the next is sent before that one ends.
              if (inFlight.length > 1) await inFlight.shift()!.written;
              const behind = inFlight.reduce((sum, sent) => sum + (sent.done ? 0 : sent.customers), 0);
              if (cashierCame() || !this.partPace.fits(performance.now(), behind, size, options.deadline)) break;
            }
            // As in `sendPlanned`: asked inside the transaction, before this part notes its ids.
            if (options.storedIds.mightHoldAny(part.map((row) => row.id))) {
              if (count === 0) throw new StaleWriteContext();
              break;
            }
            let sent: ReturnType<PartedWrite['send']>;
            try {
              sent = parted.send(part, ahead?.parts[index]);
            } catch (error) {
              if (count === 0 || !(error instanceof CustomerIdTaken)) throw error;
              break;
            }
            const entry = { customers: size, done: false, written: sent.written };
            entry.written = sent.written.then(() => {
              const now = performance.now();
              // Parts are written in turn: one's time is from the end of the request before it.
              // The first part paces too: when only one fitted, a pace that no transaction of
              // one part could correct kept every later one at one part (docs/decisions/2026-11-24-first-part-paces-too.md).
              this.partPace.observePart(size, now - lastWrittenAt);
              lastWrittenAt = now;
              entry.done = true;
            });
            entry.written.catch(() => undefined);
            inFlight.push(entry);
            changes.push(...newRowsWritten(part, sent.plan));
            count += size;
          }
          const [isCurrent] = await Promise.all([
            confirmed,
            parted.finish(),
            options.alongside.write(count),
            ...inFlight.map((sent) => sent.written),
          ]);
          if (!isCurrent) throw new StaleWriteContext();
          return { changes, kept: parted.context };
        },
      );
    } catch (error) {
      // Nothing of it was kept (inWriteTransaction let the kept context go).
      if (error instanceof StaleWriteContext || error instanceof CustomerIdTaken) return null;
      throw error;
    }
    // From the last part written: the chunks, the counter and `alongside`, then the commit.
    this.partPace.observeFinish(performance.now() - lastWrittenAt);
    this.sentWithoutReading += 1;
    return stored.length;
  }

  /**
   * Plans `putWhile`'s parts of `customers` from the context kept now and seals their blocks,
   * and the search chunks and listing chunks as each part leaves them (the finish sends those
   * of the last part sent), by Web Crypto, before the transaction opens: inside it they would
   * be sealed synchronously on the page's thread, which a cashier's "Queued" waits for, and by
   * JavaScript AES, whose garbage the page then stops to collect. Each part waits for the
   * cashier's work first: planning and encoding a part is the page's thread too, and a
   * redemption being queued waits for that thread at each of its requests. Parts past one whose
   * customer ids clash are left to `putWhile` (which stops there). Null when nothing is kept,
   * or the database seals nothing (then `putWhile` plans and sends as it goes).
   */
  async sealAhead(customers: PreparedCustomers, fetchedAt: string): Promise<PartsPlannedAhead | null> {
    const from = this.kept;
    if (!from || customers.length === 0) return null;
    const rows = customers.items.map((item) => newRow(item, fetchedAt));
    const parts: PartPlannedAhead[] = [];
    let context = from;
    let count = 0;
    for (const size of partSizes(rows.length, from.nextPk, PART_CUSTOMERS)) {
      await this.cashierDone();
      let planned: ReturnType<typeof planPart>;
      try {
        planned = planPart(context, rows.slice(count, count + size));
      } catch (error) {
        if (error instanceof CustomerIdTaken) break;
        throw error;
      }
      const { plan, after } = planned;
      const [blocks, chunks, listings] = await Promise.all([
        sealAhead(this.db, 'customerBlocks', plan.records),
        sealAhead(this.db, 'searchChunks', plan.chunks.toPut),
        sealAhead(this.db, 'listingChunks', plan.listings.toPut),
      ]);
      if (!blocks || !chunks || !listings) return null;
      digestPhonesAhead(this.db, rows.slice(count, count + size));
      parts.push({ plan, after, blocks, chunks, listings });
      context = after;
      count += size;
    }
    return { from, customers, rows, parts };
  }

  plan(prepared: PreparedCustomers, fetchedAt: string): PlannedWrite | null {
    const kept = this.kept;
    if (!kept || prepared.length === 0) return null;
    const rows = prepared.items.map((item) => newRow(item, fetchedAt));
    try {
      return { kept, rows, plan: planCustomerWrite(kept, rows) };
    } catch (error) {
      if (error instanceof CustomerIdTaken) return null;
      throw error;
    }
  }

  async send({ kept, rows, plan }: PlannedWrite, storedIds: StoredIds, writesSent: () => void): Promise<WriteOutcome> {
    // Asked before this write notes its own ids. Every write sent so far has noted its ids.
    // One still to run before this transaction stores a new id only under a new pk, which
    // moves the counter the confirming reads check: a context is kept only when no customer
    // registered offline was stored (whose row would take the service's id under its pk),
    // and one registered since took a new pk. For the same reason none needs matching by phone.
    if (storedIds.mightHoldAny(rows.map((row) => row.id))) throw new StaleWriteContext();
    writesSent();
    // The confirming reads first: a transaction's requests run in the order they are made.
    const [confirmed] = await Promise.all([confirmWriteContext(this.db, kept), sendCustomerWrite(this.db, plan)]);
    if (!confirmed) throw new StaleWriteContext();
    return {
      changes: newRowsWritten(rows, plan),
      kept: contextAfter(kept, plan),
    };
  }
}
