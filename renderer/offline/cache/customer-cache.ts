/**
 * The cache's front: the customers and their rewards as the service returned them, and the
 * search over them. Customers are written through here (customers/write-through.ts, with the
 * time each was fetched) and their rewards beside them (rewards/reward-cache.ts); the copies
 * in memory (the search index, the listings, the card serials) follow what commits, and are
 * loaded here at start. Offline search (customers/cache-search.ts) and the cashier's rhythm
 * that background writes make way for (pacing/search-rhythm.ts) are its parts.
 */
import type { Customer, Program, Redemption, Reward } from '../../../common/contract';
import { customerTables } from '../customers/customer-blocks';
import { findCustomerById, firstCustomers, getCustomerRow, getCustomerRows } from '../customers/customer-reads';
import { CacheSearch, PAGE_SIZE, type CacheSearchResult } from '../customers/cache-search';
import type { Change, PartedWriteOptions, PartsPlannedAhead } from '../customers/new-customer-writes';
import type { WriteOptions } from '../customers/customer-writes';
import { PreparedCustomers } from '../customers/prepared-customers';
import { SerialIndex } from '../customers/serial-index';
import { WriteThrough, type Alongside } from '../customers/write-through';
import { RewardCache } from '../rewards/reward-cache';
import { SearchRhythm } from '../pacing/search-rhythm';
import type { CachedCustomer, CachedReward, OfflineDb } from '../db/schema';
import { yieldToBrowser, type IndexLoadOptions, type IndexLoadProgress } from '../search/index-loader';
import { IndexMemory } from '../search/index-memory';
import { ListingMemory } from '../search/listing-memory';
import type { SlimSearchIndex } from '../search/search-index';

// Its parts' names, as the rest of the offline core has long imported them from here.
export { MAX_RESULTS, PAGE_SIZE, type CacheSearchResult } from '../customers/cache-search';
export { PreparedCustomers, prepareCustomers } from '../customers/prepared-customers';
export { WriteInterrupted } from '../customers/write-through';
export type { PartedWriteOptions } from '../customers/new-customer-writes';
export type { WriteOptions } from '../customers/customer-writes';

export interface CachedCustomerWithRewards {
  record: CachedCustomer;
  /** Rewards the service last listed as awaiting redemption, plus any pending here. */
  rewards: CachedReward[];
}

export interface CustomerCacheOptions {
  now?: () => Date;
  defaultCountry: () => string;
}

/** How `loadIndex` loads: the index's options, and who to tell once the listings are loaded too. */
export type CacheLoadOptions = Omit<IndexLoadOptions, 'skip'> & { onListingsLoaded?: () => void };

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
  /** Customers written through, in transactions a search may roll back. */
  private readonly writes: WriteThrough;
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
    this.writes = new WriteThrough(db, this.rhythm);
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
   * Starts (once) loading the in-memory index, then the listings, then the card serials, in
   * the background; resolves once all three are loaded. Searches use the index from the moment
   * it is ready, and read the customers they show from the blocks until the listings are
   * (`onListingsLoaded` says when: from then a search reads nothing from IndexedDB); a scanned
   * card is found by its serial from memory once the serials are. The index first because it
   * is what makes a search fast (the listings only spare it reading one page of customers), and
   * one after the other because side by side each slowed the other: in the bench at 100,000
   * customers, side by side both were ready 1.36-1.45 s after the page loaded; in turn the
   * index was at 0.93 s and the listings at 1.39-1.47 s.
   */
  loadIndex(options: CacheLoadOptions = {}): Promise<IndexLoadProgress> {
    if (!this.loading) {
      const { onListingsLoaded, ...indexOptions } = options;
      const yieldToPage = indexOptions.yieldToPage ?? yieldToBrowser;
      const yieldToSearches = async () => {
        await yieldToPage();
        await this.whenSearchesIdle();
      };
      const index = this.indexMemory.load(this.db, { ...indexOptions, yieldToPage: yieldToSearches });
      this.loading = index.then(async (progress) => {
        await this.listings.load(this.db, { yieldToPage: yieldToSearches });
        onListingsLoaded?.();
        await this.serials.load({ yieldToPage: yieldToSearches });
        return progress;
      });
    }
    return this.loading;
  }

  // ---------------------------------------------------------------------------------
  // Write-through (customers/write-through.ts)
  // ---------------------------------------------------------------------------------

  /** See write-through.ts: customers as the service returned them, `alongside` in the same transaction. */
  putCustomers(
    customers: readonly Customer[] | PreparedCustomers,
    fetchedAt = this.now().toISOString(),
    alongside?: Alongside,
    options: WriteOptions = {},
  ): Promise<CachedCustomer[]> {
    return this.writes.putCustomers(customers, fetchedAt, alongside, options);
  }

  /** See new-customer-writes.ts: a fill's new customers in one transaction that grows part by part. */
  putNewCustomersWhile(
    customers: PreparedCustomers,
    fetchedAt: string,
    options: PartedWriteOptions,
  ): Promise<number | null> {
    return this.writes.newCustomers.putWhile(customers, fetchedAt, options);
  }

  /** See new-customer-writes.ts: `putNewCustomersWhile`'s parts planned and sealed before its transaction opens. */
  sealNewCustomersAhead(customers: PreparedCustomers, fetchedAt: string): Promise<PartsPlannedAhead | null> {
    return this.writes.newCustomers.sealAhead(customers, fetchedAt);
  }

  /** Writes of new customers sent without reading what they merge with first. */
  get writesSentWithoutReading(): number {
    return this.writes.newCustomers.sentWithoutReading;
  }

  /** See write-through.ts: `putCustomers`'s writes inside a caller's transaction over `customerTables`. */
  writeCustomers(customers: readonly Customer[], fetchedAt: string, options: WriteOptions = {}): Promise<Change[]> {
    return this.writes.writeCustomers(customers, fetchedAt, options);
  }

  // ---------------------------------------------------------------------------------
  // Their rewards (rewards/reward-cache.ts)
  // ---------------------------------------------------------------------------------

  /** Stores one customer from `GET /v1/customers/{id}`, with the rewards awaiting redemption. */
  async putCustomerWithRewards(
    customer: Customer,
    fetchedAt = this.now().toISOString(),
  ): Promise<CachedCustomerWithRewards> {
    return this.db.transaction('rw', [...customerTables(this.db), this.db.rewards], async () => {
      const changes = await this.writeCustomers([customer], fetchedAt);
      const record = changes[0]!.row;
      await this.rewards.putListed(
        customer.id,
        customer.rewards ?? [],
        { phoneE164: record.phoneE164, name: record.customer.name },
        fetchedAt,
      );
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

  /**
   * The cashier's own write (a redemption queued offline): no background write begins until it
   * is done, and one still reading is rolled back (pacing/search-rhythm.ts `hold`), so "Queued"
   * waits for at most the one write already sending.
   */
  asCashier<T>(work: () => Promise<T>): Promise<T> {
    return this.rhythm.hold(work);
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
