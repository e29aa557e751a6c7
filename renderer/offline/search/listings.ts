/**
 * What the results list shows of each cached customer (name, phone, the points on each
 * card), for every customer, in memory: once loaded, the cashier's offline search answers
 * from here and reads nothing from IndexedDB.
 *
 * Why: the full records live 16 to a block (customer-blocks.ts), so a page of 20 results
 * reads 20 blocks, about 200 KB. On a quiet two-core till that read alone took 5-7 ms, 9-13
 * ms at the 95th percentile, and a search during a cache fill waited for the fill's write
 * transactions and processor besides (docs/decisions/2026-11-26-listings-in-memory.md).
 * Served from memory, a search takes a tenth of a millisecond and never waits for a write.
 *
 * Stored: `listingChunks`, LISTING_SLOTS customers to a record keyed by `pk >> LISTING_BITS`;
 * each customer's listing is UTF-8 JSON in the slot of its pk, and the record lists the
 * programmes its cards name, so a card costs a few bytes, not its programme's id and name.
 * 128 to a record, about 12 KB: in the bench browser, reading 390 records of 25 KB took
 * 0.53 s and as many of 12.5 KB 0.17 s (IndexedDB's cost a byte grows with the value:
 * docs/decisions/2026-11-26-index-before-listings.md), and a record stays far under
 * Chromium's 64 KB blob threshold (values past it are written as files of their own) even
 * with long Arabic names. In memory the records are kept as they are stored: about 100
 * bytes a customer, outside the JS heap (typed arrays).
 *
 * Kept true: every customer write (customer-blocks.ts) puts the records its customers'
 * listings change in the same transaction, and once that transaction commits the database's
 * feed (db/customer-feed.ts) hands the same records to its memory. So what memory holds is
 * what is stored, whoever wrote it.
 */
import type { Program } from '../../../common/contract';
import type { CachedCustomer, ListingChunk } from '../db/schema';
import { ChangesByChunk, type ChunkWrites } from './chunk-changes';

export const LISTING_BITS = 7;
export const LISTING_SLOTS = 1 << LISTING_BITS;
const SLOT_MASK = LISTING_SLOTS - 1;

/** A card as the results list shows it: its programme and its points. */
export interface ListedCard {
  program: Program;
  points: number;
}

/** A customer as the results list shows them (a service's `Customer` is one too). */
export interface ListedCustomer {
  id: string;
  name: string;
  phone: string;
  cards: ListedCard[];
}

/** A cached customer's listing, with what "from the cache of <time>" needs. */
export interface CustomerListing extends ListedCustomer {
  pk: number;
  /** ISO time the record was fetched (or created on this till, for `localOnly`). */
  fetchedAt: string;
  localOnly: boolean;
}

export function listingChunkOf(pk: number): number {
  return pk >> LISTING_BITS;
}

export function listingOf(row: CachedCustomer): CustomerListing {
  const { customer } = row;
  return {
    pk: row.pk!,
    id: row.id,
    name: customer.name,
    phone: customer.phone,
    cards: customer.cards.map((card) => ({ program: card.program, points: card.points })),
    fetchedAt: row.fetchedAt,
    localOnly: row.localOnly === true,
  };
}

/** Whether two listings would be stored alike. */
export function sameListing(a: CustomerListing, b: CustomerListing): boolean {
  return (
    a.pk === b.pk &&
    a.id === b.id &&
    a.name === b.name &&
    a.phone === b.phone &&
    a.fetchedAt === b.fetchedAt &&
    a.localOnly === b.localOnly &&
    a.cards.length === b.cards.length &&
    a.cards.every((card, i) => {
      const other = b.cards[i]!;
      return card.points === other.points && sameProgramme(card.program, other.program);
    })
  );
}

function sameProgramme(a: Program, b: Program): boolean {
  return a.id === b.id && a.name === b.name && a.type === b.type;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * A listing as stored: `[id, name, phone, fetched ms, local only (1 or 0), then for each
 * card its programme's index in `programmes` and its points]`. A programme not listed yet is
 * added; one listed under the same id with another name or type (renamed) is replaced.
 */
function encodeListing(listing: CustomerListing, programmes: Program[]): Uint8Array {
  const fields: (string | number)[] = [
    listing.id,
    listing.name,
    listing.phone,
    Date.parse(listing.fetchedAt),
    listing.localOnly ? 1 : 0,
  ];
  for (const card of listing.cards) {
    let index = programmes.findIndex((programme) => programme.id === card.program.id);
    if (index < 0) index = programmes.push({ ...card.program }) - 1;
    else if (!sameProgramme(programmes[index]!, card.program)) programmes[index] = { ...card.program };
    fields.push(index, card.points);
  }
  return encoder.encode(JSON.stringify(fields));
}

/** The listing in `pk`'s slot, or undefined when the chunk holds no customer there. */
export function readListing(chunk: ListingChunk, pk: number): CustomerListing | undefined {
  const slot = pk & SLOT_MASK;
  const start = chunk.offsets[slot]!;
  const end = chunk.offsets[slot + 1]!;
  if (end === start) return undefined;
  const fields = JSON.parse(decoder.decode(chunk.lines.subarray(start, end))) as (string | number)[];
  const cards: ListedCard[] = [];
  for (let i = 5; i + 1 < fields.length; i += 2) {
    cards.push({ program: chunk.programmes[fields[i] as number]!, points: fields[i + 1] as number });
  }
  return {
    pk,
    id: fields[0] as string,
    name: fields[1] as string,
    phone: fields[2] as string,
    cards,
    fetchedAt: new Date(fields[3] as number).toISOString(),
    localOnly: fields[4] === 1,
  };
}

/** The pks a chunk holds a listing for, in order. */
export function listedPks(chunk: ListingChunk): number[] {
  const pks: number[] = [];
  const first = chunk.chunk << LISTING_BITS;
  for (let slot = 0; slot < LISTING_SLOTS; slot++) {
    if (chunk.offsets[slot + 1]! > chunk.offsets[slot]!) pks.push(first + slot);
  }
  return pks;
}

/** Chunks to store and chunks to delete: what a write of listings changes. */
export type ListingChunkWrites = ChunkWrites<ListingChunk>;

/** Changes to customers' listings, by chunk: what to read first, then what to write. */
export class ListingChanges extends ChangesByChunk<CustomerListing> {
  constructor(puts: readonly CustomerListing[], deletes: readonly number[] = []) {
    super(listingChunkOf);
    for (const listing of puts) this.change(listing.pk, listing);
    for (const pk of deletes) this.change(pk, null);
  }

  /** The chunks as they must be stored, given those read (in `chunkIds` order). */
  apply(stored: readonly (ListingChunk | undefined)[]): ListingChunkWrites {
    const toPut: ListingChunk[] = [];
    const toDelete: number[] = [];
    this.chunkIds.forEach((id, i) => {
      const chunk = rebuild(id, stored[i], this.byChunk.get(id)!);
      if (chunk) toPut.push(chunk);
      else toDelete.push(id);
    });
    return { toPut, toDelete };
  }
}

/** A chunk with `changes` applied (the other slots' bytes copied as they are), or null when it ends empty. */
function rebuild(
  id: number,
  stored: ListingChunk | undefined,
  changes: Map<number, CustomerListing | null>,
): ListingChunk | null {
  const programmes = stored ? stored.programmes.map((programme) => ({ ...programme })) : [];
  const slots: (Uint8Array | null)[] = new Array<Uint8Array | null>(LISTING_SLOTS).fill(null);
  if (stored) {
    for (let slot = 0; slot < LISTING_SLOTS; slot++) {
      const start = stored.offsets[slot]!;
      const end = stored.offsets[slot + 1]!;
      if (end > start) slots[slot] = stored.lines.subarray(start, end);
    }
  }
  for (const [pk, listing] of changes) slots[pk & SLOT_MASK] = listing ? encodeListing(listing, programmes) : null;
  let length = 0;
  for (const bytes of slots) length += bytes?.length ?? 0;
  if (length === 0) return null;
  const offsets = new Uint32Array(LISTING_SLOTS + 1);
  const lines = new Uint8Array(length);
  let at = 0;
  slots.forEach((bytes, slot) => {
    offsets[slot] = at;
    if (bytes) {
      lines.set(bytes, at);
      at += bytes.length;
    }
  });
  offsets[LISTING_SLOTS] = at;
  return { chunk: id, offsets, lines, programmes };
}

/** Whether two chunks hold the same listings (a kept write context is still current). */
export function sameListingChunk(a: ListingChunk | undefined, b: ListingChunk | undefined): boolean {
  if (!a || !b) return a === b;
  return (
    a.chunk === b.chunk &&
    sameBytes(a.offsets, b.offsets) &&
    sameBytes(a.lines, b.lines) &&
    a.programmes.length === b.programmes.length &&
    a.programmes.every((programme, i) => sameProgramme(programme, b.programmes[i]!))
  );
}

function sameBytes(a: Uint8Array | Uint32Array, b: Uint8Array | Uint32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
