/**
 * What each sealed table keeps readable, and how the rest of a record is sealed
 * (sealed-tables.ts does the sealing; docs/security.md#what-the-page-keeps-sealed says why each
 * field is where it is).
 *
 * A sealed record is its readable fields and one more, `sealed`: every other field of the
 * record, sealed together under the storage key in one AES-GCM value (a coarse record, one
 * seal: a block of 16 customers, a whole chunk, an outbox item). What stays readable is only
 * what IndexedDB needs to find a record (its key, its indexes) and what the replay and the
 * sealing pass read without opening it: integer keys, the service's ids, states and times.
 * Anything a later version adds to a record is sealed unless it is named here: readable is an
 * allow-list.
 *
 * The sealed bytes, before sealing: a 4-byte length (little-endian), that many bytes of JSON (an
 * object of the sealed fields), then the table's bulk, when it has one, as bytes rather than
 * JSON: a block's customer rows joined by line feeds (each row is JSON, which never holds a raw
 * line feed), a search chunk's lines, a listing chunk's offsets and listings.
 */
import type { CustomerBlock, ListingChunk, SearchChunk } from './schema';

/** The field a sealed record keeps its sealed bytes in; a record without it was written before sealing (a legacy row). */
export const SEALED_FIELD = 'sealed';

/** The purpose of the reward codes' keyed digests (the rewards table's keys). */
export const REWARD_CODE_PURPOSE = 'reward code';

type Row = Record<string, unknown>;

export interface TableSeal {
  /** Fields kept in clear: keys, indexes, and what is read without opening the record. */
  readable: ReadonlySet<string>;
  /** Sealed as bytes, not JSON: the fields and their codec. */
  bulk?: {
    fields: readonly string[];
    encode(row: Row): Uint8Array;
    decode(bytes: Uint8Array): Row;
  };
  /** What binds a sealed value to its record (with the table's name): the record's own id in clear. */
  idField: string;
  /** The primary key is the keyed digest of this field's value (the rewards' code): the value itself is sealed. */
  digestKey?: { field: string; purpose: string };
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

const customerBlocks: TableSeal = {
  readable: new Set(['block', 'pks', 'ids']),
  idField: 'block',
  bulk: {
    fields: ['rows'],
    encode: (row) => encoder.encode((row as unknown as CustomerBlock).rows.join('\n')),
    decode: (bytes) => {
      const text = decoder.decode(bytes);
      return { rows: text === '' ? [] : text.split('\n') };
    },
  },
};

const searchChunks: TableSeal = {
  readable: new Set(['chunk']),
  idField: 'chunk',
  bulk: {
    fields: ['lines'],
    encode: (row) => encoder.encode((row as unknown as SearchChunk).lines),
    decode: (bytes) => ({ lines: decoder.decode(bytes) }),
  },
};

/** A listing chunk's offsets (lengths, in slot order) and its listings' bytes, after them. */
const listingChunks: TableSeal = {
  readable: new Set(['chunk']),
  idField: 'chunk',
  bulk: {
    fields: ['offsets', 'lines'],
    encode: (row) => {
      const { offsets, lines } = row as unknown as ListingChunk;
      const bytes = new Uint8Array(4 + offsets.byteLength + lines.length);
      const view = new DataView(bytes.buffer);
      view.setUint32(0, offsets.length, true);
      for (let i = 0; i < offsets.length; i++) view.setUint32(4 + 4 * i, offsets[i]!, true);
      bytes.set(lines, 4 + offsets.byteLength);
      return bytes;
    },
    decode: (bytes) => {
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      const count = view.getUint32(0, true);
      const offsets = new Uint32Array(count);
      for (let i = 0; i < count; i++) offsets[i] = view.getUint32(4 + 4 * i, true);
      // A copy of its own: the listings in memory keep it, not the whole opened record.
      return { offsets, lines: bytes.slice(4 + 4 * count) };
    },
  },
};

const rewards: TableSeal = {
  // `code` is the key: in clear it is the keyed digest of the code, never the code.
  readable: new Set(['code', 'customerId', 'fetchedAt', 'noLongerListed', 'pendingOutboxSeq']),
  idField: 'code',
  digestKey: { field: 'code', purpose: REWARD_CODE_PURPOSE },
};

/** What the replay, the reconciliation and the indexes read; everything the item says of a person is sealed. */
const outbox: TableSeal = {
  readable: new Set([
    'seq',
    'uid',
    'kind',
    'state',
    'queuedAt',
    'firstAttemptAt',
    'lastAttemptAt',
    'attempts',
    'nextAttemptAt',
    'failures',
    'unanswered',
    'restoredAt',
    'customerPk',
  ]),
  idField: 'uid',
};

const journal: TableSeal = {
  readable: new Set([
    'seq',
    'uid',
    'outboxUid',
    'outboxSeq',
    'kind',
    'doneAt',
    'outcome',
    'queuedAt',
    'firstAttemptAt',
    'serviceAt',
    'attemptAt',
    'restoredUid',
  ]),
  idField: 'uid',
};

/** Every sealed table. `meta`, `pageTags` and `phoneDigests` hold nothing personal (the digests are keyed). */
export const TABLE_SEALS: Readonly<Record<string, TableSeal>> = {
  customerBlocks,
  searchChunks,
  listingChunks,
  rewards,
  outbox,
  journal,
};

/** The bytes sealed for `row`: its sealed fields' JSON, then its bulk. */
export function sealedPayload(seal: TableSeal, row: Row): Uint8Array {
  const fields: Row = {};
  const bulkFields = seal.bulk?.fields ?? [];
  for (const name of Object.keys(row)) {
    if (seal.readable.has(name) || name === SEALED_FIELD || bulkFields.includes(name)) continue;
    const value = row[name];
    if (value !== undefined) fields[name] = value;
  }
  if (seal.digestKey) fields[seal.digestKey.field] = row[seal.digestKey.field];
  const json = Object.keys(fields).length === 0 ? new Uint8Array(0) : encoder.encode(JSON.stringify(fields));
  const bulk = seal.bulk ? seal.bulk.encode(row) : new Uint8Array(0);
  const bytes = new Uint8Array(4 + json.length + bulk.length);
  new DataView(bytes.buffer).setUint32(0, json.length, true);
  bytes.set(json, 4);
  bytes.set(bulk, 4 + json.length);
  return bytes;
}

/** The fields `sealedPayload` sealed. */
export function fieldsOfPayload(seal: TableSeal, bytes: Uint8Array): Row {
  const length = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0, true);
  const fields = length === 0 ? {} : (JSON.parse(decoder.decode(bytes.subarray(4, 4 + length))) as Row);
  return seal.bulk ? Object.assign(fields, seal.bulk.decode(bytes.subarray(4 + length))) : fields;
}

/** The readable part of `row`, as stored beside its sealed bytes. */
export function readablePart(seal: TableSeal, row: Row): Row {
  const stored: Row = {};
  for (const name of seal.readable) {
    const value = row[name];
    if (value !== undefined) stored[name] = value;
  }
  return stored;
}
