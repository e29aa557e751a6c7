/**
 * What each of the customer blocks' indexes adds to a write, as the base grows: raw
 * IndexedDB (no Dexie, no reads), generated customers packed into blocks and search lines
 * by the app's own `packCustomerBlocks` and `SearchLineChanges`, a transaction of
 * `perTransaction` customers (a multiple of 16, so that no block is split) that also puts
 * their search chunk, into an object store with the indexes `schema` names.
 * The diagnostic behind docs/decisions/2026-11-24-id-index-not-unique.md (a million written)
 * and 2026-11-24-no-phone-index.md.
 */
import { packCustomerBlocks, searchFieldsOf } from '../../../renderer/offline/customers/customer-blocks';
import { SearchLineChanges } from '../../../renderer/offline/search/search-chunks';
import type { SearchChunk } from '../../../renderer/offline/db/schema';
import { cyrb53 } from '../../../renderer/offline/hashing/cyrb53';
import { customerAt } from './generate';

/**
 * Index sets to compare: the app's before schema 7 (`&*ids, *phones`), in schema 7
 * (`*ids, *phones`), its own since schema 8 (`*ids`), the same entries keyed by 53-bit
 * hashes instead of the strings (`#ids, #phones`: an index entry's bytes against its
 * count), and without each.
 */
export const INDEX_SCHEMAS = ['&*ids, *phones', '*ids, *phones', '#ids, #phones', '*ids', '*phones', 'none'] as const;
export type IndexSchema = (typeof INDEX_SCHEMAS)[number];

export interface IndexCostResult {
  schema: IndexSchema;
  customers: number;
  /** Milliseconds a customer, over all transactions, the first tenth and the last tenth. */
  msPerCustomer: { all: number; firstTenth: number; lastTenth: number };
}

function open(name: string, schema: IndexSchema): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(name, 1);
    request.onupgradeneeded = () => {
      const blocks = request.result.createObjectStore('customerBlocks', { keyPath: 'block' });
      if (schema.includes('*ids'))
        blocks.createIndex('ids', 'ids', { unique: schema.startsWith('&'), multiEntry: true });
      if (schema.includes('*phones')) blocks.createIndex('phones', 'phones', { multiEntry: true });
      if (schema.includes('#ids')) blocks.createIndex('idHashes', 'idHashes', { multiEntry: true });
      if (schema.includes('#phones')) blocks.createIndex('phoneHashes', 'phoneHashes', { multiEntry: true });
      request.result.createObjectStore('searchChunks', { keyPath: 'chunk' });
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function drop(name: string): Promise<void> {
  return new Promise((resolve) => {
    const request = indexedDB.deleteDatabase(name);
    request.onsuccess = request.onerror = () => resolve();
  });
}

export async function indexCost(options: {
  schema: IndexSchema;
  customers: number;
  perTransaction: number;
}): Promise<IndexCostResult> {
  const { schema, customers, perTransaction } = options;
  const name = 'bench-index-cost';
  await drop(name);
  const db = await open(name, schema);
  const fetchedAt = new Date().toISOString();
  const times: number[] = [];
  // The last search chunk written: a transaction's new lines are appended to it, as the app's are.
  let lastChunk: SearchChunk | undefined;
  for (let first = 0; first < customers; first += perTransaction) {
    // Built before the transaction opens, as the app's writes are, by the app's own packing.
    const rows = Array.from({ length: perTransaction }, (_, i) => ({
      ...customerAt(first + i, fetchedAt),
      pk: first + i,
    }));
    const hashed = schema.includes('#');
    // The app's blocks hold no phones since its version 8. Every record here carries them, as
    // the blocks did when these figures were first taken, so that each schema writes the same bytes.
    const records = packCustomerBlocks(rows).map((block) => {
      const phones = block.pks.map((pk) => rows[pk - first]!.phoneE164);
      return hashed
        ? { ...block, idHashes: block.ids.map(cyrb53), phoneHashes: phones.map(cyrb53) }
        : { ...block, phones };
    });
    const lines = new SearchLineChanges(rows.map(searchFieldsOf));
    const { toPut: chunks } = lines.apply(
      lines.chunkIds.map((id) => (id === lastChunk?.chunk ? lastChunk : undefined)),
    );
    lastChunk = chunks[chunks.length - 1];
    const started = performance.now();
    await new Promise<void>((resolve, reject) => {
      const transaction = db.transaction(['customerBlocks', 'searchChunks'], 'readwrite');
      for (const record of records) transaction.objectStore('customerBlocks').put(record);
      for (const chunk of chunks) transaction.objectStore('searchChunks').put(chunk);
      transaction.oncomplete = () => resolve();
      transaction.onerror = transaction.onabort = () => reject(transaction.error);
    });
    times.push(performance.now() - started);
  }
  db.close();
  await drop(name);
  const perCustomer = (some: number[]) => some.reduce((sum, ms) => sum + ms, 0) / (some.length * perTransaction);
  const tenth = Math.max(1, Math.floor(times.length / 10));
  return {
    schema,
    customers,
    msPerCustomer: {
      all: perCustomer(times),
      firstTenth: perCustomer(times.slice(0, tenth)),
      lastTenth: perCustomer(times.slice(-tenth)),
    },
  };
}
