/**
 * The customer and reward cache: everything the service returns is written through here
 * (with the time it was fetched), and the in-memory index follows what committed. Offline
 * search (cache-search.ts) and the cashier's rhythm that background writes make way for
 * (search-rhythm.ts) are its parts; it loads the index and the listings at start.
 */
import type { Table } from 'dexie';
import type { Customer, Program, Redemption, Reward } from '../../../common/contract';
import { CustomerIdTaken, customerTables } from '../customers/customer-blocks';
import { findCustomerById, firstCustomers, getCustomerRow, getCustomerRows } from '../customers/customer-reads';
import { CacheSearch, PAGE_SIZE, type CacheSearchResult } from '../customers/cache-search';
import {
  NewCustomerWrites,
  StaleWriteContext,
  type Change,
  type PartedWriteOptions,
  type WriteOutcome,
} from '../customers/new-customer-writes';
import { writePreparedCustomers, type WriteOptions } from '../customers/customer-writes';
import { PreparedCustomers, prepareCustomers } from '../customers/prepared-customers';

import { RewardCache } from '../rewards/reward-cache';
import { SearchRhythm, type InterruptibleWrite } from '../pacing/search-rhythm';
import type { CachedCustomer, CachedReward, OfflineDb } from '../db/schema';
import { yieldToBrowser, type IndexLoadOptions, type IndexLoadProgress } from '../search/index-loader';
import { IndexMemory } from '../search/index-memory';
import { ListingMemory } from '../search/listing-memory';
import type { SlimSearchIndex } from '../search/search-index';
import { SerialIndex } from '../customers/serial-index';

// Its parts' names, as the rest of the offline core has long imported them from here.
export { MAX_RESULTS, PAGE_SIZE, type CacheSearchResult } from '../customers/cache-search';
export { PreparedCustomers, prepareCustomers } from '../customers/prepared-customers';
export type { PartedWriteOptions } from '../customers/new-customer-writes';
export type { WriteOptions } from '../customers/customer-writes';

export interface CachedCustomerWithRewards {
  record: CachedCustomer;
  /** Rewards the service last listed as awaiting redemption, plus any pending here. */
  rewards: CachedReward[];
}

/** A background write was rolled back so that a cashier's search would not wait for it. */
export class WriteInterrupted extends Error {
  constructor() {
    super('The write gave way to a search; nothing of it was stored.');
    this.name = 'WriteInterrupted';
  }
}

export interface CustomerCacheOptions {
  now?: () => Date;
  defaultCountry: () => string;
}

export class CustomerCache {
  /** The search index of every customer, following the committed writes (loaded first). */
  private readonly indexMemory: IndexMemory;
  /** What the results list shows of every customer, following them too (loaded after the index). */
  readonly listings: ListingMemory;
  /** Every cached card's serial (loaded after the listings), for a loyalty card's scan. */
  readonly serials: SerialIndex;
  /** The cashier's searches, which background writes make way for. */
  private readonly rhythm = new SearchRhythm();
  private readonly searcher: CacheSearch;
  private readonly rewards: RewardCache;
  /** A fill's writes of new customers, planned from what the write before left. */
  private readonly newCustomers: NewCustomerWrites;
  private loading: Promise<IndexLoadProgress> | null = null;
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
    this.indexMemory = IndexMemory.open(db);
    this.serials = new SerialIndex(db);
    this.rewards = new RewardCache(db);
    this.newCustomers = new NewCustomerWrites(db, (alongside, options, scope) =>
      this.inWriteTransaction(alongside, options, scope),
    );
    this.searcher = new CacheSearch(db, this.index, this.listings, this.rhythm, {
      indexReady: () => this.indexMemory.ready,
      confirmedAt: () => this.confirmedAt,
      defaultCountry: () => options.defaultCountry(),
    });
  }

  get indexReady(): boolean {
    return this.indexMemory.ready;
  }

  get index(): SlimSearchIndex {
    return this.indexMemory.index;
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
      const yieldToPage = options.yieldToPage ?? yieldToBrowser;
      const yieldToSearches = async () => {
        await yieldToPage();
        await this.whenSearchesIdle();
      };
      const index = this.indexMemory.load(this.db, { ...options, yieldToPage: yieldToSearches });
      this.loading = index.then(async (progress) => {
        await this.listings.load(this.db, { yieldToPage: yieldToSearches });
        await this.serials.load({ yieldToPage: yieldToSearches });
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

  private async putPrepared(
    prepared: PreparedCustomers,
    fetchedAt: string,
    alongside: { tables: readonly Table[]; write: () => Promise<void> } | undefined,
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
          this.rhythm.writeBegins(write);
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
      this.newCustomers.keep(null);
      if (write?.aborted) throw new WriteInterrupted();
      throw error;
    } finally {
      if (write) this.rhythm.writeEnds(write);
    }
    this.newCustomers.keep(outcome.kept);
    return outcome.changes.map((change) => change.row);
  }

  /** See new-customer-writes.ts: a fill's new customers in one transaction that grows part by part. */
  putNewCustomersWhile(
    customers: PreparedCustomers,
    fetchedAt: string,
    options: PartedWriteOptions,
  ): Promise<number | null> {
    return this.newCustomers.putWhile(customers, fetchedAt, options);
  }

  /** Writes of new customers sent without reading what they merge with first. */
  get writesSentWithoutReading(): number {
    return this.newCustomers.sentWithoutReading;
  }

  /**
   * The writes of `putCustomers`, for use inside a caller's transaction over `customerTables`;
   * the index follows them once that transaction has committed (db/customer-feed.ts).
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

  /** Stores one customer from `GET /v1/customers/{id}`, with the rewards awaiting redemption. */
  async putCustomerWithRewards(
    customer: Customer,
    fetchedAt = this.now().toISOString(),
  ): Promise<CachedCustomerWithRewards> {
    return this.db.transaction('rw', [...customerTables(this.db), this.db.rewards], async () => {
      const changes = await this.writeCustomers([customer], fetchedAt);
      const record = changes[0]!.row;
      await this.rewards.putListed(customer.id, customer.rewards ?? [], record.phoneE164, fetchedAt);
      return { record, rewards: await this.rewards.rewardsOf(customer.id) };
    });
  }

  /** Stores a reward the service described (check, redeem). Keeps a pending mark. */
  putReward(reward: Reward, phoneE164: string | null, fetchedAt = this.now().toISOString()): Promise<CachedReward> {
    return this.rewards.putReward(reward, phoneE164, fetchedAt);
  }

  /** See reward-cache.ts: the reward redeemed, the card with its new balance. */
  applyRedemption(
    redemption: Redemption,
    phoneE164: string,
    fetchedAt = this.now().toISOString(),
    code = redemption.reward?.code,
  ): Promise<void> {
    return this.rewards.applyRedemption(redemption, phoneE164, fetchedAt, code);
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
    const pks = this.indexMemory.ready
      ? [this.index.findPhone(phoneE164)]
      : await this.searcher.pksWithPhone(phoneE164);
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
  rewardsOf(customerId: string): Promise<CachedReward[]> {
    return this.rewards.rewardsOf(customerId);
  }

  // ---------------------------------------------------------------------------------
  // Offline search, and the cashier's rhythm that background writes make way for
  // ---------------------------------------------------------------------------------

  /** See cache-search.ts: from memory once the index and listings are loaded. */
  search(text: string, page = 1, perPage = PAGE_SIZE): Promise<CacheSearchResult> {
    return this.searcher.search(text, page, perPage);
  }

  whenSearchesIdle(): Promise<void> {
    return this.rhythm.whenSearchesIdle();
  }

  get backgroundWritesMetBySearch(): number {
    return this.rhythm.backgroundWritesMetBySearch;
  }

  expectedSearchIn(): number | null {
    return this.rhythm.expectedSearchIn();
  }

  get typicalSearchPause(): number | null {
    return this.rhythm.typicalSearchPause;
  }

  nextSearchEnd(): Promise<void> {
    return this.rhythm.nextSearchEnd();
  }
}
