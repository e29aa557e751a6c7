/**
 * Where cached customers live: packed BLOCK_SIZE to a record of the `customerBlocks` table
 * (block = pk >> BLOCK_BITS), each customer as its JSON. This module writes them; reading
 * them is customer-reads.ts's, which never writes and follows the layout kept here (`blockOf`,
 * `rowAt`).
 *
 * Why packed: in Chromium every IndexedDB request costs 0.15-0.35 ms whatever it holds, so
 * one record per customer made a fill of 100,000 cost 100,000 requests, and kept the
 * cashier's reads queued behind long write transactions. A block of 16 costs one request;
 * its multi-entry id index (`*ids`) still finds a customer by the service's id in one
 * request. Phones have no index here (version 8, db/migrations/v8-no-phone-index.ts): the
 * in-memory index and, while it loads, the search chunks answer them (cache-search.ts). A
 * page of search results is shown from the listings in memory (listings.ts), not read from
 * here, once they have loaded; until then it costs a block read each (20 blocks, about
 * 200 KB, for a page).
 *
 * Keys: `pk` is allocated here from `meta.nextCustomerPk` and never reused, so a pk an
 * outbox item or the in-memory index holds never comes to mean another customer. A fill's
 * customers get consecutive pks, so its blocks are new records written without a read.
 *
 * Every write goes through this module, inside a transaction over `customerTables(db)`,
 * and also updates the search chunks (with their phone digests, phone-digests.ts) and the
 * listings (listings.ts): they never differ, and the listings in memory take what a write
 * stored once it has committed. These are async functions:
 * call them from an `async` transaction callback (Dexie follows native awaits only there).
 *
 * One customer per id: the id index is not unique (its uniqueness cost about 30% of a
 * write at a million, stored-ids.ts), so keeping ids unique is the writers' part. Every
 * writer looks a customer up by id before it stores them as new, except a fill's writes of
 * new customers, which ask `StoredIds` instead; every write notes its ids there.
 */
import type { Table } from 'dexie';
import type { CachedCustomer, CustomerBlock, ListingChunk, OfflineDb, SearchChunk } from '../db/schema';
import { chunkOf, SearchLineChanges, type SearchFields } from '../search/search-chunks';
import { phoneDigestOf } from '../search/phone-digests';
import {
  listingChunkOf,
  ListingChanges,
  listingOf,
  sameListing,
  sameListingChunk,
  type ListingChunkWrites,
} from '../search/listings';
import { feedOf, type CustomerChange } from '../db/customer-feed';
import type { SealedAhead } from '../db/sealed-tables';
import { PendingChunkWrites } from '../search/chunk-changes';
import { cachedRecord, holdsUncached } from './prepared-customers';

export const BLOCK_BITS = 4;
export const BLOCK_SIZE = 1 << BLOCK_BITS;

export function blockOf(pk: number): number {
  return pk >> BLOCK_BITS;
}

/** A row as a block stores it: without its pk, and its customer without what the cache does not keep. */
function rowJson(row: CachedCustomer): string {
  const { pk: _pk, ...stored } = row;
  // Prepared customers come without those fields already; a local or restored one may not.
  if (holdsUncached(stored.customer)) stored.customer = cachedRecord(stored.customer);
  return JSON.stringify(stored);
}

/** The customer at `index` of a block, with its pk (how every read parses a stored row, customer-reads.ts). */
export function rowAt(block: CustomerBlock, index: number): CachedCustomer {
  return { ...(JSON.parse(block.rows[index]!) as CachedCustomer), pk: block.pks[index]! };
}

// ---------------------------------------------------------------------------------
// Writes: inside a transaction over customerTables(db)
// ---------------------------------------------------------------------------------

/** A write would store a second customer with an id its block holds already (under another pk). */
export class CustomerIdTaken extends Error {
  constructor() {
    super('A customer with this id is stored already.');
    this.name = 'CustomerIdTaken';
  }
}

/**
 * What a write merges with: the pk counter, and the blocks, search chunks and listing
 * chunks its customers may share with stored ones. The new pks come after every stored
 * one, so the only stored record of each they can share is the last one; those of the
 * stored pks being rewritten are read by key. One round trip, whatever the number of
 * customers.
 */
export interface WriteContext {
  nextPk: number;
  blocks: Map<number, CustomerBlock>;
  chunks: Map<number, SearchChunk>;
  listings: Map<number, ListingChunk>;
}

export async function readWriteContext(db: OfflineDb, storedPks: readonly number[] = []): Promise<WriteContext> {
  const blockIds = [...new Set(storedPks.map(blockOf))];
  const chunkIds = [...new Set(storedPks.map(chunkOf))];
  const listingIds = [...new Set(storedPks.map(listingChunkOf))];
  const [counter, lastBlock, lastChunk, lastListings, blocks, chunks, listings] = await Promise.all([
    db.meta.get('nextCustomerPk'),
    db.customerBlocks.toCollection().last(),
    db.searchChunks.toCollection().last(),
    db.listingChunks.toCollection().last(),
    db.customerBlocks.bulkGet(blockIds),
    db.searchChunks.bulkGet(chunkIds),
    db.listingChunks.bulkGet(listingIds),
  ]);
  const context: WriteContext = {
    nextPk: typeof counter?.value === 'number' ? counter.value : 1,
    blocks: new Map(),
    chunks: new Map(),
    listings: new Map(),
  };
  for (const block of [lastBlock, ...blocks]) if (block) context.blocks.set(block.block, block);
  for (const chunk of [lastChunk, ...chunks]) if (chunk) context.chunks.set(chunk.chunk, chunk);
  for (const chunk of [lastListings, ...listings]) if (chunk) context.listings.set(chunk.chunk, chunk);
  return context;
}

/**
 * Stores customer rows: those with a `pk` replace the customer stored under it, the others
 * get new pks. Returns the pks, in order. `previous` (same order, null for new rows) spares
 * rewriting search lines that did not change: most write-through is a customer fetched
 * again as they were. A row without a pk must be a customer not stored (see the module's
 * note on ids); another customer with the same id in the same block fails the write with
 * `CustomerIdTaken`, which aborts the caller's transaction.
 *
 * Two round trips to IndexedDB whatever the number of customers (`readWriteContext`, then
 * the writes, in flight together): a transaction's requests run in order anyway, and
 * waiting for each in turn made a short transaction's fixed cost several times its
 * customers'.
 */
export async function putCustomerRows(
  db: OfflineDb,
  rows: readonly CachedCustomer[],
  previous: readonly (CachedCustomer | null)[] = [],
): Promise<number[]> {
  if (rows.length === 0) return [];
  const storedPks = rows.flatMap((row) => (row.pk === undefined ? [] : [row.pk]));
  return writeCustomerRows(db, await readWriteContext(db, storedPks), rows, previous);
}

/** `putCustomerRows` with its context read already (in the same transaction, just before). */
export async function writeCustomerRows(
  db: OfflineDb,
  context: WriteContext,
  rows: readonly CachedCustomer[],
  previous: readonly (CachedCustomer | null)[] = [],
): Promise<number[]> {
  if (rows.length === 0) return [];
  const plan = planCustomerWrite(context, rows, previous);
  await sendCustomerWrite(db, plan);
  // What was written is what the transaction now holds: a later write in it must merge with that.
  applyToContext(context, plan);
  return plan.pks;
}

/** What a write of customer rows stores, worked out from its context before anything is sent. */
export interface CustomerWritePlan {
  /** The rows' pks, in order (new rows' allocated from the counter). */
  pks: number[];
  /** The counter after the write, or null when the write allocates no pk. */
  nextPk: number | null;
  records: CustomerBlock[];
  chunks: { toPut: SearchChunk[]; toDelete: number[] };
  listings: ListingChunkWrites;
  /** What the write changes, as the feed tells it once committed (db/customer-feed.ts). */
  changes: CustomerChange[];
}

/**
 * The records a write of `rows` stores, merged with the blocks and chunks of `context`
 * (see `putCustomerRows` for `previous`). Sends nothing: a writer may plan before its
 * transaction opens. A second customer with an id stored in the same block throws
 * `CustomerIdTaken`.
 */
export function planCustomerWrite(
  context: WriteContext,
  rows: readonly CachedCustomer[],
  previous: readonly (CachedCustomer | null)[] = [],
): CustomerWritePlan {
  let nextNew = context.nextPk;
  const stored = rows.map((row) => (row.pk === undefined ? { ...row, pk: nextNew++ } : row));

  const byPk = new Map<number, Entry>();
  const touched = new Set(stored.map((row) => blockOf(row.pk!)));
  for (const id of touched) {
    const block = context.blocks.get(id);
    if (block) block.pks.forEach((pk, j) => byPk.set(pk, [pk, block.ids[j]!, block.rows[j]!]));
  }
  for (const row of stored) byPk.set(row.pk!, entryOf(row));
  const records = packEntries(byPk.values());
  // What costs nothing to check: ids within one record.
  for (const record of records) {
    if (new Set(record.ids).size !== record.ids.length) throw new CustomerIdTaken();
  }
  const lines = new SearchLineChanges(
    stored
      .filter((row, i) => {
        const before = previous[i] ?? null;
        return !before || before.pk !== row.pk || !sameSearchFields(before, row);
      })
      .map(searchFieldsOf),
  );
  const chunks = lines.apply(lines.chunkIds.map((id) => context.chunks.get(id)));
  const listingChanges = new ListingChanges(
    stored.flatMap((row, i) => {
      const listing = listingOf(row);
      const before = previous[i] ?? null;
      return before && before.pk === row.pk && sameListing(listingOf(before), listing) ? [] : [listing];
    }),
  );
  const listings = listingChanges.apply(listingChanges.chunkIds.map((id) => context.listings.get(id)));
  return {
    pks: stored.map((row) => row.pk!),
    nextPk: nextNew > context.nextPk ? nextNew : null,
    records,
    chunks,
    listings,
    changes: stored.map((row, i) => ({ row, previous: previous[i] ?? null })),
  };
}

/**
 * Sends a planned write's requests, all in flight together: one round trip. The feed tells
 * the copies in memory what it changed once its transaction commits (db/customer-feed.ts).
 */
export async function sendCustomerWrite(db: OfflineDb, plan: CustomerWritePlan): Promise<void> {
  const sent = Promise.all([
    sendBlocks(db, plan.records),
    sendChunksAndCounter(db, plan.chunks, plan.nextPk),
    sendListings(db, plan.listings),
  ]);
  await feedOf(db).record({ written: plan.changes, listings: listingsIn(plan.listings) }, sent);
}

/** Puts and deletes listing chunks; `stored`: the chunks put, some sealed ahead (`PartedWrite`). */
function sendListings(db: OfflineDb, writes: ListingChunkWrites, stored = writes.toPut): Promise<unknown> {
  return Promise.all([
    writes.toPut.length > 0 ? db.listingChunks.bulkPut(stored) : undefined,
    writes.toDelete.length > 0 ? db.listingChunks.bulkDelete(writes.toDelete) : undefined,
  ]);
}

/** The listing writes worth telling: none when nothing is put or deleted. */
function listingsIn(writes: ListingChunkWrites): ListingChunkWrites[] {
  return writes.toPut.length > 0 || writes.toDelete.length > 0 ? [writes] : [];
}

/** The stored ids hear of every id before it is sent (db/customer-feed.ts `sending`). */
function sendBlocks(db: OfflineDb, records: readonly CustomerBlock[]): Promise<unknown> {
  const feed = feedOf(db);
  for (const record of records) feed.sending(record.ids);
  return db.customerBlocks.bulkPut(records);
}

/** Puts and deletes search chunks with their phone digests, and moves the pk counter. */
function sendChunksAndCounter(
  db: OfflineDb,
  chunks: CustomerWritePlan['chunks'],
  nextPk: number | null,
  stored = chunks.toPut,
): Promise<unknown> {
  return Promise.all([
    nextPk !== null ? db.meta.put({ key: 'nextCustomerPk', value: nextPk }) : undefined,
    chunks.toPut.length > 0 ? db.searchChunks.bulkPut(stored) : undefined,
    chunks.toPut.length > 0
      ? db.phoneDigests.bulkPut(chunks.toPut.map((chunk) => phoneDigestOf(db, chunk)))
      : undefined,
    chunks.toDelete.length > 0 ? db.searchChunks.bulkDelete(chunks.toDelete) : undefined,
    chunks.toDelete.length > 0 ? db.phoneDigests.bulkDelete(chunks.toDelete) : undefined,
  ]);
}

/** A parted write's next part: its plan from `context`, and the context it leaves (`send`, and `sealAhead` ahead). */
export function planPart(context: WriteContext, rows: readonly CachedCustomer[]) {
  const plan = planCustomerWrite(context, rows);
  return { plan, after: contextAfter(context, plan) };
}

/**
 * A part planned from the context the part before it leaves, before the write's transaction
 * opens, with its blocks sealed already (db/sealed-tables.ts `sealAhead`): what `send` would
 * plan and seal at once, inside the transaction.
 */
export interface PartPlannedAhead {
  plan: CustomerWritePlan;
  /** The context once this part is written (`contextAfter`). */
  after: WriteContext;
  blocks: readonly SealedAhead<CustomerBlock>[];
  /** The plan's search chunks and listing chunks as this part leaves them, sealed: the finish sends the last part's. */
  chunks: readonly SealedAhead<SearchChunk>[];
  listings: readonly SealedAhead<ListingChunk>[];
}

/**
 * A write of new customers sent in parts within one transaction, each part planned from
 * what the ones before left (`contextAfter`): its blocks are sent as soon as it is planned;
 * the search chunks and the counter, which every part rewrites, once, when the writer
 * knows no part follows. A fill's transaction grows so, part by part, while the cashier's
 * pause lasts (new-customer-writes.ts `putWhile`). Parts of block-aligned sizes
 * (`partSizes`) write each block once.
 */
export class PartedWrite {
  private readonly chunks = new PendingChunkWrites<SearchChunk>((chunk) => chunk.chunk);
  private readonly listings = new PendingChunkWrites<ListingChunk>((chunk) => chunk.chunk);
  private nextPk: number | null = null;
  private readonly sent: Promise<unknown>[] = [];

  constructor(
    private readonly db: OfflineDb,
    /** What the next part merges with. */
    public context: WriteContext,
  ) {}

  /**
   * Plans the next part and sends its blocks; resolves once IndexedDB has written them. A
   * second customer with an id stored in the same block throws `CustomerIdTaken`, before
   * anything of this part is sent.
   */
  send(
    rows: readonly CachedCustomer[],
    ahead?: PartPlannedAhead,
  ): { plan: CustomerWritePlan; written: Promise<unknown> } {
    const { plan, after } = ahead ?? planPart(this.context, rows);
    this.chunks.add(plan.chunks, ahead?.chunks);
    this.listings.add(plan.listings, ahead?.listings);
    if (plan.nextPk !== null) this.nextPk = plan.nextPk;
    this.context = after;
    const written = feedOf(this.db).record(
      { written: plan.changes },
      sendBlocks(this.db, ahead?.blocks ?? plan.records),
    );
    this.sent.push(written);
    return { plan, written };
  }

  /** Sends the search chunks, the listings and the counter as the parts sent leave them; resolves when all is written. */
  finish(): Promise<unknown> {
    const listings = this.listings.writes;
    return Promise.all([
      ...this.sent,
      sendChunksAndCounter(this.db, this.chunks.writes, this.nextPk, this.chunks.stored),
      feedOf(this.db).record({ listings: listingsIn(listings) }, sendListings(this.db, listings, this.listings.stored)),
    ]);
  }
}

/**
 * The sizes of the parts `count` new customers are written in, the first pk being
 * `nextPk`: `part` customers each (a multiple of BLOCK_SIZE), the first cut so that every
 * part ends where a block does.
 */
export function partSizes(count: number, nextPk: number, part: number): number[] {
  const sizes: number[] = [];
  let size = part - (nextPk % BLOCK_SIZE);
  for (let left = count; left > 0; left -= size, size = part) sizes.push(Math.min(size, left));
  return sizes;
}

function applyToContext(context: WriteContext, plan: CustomerWritePlan): void {
  if (plan.nextPk !== null) context.nextPk = plan.nextPk;
  for (const record of plan.records) context.blocks.set(record.block, record);
  for (const chunk of plan.chunks.toPut) context.chunks.set(chunk.chunk, chunk);
  for (const id of plan.chunks.toDelete) context.chunks.delete(id);
  for (const chunk of plan.listings.toPut) context.listings.set(chunk.chunk, chunk);
  for (const id of plan.listings.toDelete) context.listings.delete(id);
}

// ---------------------------------------------------------------------------------
// Writing without reading first: a fill's next write, from what its last one left
// ---------------------------------------------------------------------------------

/**
 * What `readWriteContext` (with no stored pks) will find once `plan`, planned from
 * `context`, has committed: the counter, the last block, the last search chunk and the last
 * listing chunk, all that a write of new customers merges with. A fill keeps it, plans its
 * next write from it before that write's transaction opens, and sends it at once beside
 * `confirmWriteContext`.
 */
export function contextAfter(context: WriteContext, plan: CustomerWritePlan): WriteContext {
  const after: WriteContext = {
    nextPk: context.nextPk,
    blocks: new Map(context.blocks),
    chunks: new Map(context.chunks),
    listings: new Map(context.listings),
  };
  applyToContext(after, plan);
  const last = <T>(map: Map<number, T>) => {
    if (map.size === 0) return new Map<number, T>();
    const id = Math.max(...map.keys());
    return new Map([[id, map.get(id)!]]);
  };
  return {
    nextPk: after.nextPk,
    blocks: last(after.blocks),
    chunks: last(after.chunks),
    listings: last(after.listings),
  };
}

/**
 * Whether the stored counter, last block, last search chunk and last listing chunk are
 * still those of `kept` (from `contextAfter`). Call it first in the transaction, before
 * sending the writes planned from `kept`, which it reads ahead of (a transaction's requests
 * run in order); when it says no, something else wrote meanwhile, and the caller must abort
 * the transaction and write the usual way.
 */
export async function confirmWriteContext(db: OfflineDb, kept: WriteContext): Promise<boolean> {
  const [counter, lastBlock, lastChunk, lastListings] = await Promise.all([
    db.meta.get('nextCustomerPk'),
    db.customerBlocks.toCollection().last(),
    db.searchChunks.toCollection().last(),
    db.listingChunks.toCollection().last(),
  ]);
  const keptBlock = [...kept.blocks.values()][0];
  const keptChunk = [...kept.chunks.values()][0];
  return (
    (typeof counter?.value === 'number' ? counter.value : 1) === kept.nextPk &&
    sameBlock(lastBlock, keptBlock) &&
    lastChunk?.chunk === keptChunk?.chunk &&
    lastChunk?.lines === keptChunk?.lines &&
    sameListingChunk(lastListings, [...kept.listings.values()][0])
  );
}

function sameBlock(a: CustomerBlock | undefined, b: CustomerBlock | undefined): boolean {
  if (!a || !b) return a === b;
  const same = (x: readonly unknown[], y: readonly unknown[]) => x.length === y.length && x.every((v, i) => v === y[i]);
  return a.block === b.block && same(a.pks, b.pks) && same(a.ids, b.ids) && same(a.rows, b.rows);
}

/** A customer as a block holds it. */
type Entry = [pk: number, id: string, json: string];

function entryOf(row: CachedCustomer): Entry {
  return [row.pk!, row.id, rowJson(row)];
}

function packEntries(entries: Iterable<Entry>): CustomerBlock[] {
  const blocks = new Map<number, CustomerBlock>();
  for (const [pk, id, json] of [...entries].sort((a, b) => a[0] - b[0])) {
    const key = blockOf(pk);
    let block = blocks.get(key);
    if (!block) blocks.set(key, (block = { block: key, pks: [], ids: [], rows: [] }));
    block.pks.push(pk);
    block.ids.push(id);
    block.rows.push(json);
  }
  return [...blocks.values()];
}

/** Customers (with their pks) as whole block records: every customer of a block must be among them. */
export function packCustomerBlocks(rows: readonly CachedCustomer[]): CustomerBlock[] {
  return packEntries(rows.map(entryOf));
}

export async function addCustomerRow(db: OfflineDb, row: CachedCustomer): Promise<number> {
  const [pk] = await putCustomerRows(db, [{ ...row, pk: undefined }]);
  return pk!;
}

export async function deleteCustomerRow(db: OfflineDb, pk: number): Promise<void> {
  const id = blockOf(pk);
  const block = await db.customerBlocks.get(id);
  const removed: CachedCustomer[] = [];
  if (block) {
    const index = block.pks.indexOf(pk);
    if (index >= 0) {
      removed.push(rowAt(block, index));
      for (const list of [block.pks, block.ids, block.rows] as unknown[][]) list.splice(index, 1);
      if (block.pks.length === 0) await db.customerBlocks.delete(id);
      // Today's fields only: a block written before version 8 also held its phones.
      else await db.customerBlocks.put({ block: id, pks: block.pks, ids: block.ids, rows: block.rows });
    }
  }
  const lines = new SearchLineChanges([], [pk]);
  const listings = new ListingChanges([], [pk]);
  const [chunks, listingChunks] = await Promise.all([
    db.searchChunks.bulkGet(lines.chunkIds),
    db.listingChunks.bulkGet(listings.chunkIds),
  ]);
  const listingWrites = listings.apply(listingChunks);
  const sent = Promise.all([sendChunksAndCounter(db, lines.apply(chunks), null), sendListings(db, listingWrites)]);
  await feedOf(db).record({ removed, listings: listingsIn(listingWrites) }, sent);
}

export function searchFieldsOf(row: CachedCustomer): SearchFields {
  return { pk: row.pk!, phoneE164: row.phoneE164, nameWords: row.nameWords };
}

function sameSearchFields(a: CachedCustomer, b: CachedCustomer): boolean {
  return a.phoneE164 === b.phoneE164 && a.nameWords.join(' ') === b.nameWords.join(' ');
}

/** The tables a transaction that writes customers must cover (the pk counter lives in meta). */
export function customerTables(db: OfflineDb): readonly Table[] {
  return [db.customerBlocks, db.searchChunks, db.phoneDigests, db.listingChunks, db.meta];
}
