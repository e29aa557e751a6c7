/**
 * The till's local database (Dexie over IndexedDB): the durable source of truth for the
 * offline mode. Everything the service returned is cached here, and the outbox of work
 * done while offline survives reloads and restarts here.
 *
 * Schema choices, from measurements on 100,000 and 1,000,000 customers:
 * - customers are packed 16 to a record of `customerBlocks` (customer-blocks.ts), keyed by
 *   an integer `pk` that is also the document number of the in-memory search index
 *   (search-index.ts). A record per customer cost an IndexedDB request per customer, most
 *   of a fill's time; version 6 moves them. The blocks' multi-entry index finds a customer
 *   by the service's id; it is not unique (version 7): writers keep one customer per id
 *   (customer-blocks.ts). There is deliberately no name-word, phone or phone-suffix index
 *   (version 8 dropped the phone index): the in-memory index serves those, and while it
 *   loads the packed search chunks do (customer-cache.ts). Every index entry costs a write
 *   (the phone index's was about a fifth of IndexedDB's work in a fill), and the name-word
 *   index made inserts several times slower and storage 3-4x larger.
 * - nothing in the hot path uses `.filter()`, which leaves Dexie's fast path.
 * - `searchChunks` repeats only what the in-memory index needs, 1,024 customers to a
 *   record (search-chunks.ts): the index loads from these, not from the full records.
 * - `listingChunks` repeats what the results list shows (name, phone, points), 128
 *   customers to a record (listings.ts): loaded into memory, it answers the cashier's
 *   searches without reading the blocks.
 * - `phoneDigests` holds a hash of each search chunk's phones (phone-digests.ts), keyed as
 *   the chunk: while the index loads, an exact phone reads those, not every chunk.
 *
 * Every customer write goes through customer-blocks.ts, in a transaction over
 * `customerTables(db)`, so the blocks, the search chunks, their digests and the listings
 * never differ.
 */
import { Dexie, type EntityTable } from 'dexie';
import type { BridgeError, Customer, Reward } from '../../../common/contract';
import { nameWordsOf } from '../search/fold';
import { BLOCK_BITS, packCustomerBlocks, searchFieldsOf, type CustomerBlock } from '../customers/customer-blocks';
import { linesOf, writeSearchLines, type SearchChunk } from '../search/search-chunks';
import { LISTING_BITS, ListingChanges, listingOf, type ListingChunk } from '../search/listings';
import { pagesInKeyOrder } from './pages-in-key-order';
import { phoneDigestOf, type PhoneDigest } from '../search/phone-digests';

export const DEFAULT_DB_NAME = 'loyalty-till-offline';

/** Ids of customers registered offline and not yet known to the service. */
export const LOCAL_ID_PREFIX = 'local-';

/** A customer as cached: the service's record plus what the till needs to find it. */
export interface CachedCustomer {
  /** Local integer key; absent until stored. */
  pk?: number;
  /** The service's uuid, or `local-...` for a customer registered offline and not yet replayed. */
  id: string;
  phoneE164: string;
  /** Distinct folded name words (fold.ts), for the search index and chunks. */
  nameWords: string[];
  /** The service's record, without `rewards` (those live in the rewards table). */
  customer: Customer;
  /** ISO time the service returned this record (or the till created it, for `localOnly`). */
  fetchedAt: string;
  /** True while the customer exists only on this till, waiting in the outbox. */
  localOnly?: boolean;
}

/** A reward as cached, keyed by its upper-cased code (the service matches codes case-insensitively). */
export interface CachedReward {
  code: string;
  customerId: string;
  /** The phone the code belongs to, where known; the offline check needs it. */
  phoneE164: string | null;
  reward: Reward;
  fetchedAt: string;
  /**
   * The customer's latest record no longer lists this reward as awaiting redemption:
   * it was redeemed or expired since it was cached, we cannot tell which.
   */
  noLongerListed?: boolean;
  /** The outbox item of a redemption queued for it on this till. */
  pendingOutboxSeq?: number;
}

export type OutboxState = 'pending' | 'failed' | 'conflict';

/**
 * One attempt of this till's that the service may have acted on without our hearing the
 * answer: the request was completely sent and no definite answer came back, or the page
 * went away before the answer (`localEnd` null). Times are milliseconds: on the service's
 * clock (null when it was unknown then), and on the main process's monotonic clock.
 */
export interface AttemptRecord {
  start: number | null;
  end: number | null;
  uncertaintyMs: number | null;
  localStart: number;
  /** Null while the attempt is in flight, or when the page went away before it ended. */
  localEnd: number | null;
}

/** What a conflict's reconciliation found, so that the words say what is known and no more. */
export interface Attribution {
  verdict:
    | 'outside_attempts' // redeemed at a time outside every unanswered attempt of this till
    | 'no_unanswered_attempt' // this till never sent a request the service could have acted on unheard
    | 'clock_unknown' // this till had unanswered attempts, but the service's clock was unknown
    | 'not_redeemed' // the service refused it, and does not show it redeemed (e.g. expired)
    | 'not_found'; // the service no longer finds this code for this phone
  redeemedAt: string | null;
  /** Service-clock ISO starts of this till's unanswered attempts. */
  attemptsAt: string[];
}

interface OutboxItemBase {
  seq?: number;
  state: OutboxState;
  queuedAt: string;
  /** This till's clock, for display; reconciliation uses `unanswered`. */
  firstAttemptAt: string | null;
  lastAttemptAt: string | null;
  attempts: number;
  /** Not before this time (back-off); null means at once. */
  nextAttemptAt: string | null;
  lastError: BridgeError | null;
  /** Plain words for the cashier: why it failed or conflicts. */
  note: string | null;
  /** Attempts the service may have acted on unheard, recorded before each request leaves. */
  unanswered?: AttemptRecord[];
  /** Transient failures in a row, for the back-off (a refused key is not one). */
  failures?: number;
}

export interface RedemptionItem extends OutboxItemBase {
  kind: 'redeem';
  code: string;
  phoneE164: string;
  branchId: string | null;
  orderReference: string | null;
  customerId: string;
  customerName: string;
  /** What the service said about the reward when a conflict was found, kept for review. */
  serviceReward: Reward | null;
  /** What reconciliation found, for a conflict. */
  attribution?: Attribution;
}

export interface RegistrationItem extends OutboxItemBase {
  kind: 'register';
  name: string;
  phoneE164: string;
  email: string | null;
  birthday: string | null;
  /** The local customer row made usable at once; replaced by the service's record on replay. */
  customerPk: number;
  localCustomerId: string;
}

export type OutboxItem = RedemptionItem | RegistrationItem;

export type JournalOutcome =
  | 'redeemed' // the service confirmed the redemption
  | 'redeemed_answer_lost' // 422 on replay, redeemed during one of our unanswered attempts: most likely ours
  | 'registered'
  | 'conflict_acknowledged' // used elsewhere while we were offline; a person reviewed it
  | 'failure_acknowledged'; // refused by the service; a person reviewed it

/** Everything that left the outbox, for the record and the CSV export. */
export interface JournalEntry {
  seq?: number;
  outboxSeq: number;
  kind: OutboxItem['kind'];
  doneAt: string;
  outcome: JournalOutcome;
  code: string | null;
  customerId: string | null;
  customerName: string;
  phoneE164: string;
  orderReference: string | null;
  branchId: string | null;
  queuedAt: string;
  firstAttemptAt: string | null;
  note: string | null;
  /** The outcome's time on the service's clock (ISO), where it was known. */
  serviceAt?: string | null;
  /** For `redeemed_answer_lost`: the start of the unanswered attempt it was redeemed during (service clock). */
  attemptAt?: string | null;
}

/** Resumable state of the background refresh (cache-refresh.ts). */
export interface RefreshCursor {
  startedAt: string;
  perPage: number;
  lastPage: number;
  total: number;
  /** Every page up to and including this one is stored. */
  pagesDone: number;
}

/** The entity tag the service sent with a page of the whole list, stored with that page's customers. */
export interface PageTag {
  page: number;
  perPage: number;
  /** The service's entity tag, when it sends one. */
  etag?: string;
  /**
   * A hash of the page's customers as stored (page-hash.ts): against a service without
   * entity tags, an unchanged page is recognised without reading its stored customers.
   */
  contentHash?: string;
  /** Customers on the page the till could not read (left out and counted, docs/service-reading.md). */
  skipped?: number;
}

export interface MetaValues {
  /** The pk the next new customer gets (customer-blocks.ts): pks are never reused. */
  nextCustomerPk: number;
  refreshCursor: RefreshCursor;
  /** `unreadable`: customers listed that the till could not read (absent in records written before it was counted). */
  lastCompleteRefresh: { at: string; total: number; unreadable?: number };
  /** The replay is stopped until a person acts (a rejected key). */
  replayPause: { reason: 'unauthorized'; since: string; message: string };
}

export type MetaKey = keyof MetaValues;

export interface MetaRow<K extends MetaKey = MetaKey> {
  key: K;
  value: MetaValues[K];
}

export type OfflineDb = Dexie & {
  customerBlocks: EntityTable<CustomerBlock, 'block'>;
  rewards: EntityTable<CachedReward, 'code'>;
  outbox: EntityTable<OutboxItem, 'seq'>;
  journal: EntityTable<JournalEntry, 'seq'>;
  meta: EntityTable<MetaRow, 'key'>;
  searchChunks: EntityTable<SearchChunk, 'chunk'>;
  listingChunks: EntityTable<ListingChunk, 'chunk'>;
  phoneDigests: EntityTable<PhoneDigest, 'chunk'>;
  pageTags: EntityTable<PageTag, 'page'>;
};

/**
 * The app reads its database when it needs to and never uses Dexie's live queries, so it
 * turns off the two middlewares that serve them on every write: the cache of query results,
 * which follows each read-write transaction to its end, and the observability middleware,
 * which records every key and index key a write touches and, at each commit, announces them
 * to the page and posts them on a BroadcastChannel for other tabs. A fill writes two index
 * keys a customer, hundreds a transaction: in the bench that bookkeeping was about a tenth
 * of the page's processor time during a fill (docs/benchmark.md).
 */
function withoutLiveQueries(db: OfflineDb): OfflineDb {
  db.unuse({ stack: 'dbcore', name: 'Observability' });
  db.unuse({ stack: 'dbcore', name: 'Cache' });
  return db;
}

/**
 * Opens (creating or upgrading) the till's database.
 *
 * Migrations: never edit a released version's `stores()`; add a version. Dexie keeps
 * unchanged tables, so a new version lists only what changes, and `upgrade` rewrites
 * existing rows inside the upgrade transaction.
 */
export function openOfflineDb(name: string = DEFAULT_DB_NAME): OfflineDb {
  const db = withoutLiveQueries(new Dexie(name, { cache: 'disabled' }) as OfflineDb);
  db.version(1).stores({
    customers: '++pk, &id, phoneE164, *nameWords',
    rewards: '&code, customerId',
    outbox: '++seq, state',
    journal: '++seq, doneAt',
    meta: '&key',
  });
  // Version 2: the packed search chunks the index loads from, filled from existing customers;
  // the outbox gains [state+seq], so the replayer reads "the next pending item" by index.
  db.version(2)
    .stores({ searchChunks: 'chunk', outbox: '++seq, state, [state+seq]' })
    .upgrade(async (tx) => {
      const rows = await tx.table<CachedCustomer, number>('customers').toArray();
      await writeSearchLines(tx.table('searchChunks') as EntityTable<SearchChunk, 'chunk'>, rows.map(searchFieldsOf));
    });
  // Version 3: folding learnt Arabic (alef wasla, alef maqsura, ta marbuta, tatweel), so the
  // stored name words are folded again; only rows whose words change are rewritten.
  db.version(3)
    .stores({})
    .upgrade(async (tx) => {
      const changed: CachedCustomer[] = [];
      await tx
        .table<CachedCustomer, number>('customers')
        .toCollection()
        .modify((row) => {
          const words = nameWordsOf(row.customer.name);
          if (words.join(' ') === row.nameWords.join(' ')) return;
          row.nameWords = words;
          changed.push(row);
        });
      if (changed.length > 0) {
        await writeSearchLines(
          tx.table('searchChunks') as EntityTable<SearchChunk, 'chunk'>,
          changed.map(searchFieldsOf),
        );
      }
    });
  // Version 4: the entity tags of the refresh's pages, so an unchanged page costs a 304
  // and no write. Nothing to fill: a till without tags asks unconditionally once.
  db.version(4).stores({ pageTags: 'page' });
  // Version 5: no multi-entry name-word index (it cost most of a customer's write; the
  // in-memory index and, while it loads, the search chunks serve names). The name search
  // while the index loads now reads the search chunks, so the upgrade makes sure every
  // customer has its line there, adding any that is missing.
  db.version(5)
    .stores({ customers: '++pk, &id, phoneE164' })
    .upgrade(async (tx) => {
      const chunks = tx.table('searchChunks') as EntityTable<SearchChunk, 'chunk'>;
      const listed = new Set<number>();
      await chunks.each((chunk) => {
        for (const line of linesOf(chunk)) listed.add(Number(line.slice(0, line.indexOf(' '))));
      });
      const customers = tx.table<CachedCustomer, number>('customers');
      const allPks = (await customers.toCollection().primaryKeys()) as number[];
      const missing = allPks.filter((pk) => !listed.delete(pk));
      // What is left in `listed` is a line of no customer.
      const stale = [...listed];
      if (missing.length === 0 && stale.length === 0) return;
      const rows = (await customers.bulkGet(missing)).filter((row): row is CachedCustomer => row !== undefined);
      await writeSearchLines(chunks, rows.map(searchFieldsOf), stale);
    });
  // Version 6: customers packed 16 to a record (customer-blocks.ts): a fill's writes cost a
  // request per block, not per customer. The rows move in pk order, a few thousand at a
  // time so that a large cache is never all in memory; the search chunks stay as they are.
  db.version(6)
    .stores({ customers: null, customerBlocks: 'block, &*ids, *phones' })
    .upgrade(async (tx) => {
      const customers = tx.table<CachedCustomer, number>('customers');
      const blocks = tx.table<CustomerBlock, number>('customerBlocks');
      // The old key generator's next value, so that no pk is ever given twice.
      const nextPk = await customers.add({
        id: '\u0000next-pk',
        phoneE164: '',
        nameWords: [],
        customer: {} as Customer,
        fetchedAt: '',
      });
      const step = 256 << BLOCK_BITS;
      for (let from = 0; from < nextPk; from += step) {
        const rows = await customers
          .where(':id')
          .between(from, Math.min(from + step, nextPk))
          .toArray();
        if (rows.length > 0) await blocks.bulkAdd(packCustomerBlocks(rows));
      }
      await tx.table<MetaRow, MetaKey>('meta').put({ key: 'nextCustomerPk', value: nextPk });
    });
  // Version 7: the id index is no longer unique. IndexedDB read the index before adding each
  // entry to check it, which cost about 30% of a customer's write at a million; a fill now
  // learns which of its customers are stored from memory (stored-ids.ts). The index is
  // built again from the blocks as they are; nothing else changes.
  db.version(7).stores({ customerBlocks: 'block, *ids, *phones' });
  // Version 8: no phone index. The in-memory index answers an exact phone, and while it
  // loads the search chunks do; the index cost IndexedDB about a fifth of a fill's writing
  // (docs/benchmark.md). Blocks written before keep a `phones` field nothing reads, until
  // they are next written.
  db.version(8).stores({ customerBlocks: 'block, *ids' });
  // Version 9: the listings the results list shows, kept in memory to answer the cashier's
  // searches (listings.ts), built from every stored customer, and the digests of the
  // search chunks' phones (phone-digests.ts), built from every chunk. Both are read a range
  // at a time, so that a large cache is never all in memory.
  db.version(9)
    .stores({ listingChunks: 'chunk', phoneDigests: 'chunk' })
    .upgrade(async (tx) => {
      const chunks = tx.table<SearchChunk, number>('searchChunks');
      const digests = tx.table<PhoneDigest, number>('phoneDigests');
      for await (const page of pagesInKeyOrder(chunks, 64, (chunk) => chunk.chunk)) {
        await digests.bulkAdd(page.map(phoneDigestOf));
      }
      const blocks = tx.table<CustomerBlock, number>('customerBlocks');
      const listings = tx.table<ListingChunk, number>('listingChunks');
      const last = await blocks.toCollection().last();
      if (!last) return;
      // Blocks (of 1 << BLOCK_BITS pks) covering 16 listing chunks: no chunk is split between two reads.
      const step = 16 << (LISTING_BITS - BLOCK_BITS);
      for (let from = 0; from <= last.block; from += step) {
        const rows = (
          await blocks
            .where(':id')
            .between(from, from + step)
            .toArray()
        ).flatMap((block) => block.pks.map((pk, i) => ({ ...(JSON.parse(block.rows[i]!) as CachedCustomer), pk })));
        const changes = new ListingChanges(rows.map(listingOf));
        const { toPut } = changes.apply([]);
        if (toPut.length > 0) await listings.bulkAdd(toPut);
      }
    });
  return db;
}

export async function readMeta<K extends MetaKey>(db: OfflineDb, key: K): Promise<MetaValues[K] | undefined> {
  const row = (await db.meta.get(key)) as MetaRow<K> | undefined;
  return row?.value;
}

export async function writeMeta<K extends MetaKey>(db: OfflineDb, key: K, value: MetaValues[K]): Promise<void> {
  await db.meta.put({ key, value } as MetaRow);
}

export async function clearMeta(db: OfflineDb, key: MetaKey): Promise<void> {
  await db.meta.delete(key);
}

/** Reward codes are matched case-insensitively by the service; the cache keys on upper case. */
export function rewardKey(code: string): string {
  return code.trim().toUpperCase();
}
