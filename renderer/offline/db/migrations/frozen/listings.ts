/**
 * The listings and phone digests version 9 built (copied from search/listings.ts,
 * search/phone-digests.ts and db/pages-in-key-order.ts at commit feaa1bd; never edited, see
 * README.md). Stored: 128 listings to a record keyed by `pk >> 7`, each listing UTF-8 JSON
 * `[id, name, phone, fetched ms, local only (1 or 0), then programme index and points a
 * card]` in the slot of its pk; a digest holds each search line's FNV-1a hash of its phone
 * digits (0 for none), in the lines' order.
 */
import type { Table } from 'dexie';
import { linesOf, phoneDigitsOfLine } from './search-lines';
import type { StoredCustomer, StoredListingChunk, StoredPhoneDigest, StoredProgramme, StoredSearchChunk } from './rows';

export const LISTING_BITS = 7;
const LISTING_SLOTS = 1 << LISTING_BITS;
const SLOT_MASK = LISTING_SLOTS - 1;

const encoder = new TextEncoder();

function sameProgramme(a: StoredProgramme, b: StoredProgramme): boolean {
  return a.id === b.id && a.name === b.name && a.type === b.type;
}

function encodeListing(row: StoredCustomer, programmes: StoredProgramme[]): Uint8Array {
  const { customer } = row;
  const fields: (string | number)[] = [
    row.id,
    customer.name,
    customer.phone,
    Date.parse(row.fetchedAt),
    row.localOnly === true ? 1 : 0,
  ];
  for (const card of customer.cards) {
    let index = programmes.findIndex((programme) => programme.id === card.program.id);
    if (index < 0) index = programmes.push({ ...card.program }) - 1;
    else if (!sameProgramme(programmes[index]!, card.program)) programmes[index] = { ...card.program };
    fields.push(index, card.points);
  }
  return encoder.encode(JSON.stringify(fields));
}

/** The listing chunks of `rows`, every customer of each chunk among them. */
export function listingChunksOf(rows: readonly StoredCustomer[]): StoredListingChunk[] {
  const byChunk = new Map<number, StoredCustomer[]>();
  for (const row of rows) {
    const id = row.pk! >> LISTING_BITS;
    byChunk.set(id, [...(byChunk.get(id) ?? []), row]);
  }
  return [...byChunk].map(([id, members]) => {
    const programmes: StoredProgramme[] = [];
    const slots: (Uint8Array | null)[] = new Array<Uint8Array | null>(LISTING_SLOTS).fill(null);
    for (const row of members) slots[row.pk! & SLOT_MASK] = encodeListing(row, programmes);
    const offsets = new Uint32Array(LISTING_SLOTS + 1);
    const lines = new Uint8Array(slots.reduce((sum, bytes) => sum + (bytes?.length ?? 0), 0));
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
  });
}

/** FNV-1a, 32 bits, of a phone's digits; never 0, which marks "no phone". */
function phoneHash(digits: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < digits.length; i++) hash = Math.imul(hash ^ digits.charCodeAt(i), 0x01000193);
  return hash >>> 0 || 1;
}

export function phoneDigestOf(chunk: StoredSearchChunk): StoredPhoneDigest {
  const lines = linesOf(chunk);
  const hashes = new Uint32Array(lines.length);
  lines.forEach((line, i) => {
    const digits = phoneDigitsOfLine(line);
    hashes[i] = digits === '' ? 0 : phoneHash(digits);
  });
  return { chunk: chunk.chunk, hashes };
}

/** A table keyed by number, `perRead` records a request, in key order. */
export async function* pagesInKeyOrder<T>(
  table: Table<T, number>,
  perRead: number,
  keyOf: (record: T) => number,
): AsyncGenerator<T[], void, undefined> {
  let after = -1;
  for (;;) {
    const page = await table.where(':id').above(after).limit(perRead).toArray();
    if (page.length > 0) yield page;
    if (page.length < perRead) return;
    after = keyOf(page[page.length - 1]!);
  }
}
