/**
 * The customer and reward cache: everything the service returns is written through here
 * (with the time it was fetched), and offline search answers from here.
 *
 * Search goes to the in-memory index once it has loaded; until then an exact phone is
 * found through the search chunks' phone digests, names are matched in the packed search
 * chunks, and a digit search answers from the part of the index already loaded, saying it
 * is incomplete. Neither path scans the customer blocks, which hold no phone index (db.ts,
 * version 8). The customers a page of results shows come from the listings in memory
 * (listings.ts) once those have loaded too: then a search reads nothing from IndexedDB.
 * Until then they are read from the blocks.
 */
import type { Table } from 'dexie';
import type { Customer, Program, Redemption, Reward } from '../../../common/contract';
import { toE164 } from '../../lib/phone';
import {
  confirmWriteContext,
  contextAfter,
  CustomerIdTaken,
  customerTables,
  findCustomerById,
  findCustomersByIdPrefix,
  findCustomersByIds,
  firstCustomerPks,
  firstCustomers,
  getCustomerRow,
  getCustomerRows,
  PartedWrite,
  partSizes,
  planCustomerWrite,
  putCustomerRows,
  readWriteContext,
  sendCustomerWrite,
  type CustomerWritePlan,
  type WriteContext,
} from './customer-blocks';
import { LOCAL_ID_PREFIX, rewardKey, type CachedCustomer, type CachedReward, type OfflineDb } from '../db/schema';
import { nameWordsOf } from '../search/fold';
import type { StoredIds } from './stored-ids';
import { loadSearchIndex, yieldToBrowser, type IndexLoadOptions, type IndexLoadProgress } from '../search/index-loader';
import { linesOf, parseSearchLine } from '../search/search-chunks';
import { mayHoldPhone } from '../search/phone-digests';
import { pagesInKeyOrder } from '../db/pages-in-key-order';
import { listingOf, type CustomerListing } from '../search/listings';
import { ListingMemory } from '../search/listing-memory';
import { SlimSearchIndex, parseQuery, type IndexEntry, type IndexHits, type ParsedQuery } from '../search/search-index';
import { PartedWritePace } from './write-cost';

/**
 * Customers per part of a fill's parted write (`putNewCustomersWhile`): four blocks, a few
 * milliseconds of writing, so a search that comes during the write waits for little more.
 */
const PART_CUSTOMERS = 64;

/** A cashier who has not searched for this long is not at the till's search: background work need not make way. */
const CASHIER_ACTIVE_MS = 1_000;

/** Results per page, as the service's default. */
export const PAGE_SIZE = 20;
/** More matches than this ask the cashier to type more, rather than page through a crowd. */
export const MAX_RESULTS = 500;
/**
 * Search chunks (of 1,024 customers) a name search reads while the index loads before it
 * answers with what it found, saying it is incomplete: about 260,000 customers, a few
 * hundred milliseconds.
 */
const FALLBACK_CHUNK_LIMIT = 256;
const FALLBACK_CHUNKS_PER_READ = 16;
/** Phone digests (of 1,024 customers, 4 KB each) read per request by an exact phone while the index loads. */
const DIGESTS_PER_READ = 128;

export interface CacheSearchResult {
  /** What the results list shows of each customer of the page. */
  customers: CustomerListing[];
  page: number;
  perPage: number;
  /** Matches found, at most MAX_RESULTS. */
  total: number;
  lastPage: number;
  /** More than MAX_RESULTS matched. */
  capped: boolean;
  /** False while the answer may miss customers (the index is still loading). */
  complete: boolean;
  via: 'index' | 'fallback';
  query: ParsedQuery;
  /** The oldest fetch time among the customers shown: "from the cache of <time>". */
  cacheOf: string | null;
}

export interface CachedCustomerWithRewards {
  record: CachedCustomer;
  /** Rewards the service last listed as awaiting redemption, plus any pending here. */
  rewards: CachedReward[];
}

type IndexState = 'empty' | 'loading' | 'ready';

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

interface InterruptibleWrite {
  transaction: { abort(): void } | null;
  aborted: boolean;
  /** Its last round (the writes) is sent: from now on a search waits for it. */
  writesSent: boolean;
  /** A search came while it ran (counted once). */
  metBySearch: boolean;
}

/** A background write was rolled back so that a cashier's search would not wait for it. */
export class WriteInterrupted extends Error {
  constructor() {
    super('The write gave way to a search; nothing of it was stored.');
    this.name = 'WriteInterrupted';
  }
}

/** Something wrote the customers since the write context a planned write was planned from. */
class StaleWriteContext extends Error {}

type Change = { row: CachedCustomer; previous: CachedCustomer | null };

/** A write's changes, and what the next write of new customers may plan from once it commits. */
interface WriteOutcome {
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
}

export interface CustomerCacheOptions {
  now?: () => Date;
  defaultCountry: () => string;
}

function entryOf(row: CachedCustomer): IndexEntry {
  return { pk: row.pk!, phoneE164: row.phoneE164, nameWords: row.nameWords };
}

/** The row a prepared customer is stored as (its pk given when stored). */
function newRow(item: PreparedCustomer, fetchedAt: string): CachedCustomer {
  return { id: item.id, phoneE164: item.phoneE164, nameWords: item.nameWords, customer: item.record, fetchedAt };
}

/** New customers' rows with the pks `plan` gave them, as changes (none was stored before). */
function newRowsWritten(rows: readonly CachedCustomer[], plan: CustomerWritePlan): Change[] {
  return rows.map((row, i) => ({ row: { ...row, pk: plan.pks[i]! }, previous: null }));
}

function withoutRewards(customer: Customer): Customer {
  const { rewards: _rewards, ...rest } = customer;
  return rest;
}

interface PreparedCustomer {
  id: string;
  phoneE164: string;
  nameWords: string[];
  /** The service's record without `rewards`, as stored. */
  record: Customer;
  /** `record` as JSON, compared with the stored record's. */
  json: string;
}

/**
 * Customers with everything the write derives from them computed, so a writer can do that
 * work outside its transaction (and split the list into short transactions).
 */
export class PreparedCustomers {
  constructor(readonly items: readonly PreparedCustomer[]) {}

  get length(): number {
    return this.items.length;
  }

  slice(from: number, to: number): PreparedCustomers {
    return new PreparedCustomers(this.items.slice(from, to));
  }

  /** The stored form of these customers as one string, for a page's content hash. */
  json(): string {
    return this.items.map((item) => item.json).join('\n');
  }

  /** Several lists as one, one entry per id (the last one wins). */
  static concat(lists: readonly PreparedCustomers[]): PreparedCustomers {
    if (lists.length === 1) return lists[0]!;
    const byId = new Map<string, PreparedCustomer>();
    for (const list of lists) {
      for (const item of list.items) {
        byId.delete(item.id);
        byId.set(item.id, item);
      }
    }
    return new PreparedCustomers([...byId.values()]);
  }
}

/** One entry per id (the last one wins): a write stores each customer once. */
export function prepareCustomers(customers: readonly Customer[]): PreparedCustomers {
  const byId = new Map<string, PreparedCustomer>();
  for (const customer of customers) {
    const record = withoutRewards(customer);
    byId.delete(customer.id);
    byId.set(customer.id, {
      id: customer.id,
      phoneE164: toE164(customer.phone),
      nameWords: nameWordsOf(customer.name),
      record,
      json: JSON.stringify(record),
    });
  }
  return new PreparedCustomers([...byId.values()]);
}

export class CustomerCache {
  readonly index = new SlimSearchIndex(yieldToBrowser);
  /** What the results list shows of every customer (loaded after the index). */
  readonly listings: ListingMemory;
  private indexState: IndexState = 'empty';
  private loading: Promise<IndexLoadProgress> | null = null;
  /** Searches in progress: the index load waits for them between pages (the cashier comes first). */
  private activeSearches = 0;
  /** When the last search ended (monotonic ms), so background writers can tell a cashier at work. */
  private lastSearchEndedAt = Number.NEGATIVE_INFINITY;
  private idleWaiters: (() => void)[] = [];
  /**
   * The cashier's rhythm: a moving average of the pause between one search's end and the
   * next one's start (pauses under CASHIER_ACTIVE_MS), for background writers to fit their
   * transactions between searches.
   */
  private typicalPauseMs: number | null = null;
  private searchEndWaiters: (() => void)[] = [];
  /** The interruptible background write in progress, if any (see `WriteOptions.interruptible`). */
  private interruptible: InterruptibleWrite | null = null;
  /** pks written through while the index loads: the loader must not index an older read of them. */
  private writtenDuringLoad = new Set<number>();
  private readonly now: () => Date;
  /**
   * The start of the last complete refresh: every customer it listed was the same on the
   * service at that time (unchanged ones are not rewritten), so "from the cache of" is
   * never older than this.
   */
  confirmedAt: string | null = null;

  constructor(
    readonly db: OfflineDb,
    private readonly options: CustomerCacheOptions,
  ) {
    this.now = options.now ?? (() => new Date());
    this.listings = ListingMemory.open(db);
  }

  get indexReady(): boolean {
    return this.indexState === 'ready';
  }

  /**
   * Starts (once) loading the in-memory index, then the listings, in the background;
   * resolves once both are loaded (`done`). Searches use the index from the moment it is
   * ready, and read the customers they show from the blocks until the listings are. The
   * index first because it is what makes a search fast (the listings only spare it reading
   * one page of customers), and one after the other because side by side each slowed the
   * other: in the bench at 100,000 customers, side by side both were ready 1.36-1.45 s
   * after the page loaded; in turn the index was at 0.93 s and the listings at 1.39-1.47 s.
   */
  loadIndex(options: Omit<IndexLoadOptions, 'skip'> = {}): Promise<IndexLoadProgress> {
    if (!this.loading) {
      this.indexState = 'loading';
      const yieldToPage = options.yieldToPage ?? yieldToBrowser;
      const yieldToSearches = async () => {
        await yieldToPage();
        await this.whenSearchesIdle();
      };
      const index = loadSearchIndex(this.db, this.index, {
        ...options,
        yieldToPage: yieldToSearches,
        skip: (pk) => this.writtenDuringLoad.has(pk),
      }).then((progress) => {
        if (progress.done) {
          this.indexState = 'ready';
          this.writtenDuringLoad.clear();
        }
        return progress;
      });
      this.loading = index.then(async (progress) => {
        await this.listings.load(this.db, { yieldToPage: yieldToSearches });
        return progress;
      });
    }
    return this.loading;
  }

  // ---------------------------------------------------------------------------------
  // Write-through
  // ---------------------------------------------------------------------------------

  /**
   * Stores customers as the service returned them (search pages, register, update, refresh
   * batches). `alongside` writes more tables in the same transaction: the refresh moves its
   * cursor with the pages it stores, so both commit or neither does.
   *
   * Everything derived from the records (phone parsing, name folding, the JSON compared
   * with the stored record) is computed before the transaction opens: a cashier's read
   * waits for a write transaction to end, so it holds only the IndexedDB work.
   */
  async putCustomers(
    customers: readonly Customer[] | PreparedCustomers,
    fetchedAt = this.now().toISOString(),
    alongside?: { tables: readonly Table[]; write: () => Promise<void> },
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

  /**
   * A fill's writes of new customers, one after another: each leaves the context the next
   * will find (customer-blocks.ts `contextAfter`), so the next is planned before its
   * transaction opens and sent at once, with the reads that confirm nothing else wrote
   * meanwhile: one round trip instead of two, and none of the planning while the
   * transaction holds the tables a cashier's search reads. Cleared by any write that fails.
   */
  private keptContext: WriteContext | null = null;
  private sentWithoutReading = 0;

  /** Writes of new customers sent without reading what they merge with first (see `keptContext`). */
  get writesSentWithoutReading(): number {
    return this.sentWithoutReading;
  }

  private async putPrepared(
    prepared: PreparedCustomers,
    fetchedAt: string,
    alongside: { tables: readonly Table[]; write: () => Promise<void> } | undefined,
    options: WriteOptions,
  ): Promise<CachedCustomer[]> {
    const storedIds = options.expectNew;
    const planned = storedIds ? this.planFromKeptContext(prepared, fetchedAt) : null;
    if (storedIds && planned) {
      try {
        const rows = await this.inWriteTransaction(alongside, options, (writesSent) =>
          this.sendPlanned(planned, storedIds, writesSent),
        );
        this.sentWithoutReading += 1;
        return rows;
      } catch (error) {
        // Something else wrote meanwhile (and nothing of this write was kept): the usual way.
        if (!(error instanceof StaleWriteContext)) throw error;
      }
    }
    return this.inWriteTransaction(alongside, options, (writesSent) =>
      this.writePrepared(prepared, fetchedAt, options, writesSent),
    );
  }

  /**
   * One write transaction over the customer tables and `alongside`'s (whose `write`, if
   * any, runs beside `scope`); `scope` calls `writesSent` before it sends its writes (see
   * `WriteOptions.interruptible`), and may ask `searchCame` whether a search has met it.
   */
  private async inWriteTransaction(
    alongside: { tables: readonly Table[]; write?: () => Promise<void> } | undefined,
    options: WriteOptions,
    scope: (writesSent: () => void, searchCame: () => boolean) => Promise<WriteOutcome>,
  ): Promise<CachedCustomer[]> {
    const tables = [...customerTables(this.db), ...(alongside?.tables ?? [])];
    // Its transaction is known once the scope runs; a search may abort it from then on.
    const write: InterruptibleWrite | null = options.interruptible
      ? { transaction: null, aborted: false, writesSent: false, metBySearch: false }
      : null;
    let outcome: WriteOutcome;
    try {
      outcome = await this.db.transaction('rw', tables, async (transaction) => {
        if (write) {
          write.transaction = transaction;
          this.interruptible = write;
        }
        // Side by side: the transaction commits both or neither, and a round trip is spared.
        const [written] = await Promise.all([
          scope(
            () => {
              if (write) write.writesSent = true;
            },
            () => write?.metBySearch === true,
          ),
          alongside?.write?.(),
        ]);
        return written;
      });
    } catch (error) {
      this.keptContext = null;
      if (write?.aborted) throw new WriteInterrupted();
      throw error;
    } finally {
      if (write && this.interruptible === write) this.interruptible = null;
    }
    this.keptContext = outcome.kept;
    // The index follows only what committed.
    for (const { row, previous } of outcome.changes) this.indexWrite(row, previous);
    return outcome.changes.map((change) => change.row);
  }

  private readonly partPace = new PartedWritePace();

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
   * Goes only from a kept context (see `keptContext`), and only with customers the stored
   * ids do not hold: a part with one that they may hold ends the write before it. Returns
   * how many customers were stored, or null when none could go this way (nothing stored:
   * write them with `putCustomers`).
   */
  async putNewCustomersWhile(
    customers: PreparedCustomers,
    fetchedAt: string,
    options: PartedWriteOptions,
  ): Promise<number | null> {
    const kept = this.keptContext;
    if (!kept || customers.length === 0) return null;
    const rows = customers.items.map((item) => newRow(item, fetchedAt));
    const sizes = partSizes(rows.length, kept.nextPk, PART_CUSTOMERS);
    let lastWrittenAt = 0;
    let stored: CachedCustomer[];
    try {
      stored = await this.inWriteTransaction(
        { tables: options.alongside.tables },
        { interruptible: true },
        async (writesSent, searchCame) => {
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
          for (const size of sizes) {
            const part = rows.slice(count, count + size);
            if (count > 0) {
              // Decided with at most one part in flight: the next is sent before that one ends.
              if (inFlight.length > 1) await inFlight.shift()!.written;
              const behind = inFlight.reduce((sum, sent) => sum + (sent.done ? 0 : sent.customers), 0);
              if (searchCame() || !this.partPace.fits(performance.now(), behind, size, options.deadline)) break;
            }
            // As in `sendPlanned`: asked inside the transaction, before this part notes its ids.
            if (options.storedIds.mightHoldAny(part.map((row) => row.id))) {
              if (count === 0) throw new StaleWriteContext();
              break;
            }
            let sent: ReturnType<PartedWrite['send']>;
            try {
              sent = parted.send(part);
            } catch (error) {
              if (count === 0 || !(error instanceof CustomerIdTaken)) throw error;
              break;
            }
            const entry = { customers: size, done: false, written: sent.written };
            entry.written = sent.written.then(() => {
              const now = performance.now();
              // Parts are written in turn: one's time is from the end of the request before it.
              // The first part paces too: when only one fitted, a pace that no transaction of
              // one part could correct kept every later one at one part (docs/benchmark.md).
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

  private planFromKeptContext(prepared: PreparedCustomers, fetchedAt: string): PlannedWrite | null {
    const kept = this.keptContext;
    if (!kept || prepared.length === 0) return null;
    const rows = prepared.items.map((item) => newRow(item, fetchedAt));
    try {
      return { kept, rows, plan: planCustomerWrite(kept, rows) };
    } catch (error) {
      if (error instanceof CustomerIdTaken) return null;
      throw error;
    }
  }

  private async sendPlanned(
    { kept, rows, plan }: PlannedWrite,
    storedIds: StoredIds,
    writesSent: () => void,
  ): Promise<WriteOutcome> {
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

  /**
   * The writes of `putCustomers`, for use inside a caller's transaction over `customerTables`;
   * the caller calls `indexWrite` for each change once its transaction has committed.
   */
  async writeCustomers(
    customers: readonly Customer[],
    fetchedAt: string,
    options: WriteOptions = {},
  ): Promise<Change[]> {
    return (await this.writePrepared(prepareCustomers(customers), fetchedAt, { ...options, expectNew: undefined }))
      .changes;
  }

  private async writePrepared(
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
      findCustomersByIdPrefix(this.db, LOCAL_ID_PREFIX),
      options.expectNew ? null : findCustomersByIds(this.db, ids),
      options.expectNew ? readWriteContext(this.db) : null,
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
      await sendCustomerWrite(this.db, plan);
      return {
        changes: newRowsWritten(rows, plan),
        // With no customer registered offline to match, the next write of new customers may go without reading.
        kept: locals.length === 0 ? contextAfter(context!, plan) : null,
      };
    }
    const existing = lookedUp ?? (await findCustomersByIds(this.db, ids));
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
      this.db,
      rows.map((change) => change.row),
      rows.map((change) => change.previous),
    );
    rows.forEach((change, i) => (change.row.pk = pks[i]));
    return { changes: rows, kept: null };
  }

  /** Stores one customer from `GET /v1/customers/{id}`, with the rewards awaiting redemption. */
  async putCustomerWithRewards(
    customer: Customer,
    fetchedAt = this.now().toISOString(),
  ): Promise<CachedCustomerWithRewards> {
    const { changes, result } = await this.db.transaction(
      'rw',
      [...customerTables(this.db), this.db.rewards],
      async () => {
        const changes = await this.writeCustomers([customer], fetchedAt);
        const record = changes[0]!.row;
        const listed = customer.rewards ?? [];
        const cached = await this.db.rewards.where('customerId').equals(customer.id).toArray();
        const byCode = new Map(cached.map((row) => [row.code, row]));
        const rows: CachedReward[] = listed.map((reward) => {
          const code = rewardKey(reward.code);
          const previous = byCode.get(code);
          byCode.delete(code);
          return {
            code,
            customerId: customer.id,
            phoneE164: record.phoneE164,
            reward,
            fetchedAt,
            ...(previous?.pendingOutboxSeq !== undefined ? { pendingOutboxSeq: previous.pendingOutboxSeq } : {}),
          };
        });
        // Cached rewards missing from the fresh list were redeemed or expired meanwhile: keep
        // them (a pending mark must survive) but stop presenting them as available.
        for (const stale of byCode.values()) {
          if (stale.reward.status === 'available') rows.push({ ...stale, noLongerListed: true, fetchedAt });
        }
        await this.db.rewards.bulkPut(rows);
        return { changes, result: { record, rewards: await this.rewardsOf(customer.id) } };
      },
    );
    for (const { row, previous } of changes) this.indexWrite(row, previous);
    return result;
  }

  /** Stores a reward the service described (check, redeem). Keeps a pending mark. */
  async putReward(
    reward: Reward,
    phoneE164: string | null,
    fetchedAt = this.now().toISOString(),
  ): Promise<CachedReward> {
    return this.db.transaction('rw', [this.db.rewards, ...customerTables(this.db)], async () => {
      const code = rewardKey(reward.code);
      const previous = await this.db.rewards.get(code);
      const owner = await findCustomerById(this.db, reward.customer_id);
      const row: CachedReward = {
        code,
        customerId: reward.customer_id,
        phoneE164: phoneE164 ?? owner?.phoneE164 ?? previous?.phoneE164 ?? null,
        reward,
        fetchedAt,
        ...(previous?.pendingOutboxSeq !== undefined ? { pendingOutboxSeq: previous.pendingOutboxSeq } : {}),
      };
      await this.db.rewards.put(row);
      return row;
    });
  }

  /**
   * Applies a confirmed redemption: the reward is redeemed, the card carries its new balance.
   * Where the service's answer could not be read in full (a part is null), the cached reward
   * is still marked redeemed, by `code`, and the card keeps what the till knew of it.
   */
  async applyRedemption(
    redemption: Redemption,
    phoneE164: string,
    fetchedAt = this.now().toISOString(),
    code = redemption.reward?.code,
  ): Promise<void> {
    if (code === undefined) return;
    await this.db.transaction('rw', [this.db.rewards, ...customerTables(this.db)], async () => {
      const key = rewardKey(code);
      const previous = await this.db.rewards.get(key);
      const reward = redemption.reward ?? (previous ? { ...previous.reward, status: 'redeemed' } : null);
      if (reward) {
        await this.db.rewards.put({
          code: key,
          customerId: reward.customer_id,
          phoneE164: previous?.phoneE164 ?? phoneE164,
          reward,
          fetchedAt,
        });
      }
      const card = redemption.card;
      const owner = reward && card ? await findCustomerById(this.db, reward.customer_id) : null;
      if (owner && card) {
        const cards = owner.customer.cards.map((held) => (held.id === card.id ? card : held));
        await putCustomerRows(this.db, [{ ...owner, customer: { ...owner.customer, cards } }], [owner]);
      }
    });
  }

  /**
   * Index upkeep after a write committed. Callers that wrote inside their own transaction
   * call this once it has committed.
   */
  indexWrite(row: CachedCustomer, previous: CachedCustomer | null): void {
    if (this.indexState === 'loading') this.writtenDuringLoad.add(row.pk!);
    this.index.upsert(entryOf(row), previous && previous.pk === row.pk ? entryOf(previous) : null);
  }

  indexRemove(row: CachedCustomer): void {
    if (this.indexState === 'loading') this.writtenDuringLoad.add(row.pk!);
    this.index.remove(entryOf(row));
  }

  // ---------------------------------------------------------------------------------
  // Reads
  // ---------------------------------------------------------------------------------

  async getCustomer(id: string): Promise<CachedCustomerWithRewards | null> {
    const record = await findCustomerById(this.db, id);
    if (!record) return null;
    return { record, rewards: await this.rewardsOf(id) };
  }

  async getByPk(pk: number): Promise<CachedCustomer | undefined> {
    return getCustomerRow(this.db, pk);
  }

  /**
   * The customer with this E.164 phone (one of them, should a stale cache hold two): from
   * the in-memory index once it has loaded, from the search chunks until then.
   */
  async findByPhone(phoneE164: string): Promise<CachedCustomer | undefined> {
    const pks = this.indexState === 'ready' ? [this.index.findPhone(phoneE164)] : await this.pksWithPhone(phoneE164);
    const rows = await getCustomerRows(
      this.db,
      pks.filter((pk): pk is number => pk !== undefined),
    );
    return rows.find((row) => row?.phoneE164 === phoneE164);
  }

  /**
   * The programmes on the cards of (at most `limit`) cached customers, for the Settings
   * choice of this till's programme. A bounded one-off read, never on the search path.
   */
  async programmesSeen(limit = 500): Promise<Program[]> {
    const rows = await firstCustomers(this.db, limit);
    const byId = new Map<string, Program>();
    for (const row of rows) for (const card of row.customer.cards) byId.set(card.program.id, card.program);
    return [...byId.values()];
  }

  /** Rewards to present: those still listed as available, and any with a redemption pending here. */
  async rewardsOf(customerId: string): Promise<CachedReward[]> {
    const rows = await this.db.rewards.where('customerId').equals(customerId).toArray();
    return rows
      .filter((row) => row.pendingOutboxSeq !== undefined || (row.reward.status === 'available' && !row.noLongerListed))
      .sort((a, b) => a.code.localeCompare(b.code));
  }

  /**
   * Resolves when no cashier search is running. Background writers (the index load, the
   * refresh) wait on it before each transaction, so a search queues behind at most the one
   * already running.
   */
  whenSearchesIdle(): Promise<void> {
    if (this.activeSearches === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Background writes a search came upon, and waited for or rolled back (see
   * `WriteOptions.interruptible`): the refresh watches this to learn how much of the
   * cashier's pauses it can safely take.
   */
  get backgroundWritesMetBySearch(): number {
    return this.metBackgroundWrites;
  }

  private metBackgroundWrites = 0;

  /**
   * Rolls back the interruptible background write in progress, if it is still reading what
   * it merges with: the cashier comes first. One whose writes are sent is waited for.
   */
  private interruptBackgroundWrite(): void {
    const write = this.interruptible;
    if (!write?.transaction || write.aborted) return;
    if (!write.metBySearch) this.metBackgroundWrites += 1;
    write.metBySearch = true;
    if (write.writesSent) return;
    try {
      write.transaction.abort();
      write.aborted = true;
    } catch {
      // Already committing: the search waits for that commit, which is nearly done.
    }
  }

  /**
   * Milliseconds until the cashier's next search is expected, going by their rhythm: 0
   * while one runs, null when none is expected (no search in the last CASHIER_ACTIVE_MS).
   */
  expectedSearchIn(): number | null {
    if (this.activeSearches > 0) return 0;
    const since = performance.now() - this.lastSearchEndedAt;
    if (since >= CASHIER_ACTIVE_MS || this.typicalPauseMs === null) return null;
    return Math.max(0, this.typicalPauseMs - since);
  }

  /** The cashier's usual pause between searches (ms), or null until they have paused once. */
  get typicalSearchPause(): number | null {
    return this.typicalPauseMs;
  }

  /** Resolves when the next search ends, or once the cashier counts as idle (no search for CASHIER_ACTIVE_MS). */
  nextSearchEnd(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, CASHIER_ACTIVE_MS);
      this.searchEndWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /**
   * Offline search: the same kinds of answers as the service's search, from the cache.
   * Answered from memory whenever the index and the listings of the page's customers are
   * loaded; only a search that reads IndexedDB counts as the cashier's, whom background
   * writers make way for (`whenSearchesIdle`, `expectedSearchIn`).
   */
  async search(text: string, page = 1, perPage = PAGE_SIZE): Promise<CacheSearchResult> {
    const fromMemory = this.searchMemory(text, page, perPage);
    if (fromMemory) return fromMemory;
    const pause = performance.now() - this.lastSearchEndedAt;
    if (this.activeSearches === 0 && pause < CASHIER_ACTIVE_MS) {
      this.typicalPauseMs = this.typicalPauseMs === null ? pause : 0.7 * this.typicalPauseMs + 0.3 * pause;
    }
    this.activeSearches += 1;
    try {
      return await this.searchNow(text, page, perPage);
    } finally {
      this.activeSearches -= 1;
      this.lastSearchEndedAt = performance.now();
      if (this.activeSearches === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
      for (const resolve of this.searchEndWaiters.splice(0)) resolve();
    }
  }

  /** The search answered from memory alone, or null when it must read IndexedDB. */
  private searchMemory(text: string, page: number, perPage: number): CacheSearchResult | null {
    if (this.indexState !== 'ready' || !this.listings.ready) return null;
    const query = parseQuery(text, this.options.defaultCountry());
    const hits = this.index.search(query, MAX_RESULTS);
    const customers = this.listings.getAll(pageOf(hits.pks, page, perPage));
    return customers && this.result(query, hits, { complete: true, via: 'index' }, page, perPage, customers);
  }

  private async searchNow(text: string, page: number, perPage: number): Promise<CacheSearchResult> {
    const query = parseQuery(text, this.options.defaultCountry());
    const ready = this.indexState === 'ready';
    // Before any read of what the refresh writes: the search must not queue behind its write.
    if (!ready) this.interruptBackgroundWrite();
    const { hits, complete, via } = ready
      ? { hits: this.index.search(query, MAX_RESULTS), complete: true, via: 'index' as const }
      : await this.searchFallback(query);
    // The listings loaded so far are current (listing-memory.ts); the blocks give the rest.
    const pagePks = pageOf(hits.pks, page, perPage);
    const inMemory = pagePks.map((pk) => this.listings.get(pk));
    const toRead = pagePks.filter((_, i) => inMemory[i] === undefined);
    if (toRead.length > 0) this.interruptBackgroundWrite();
    const read = new Map<number, CustomerListing>();
    for (const row of await getCustomerRows(this.db, toRead)) if (row) read.set(row.pk!, listingOf(row));
    const customers = pagePks.flatMap((pk, i) => inMemory[i] ?? read.get(pk) ?? []);
    return this.result(query, hits, { complete, via }, page, perPage, customers);
  }

  private result(
    query: ParsedQuery,
    hits: IndexHits,
    { complete, via }: Pick<CacheSearchResult, 'complete' | 'via'>,
    page: number,
    perPage: number,
    customers: CustomerListing[],
  ): CacheSearchResult {
    const total = hits.pks.length;
    const confirmed = this.confirmedAt;
    const cacheOf = customers.reduce<string | null>((oldest, listing) => {
      // A customer the complete refresh saw unchanged is as fresh as that refresh; a customer
      // registered offline is not known to the service, so only its own time counts.
      const asOf =
        confirmed !== null && !listing.localOnly && confirmed > listing.fetchedAt ? confirmed : listing.fetchedAt;
      return oldest === null || asOf < oldest ? asOf : oldest;
    }, null);
    return {
      customers,
      page,
      perPage,
      total,
      lastPage: Math.max(1, Math.ceil(total / perPage)),
      capped: hits.capped,
      complete,
      via,
      query,
      cacheOf,
    };
  }

  /**
   * While the in-memory index loads: exact phone through the search chunks' phone digests,
   * names from the search chunks (never the customer blocks), digits from the part of the
   * index loaded so far.
   */
  private async searchFallback(query: ParsedQuery): Promise<{ hits: IndexHits; complete: boolean; via: 'fallback' }> {
    const via = 'fallback' as const;
    switch (query.kind) {
      case 'all': {
        return { hits: capHits(await firstCustomerPks(this.db, MAX_RESULTS + 1)), complete: true, via };
      }
      case 'phone': {
        const pks = await this.pksWithPhone(query.e164);
        if (pks.length > 0) return { hits: { pks, capped: false, matched: 'exact_phone' }, complete: true, via };
        return {
          hits: { ...this.index.search({ kind: 'digits', digits: query.digits }, MAX_RESULTS), matched: 'digits' },
          complete: false,
          via,
        };
      }
      case 'digits':
        return { hits: this.index.search(query, MAX_RESULTS), complete: false, via };
      case 'name': {
        const { pks, complete } = await this.scanChunksForNames(query.terms);
        return { hits: capHits(pks), complete, via };
      }
    }
  }

  /**
   * Names while the index loads: the packed search lines (search-chunks.ts) in pk order,
   * until more than a page of results' worth (MAX_RESULTS) matched or FALLBACK_CHUNK_LIMIT
   * chunks were read with more left (then the answer says it is incomplete). Every term
   * must be a prefix of some word of the name, as in the index.
   */
  private async scanChunksForNames(terms: readonly string[]): Promise<{ pks: number[]; complete: boolean }> {
    // The longest term is the rarest substring, the cheapest first test of a chunk and a line.
    const probe = [...terms].sort((a, b) => b.length - a.length)[0] ?? '';
    const pks: number[] = [];
    let read = 0;
    for await (const chunks of pagesInKeyOrder(
      this.db.searchChunks,
      FALLBACK_CHUNKS_PER_READ,
      (chunk) => chunk.chunk,
    )) {
      for (const chunk of chunks) {
        if (!chunk.lines.includes(probe)) continue;
        for (const line of linesOf(chunk)) {
          if (!line.includes(probe)) continue;
          const fields = parseSearchLine(line);
          if (terms.every((term) => fields.nameWords.some((word) => word.startsWith(term)))) pks.push(fields.pk);
        }
        if (pks.length > MAX_RESULTS) return { pks, complete: true };
      }
      read += chunks.length;
      if (read >= FALLBACK_CHUNK_LIMIT) return { pks, complete: chunks.length < FALLBACK_CHUNKS_PER_READ };
    }
    return { pks, complete: true };
  }

  /**
   * The pks whose search line holds this E.164 phone, in pk order, while the index loads.
   * Every chunk's phone digest is read, however many: the phone is who the customer is (the
   * outbox's registrations ask it too), so this answer is never partial. Only the chunks
   * whose digest holds the number's hash are read, and their lines checked.
   */
  private async pksWithPhone(phoneE164: string): Promise<number[]> {
    const digits = phoneE164.startsWith('+') ? phoneE164.slice(1) : '';
    if (digits === '') return [];
    const candidates: number[] = [];
    for await (const digests of pagesInKeyOrder(this.db.phoneDigests, DIGESTS_PER_READ, (digest) => digest.chunk)) {
      for (const digest of digests) if (mayHoldPhone(digest, digits)) candidates.push(digest.chunk);
    }
    const pks: number[] = [];
    for (const chunk of await this.db.searchChunks.bulkGet(candidates)) {
      for (const line of chunk ? linesOf(chunk) : []) {
        if (!line.includes(digits)) continue;
        const fields = parseSearchLine(line);
        if (fields.phoneE164 === phoneE164) pks.push(fields.pk);
      }
    }
    return pks;
  }
}

function pageOf(pks: readonly number[], page: number, perPage: number): number[] {
  return pks.slice((page - 1) * perPage, page * perPage);
}

function capHits(pks: number[]): IndexHits {
  return pks.length > MAX_RESULTS ? { pks: pks.slice(0, MAX_RESULTS), capped: true } : { pks, capped: false };
}
