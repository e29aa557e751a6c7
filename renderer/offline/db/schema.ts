/**
 * The till's local database (Dexie over IndexedDB), its records and tables: the durable
 * source of truth for the offline mode. Everything the service returned is cached here, and the outbox of work
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
 * - `phoneDigests` holds a keyed digest of each search chunk's phones (phone-digests.ts), keyed
 *   as the chunk: while the index loads, an exact phone reads those, not every chunk.
 * - everything personal is sealed at rest under the till's data key by one middleware
 *   (sealed-tables.ts; what stays readable: table-seals.ts).
 *
 * Every customer write goes through customer-blocks.ts, in a transaction over
 * `customerTables(db)`, so the blocks, the search chunks, their digests and the listings
 * never differ.
 *
 * This module is the bottom of the offline core: the records, the tables and two small
 * pure helpers. It imports nothing of the offline core; its one runtime import is the
 * reward code's spelling from common/, which the main process shares. Opening the database
 * is open.ts, each version's changes a file of migrations/, the meta rows' helpers meta.ts.
 */
import type { Dexie, EntityTable } from 'dexie';
import type { BridgeError, Customer, Program, Reward } from '../../../common/contract';
import type { DetailsRemoved } from '../../../common/journal-retention';
import type { Attribution, JournalOutcome, OutboxNote, OutboxState, StoredNote } from '../../vocabulary/outbox';

// The outbox's and the journal's codes are the renderer's shared vocabulary (vocabulary/outbox.ts).
export type { Attribution, JournalOutcome, OutboxNote, OutboxState, StoredNote };

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
  /**
   * The owner's name as the cache last knew it (absent on rows of earlier versions): with the
   * phone, a redemption queued offline needs nothing of the customer tables, which a fill may
   * be writing, so "Queued" never waits for the fill.
   */
  ownerName?: string;
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

interface OutboxItemBase {
  seq?: number;
  /**
   * The item's own id, the same in the page's database and in the main process's copy
   * (docs/offline.md, "Two copies of the queue"); `seq` is not: a new database renumbers.
   */
  uid: string;
  /** When the item was put back from the main process's copy, the page's database having lost it. */
  restoredAt?: string;
  state: OutboxState;
  queuedAt: string;
  /** This till's clock, for display; reconciliation uses `unanswered`. */
  firstAttemptAt: string | null;
  lastAttemptAt: string | null;
  attempts: number;
  /** Not before this time (back-off); null means at once. */
  nextAttemptAt: string | null;
  lastError: BridgeError | null;
  /** Why it failed or conflicts, as a code (`OutboxNote`); words in rows of earlier versions. */
  note: StoredNote;
  /** Attempts the service may have acted on unheard, recorded before each request leaves. */
  unanswered?: AttemptRecord[];
  /** Transient failures in a row, for the back-off (a refused key is not one). */
  failures?: number;
  /**
   * Who was at the till when it was done (a POS link's `cashier`, or the name chosen on the
   * till); null when nobody was named. Absent on items queued by earlier versions.
   */
  cashier?: string | null;
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
  /** The reward's name and the points it costs, as the till knew them (for the shift report). */
  rewardName?: string | null;
  points?: number | null;
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

/**
 * Everything that left the outbox, and every redemption, registration and correction the
 * service answered at once: the till's record of who did what, for the CSV export and the
 * shift report. `outboxSeq` is null for work the service answered at once (it never waited).
 */
export interface JournalEntry {
  seq?: number;
  /** The entry's own id, the same in both copies (see `OutboxItemBase.uid`). */
  uid: string;
  /**
   * The outbox item whose leaving this entry records (its `uid`): every item that leaves the
   * outbox leaves one, so "left" can be told from "lost". Null for work that never waited there.
   */
  outboxUid: string | null;
  /**
   * Its personal details were removed after `journalPersonalDays` (common/journal-retention.ts):
   * when, and after how many days; absent while it keeps them.
   */
  detailsRemoved?: DetailsRemoved;
  outboxSeq: number | null;
  kind: OutboxItem['kind'] | 'correct';
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
  /** What the outcome adds, as a code (`OutboxNote`); words in entries of earlier versions. */
  note: StoredNote;
  /** The outcome's time on the service's clock (ISO), where it was known. */
  serviceAt?: string | null;
  /** For `redeemed_answer_lost`: the start of the unanswered attempt it was redeemed during (service clock). */
  attemptAt?: string | null;
  /** Who was at the till (see `OutboxItemBase.cashier`); absent in entries of earlier versions. */
  cashier?: string | null;
  /** For a redemption: the reward's name and the points it cost, where known. */
  rewardName?: string | null;
  points?: number | null;
  /** For `refused_elsewhere`: the till of the shop that held the reward, and when it claimed it. */
  heldBy?: { till: string; at: string } | null;
  /** For `restored`: the item put back in the outbox (its `uid`). */
  restoredUid?: string;
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
  /**
   * The replay is stopped until a person acts (a rejected key). Worded from `reason` when
   * shown (lib/outbox-words.ts `replayPauseWords`); `message`: the English words older versions stored.
   */
  replayPause: { reason: 'unauthorized'; since: string; message?: string };
  /**
   * Tells the data key this database is sealed under from any other (the keyring's `check`, a
   * keyed digest of a fixed label), in clear: db/key-at-open.ts compares it at every opening.
   */
  keyCheck: { check: string; at: string };
  /**
   * How far the first start's sealing pass (sealing-pass.ts) is through what an earlier version
   * stored in clear: `done` once every record is sealed; until then the table it works on and the
   * last key it sealed there, so that it goes on from there after a restart.
   */
  sealingPass: { done: true; at: string } | { done: false; table: string; after: number | null; sealed: number };
}

/** The meta rows of the sealing itself: a database holding only these holds nothing of the till's. */
export const SEALING_META_KEYS = ['keyCheck', 'sealingPass'] as const satisfies readonly MetaKey[];

export type MetaKey = keyof MetaValues;

export interface MetaRow<K extends MetaKey = MetaKey> {
  key: K;
  value: MetaValues[K];
}

/** One record of `customerBlocks`: its customers in pk order, the arrays in step. */
export interface CustomerBlock {
  block: number;
  pks: number[];
  /** The service's ids (or `local-…`), for the multi-entry id index. */
  ids: string[];
  /** Each customer as JSON: a `CachedCustomer` without its `pk`. */
  rows: string[];
}

export interface SearchChunk {
  chunk: number;
  /** Lines sorted by pk, separated by `\n`. */
  lines: string;
}

/** One record of `listingChunks`. */
export interface ListingChunk {
  chunk: number;
  /** Slot i's listing is `lines[offsets[i], offsets[i + 1])`: empty when no customer has that pk. */
  offsets: Uint32Array;
  /** The listings' UTF-8 JSON, back to back in slot order. */
  lines: Uint8Array;
  /** The programmes the listings' cards name, by index. */
  programmes: Program[];
}

export interface PhoneDigest {
  /** The search chunk's key. */
  chunk: number;
  /** Each line's keyed digest of its phone's digits (0 for none): phone-digests.ts. */
  hashes: Uint32Array;
  /**
   * The digests are keyed (HMAC under the data key's lookup key). Absent on digests written
   * before sealing, unkeyed 32-bit hashes that anyone could compute for every phone number: the
   * sealing pass rewrites them.
   */
  keyed?: true;
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

/** Reward codes are matched case-insensitively by the service; the cache keys on upper case. */
export { rewardKey } from '../../../common/reward-key';
