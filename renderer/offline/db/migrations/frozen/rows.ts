/**
 * The rows the migrations read and write, as each version stored them (copied from
 * db/schema.ts at commit feaa1bd; never edited, see README.md). Only the fields the
 * migrations touch are named; a stored row keeps every other field as it is.
 */

/** A customer's record in `customers` (versions 1 to 5) and, as JSON without `pk`, in a block (6 on). */
export interface StoredCustomer {
  pk?: number;
  id: string;
  phoneE164: string;
  nameWords: string[];
  customer: StoredServiceCustomer;
  fetchedAt: string;
  localOnly?: boolean;
}

/** The service's customer as the till keeps it: what the listings read of it. */
export interface StoredServiceCustomer {
  name: string;
  phone: string;
  cards: { program: StoredProgramme; points: number }[];
}

export interface StoredProgramme {
  id: string;
  name: string;
  type: string;
}

/** One record of `customerBlocks` (version 6 on). */
export interface StoredBlock {
  block: number;
  pks: number[];
  ids: string[];
  rows: string[];
}

/** One record of `searchChunks` (version 2 on): lines sorted by pk, separated by `\n`. */
export interface StoredSearchChunk {
  chunk: number;
  lines: string;
}

/** One record of `listingChunks` (version 9 on). */
export interface StoredListingChunk {
  chunk: number;
  offsets: Uint32Array;
  lines: Uint8Array;
  programmes: StoredProgramme[];
}

/** One record of `phoneDigests` (version 9 on). */
export interface StoredPhoneDigest {
  chunk: number;
  hashes: Uint32Array;
}
