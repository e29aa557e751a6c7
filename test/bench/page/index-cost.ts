/**
 * What each of the customer blocks' indexes adds to a write, as the base grows: raw
 * IndexedDB (no Dexie, none of the app's merging), generated customers packed 16 to a
 * record as customer-blocks.ts packs them, a transaction of `perTransaction` customers
 * that also puts their search chunk, into an object store with the indexes `schema` names.
 * The diagnostic behind the notes on the million in docs/benchmark.md.
 */
import type { CustomerBlock } from '../../../renderer/offline/customer-blocks';
import { customerAt } from './generate';

/** Index sets to compare: the app's (`&*ids, *phones`) and what it would be without each. */
export const INDEX_SCHEMAS = ['&*ids, *phones', '*ids, *phones', '*phones', 'none'] as const;
export type IndexSchema = (typeof INDEX_SCHEMAS)[number];

export interface IndexCostResult {
  schema: IndexSchema;
  customers: number;
  /** Milliseconds a customer, over all transactions, the first tenth and the last tenth. */
  msPerCustomer: { all: number; firstTenth: number; lastTenth: number };
}

const BLOCK = 16;
const CHUNK = 1_024;

function open(name: string, schema: IndexSchema): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(name, 1);
    request.onupgradeneeded = () => {
      const blocks = request.result.createObjectStore('customerBlocks', { keyPath: 'block' });
      if (schema.includes('ids'))
        blocks.createIndex('ids', 'ids', { unique: schema.startsWith('&'), multiEntry: true });
      if (schema.includes('phones')) blocks.createIndex('phones', 'phones', { multiEntry: true });
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
  let lines = '';
  for (let first = 0; first < customers; first += perTransaction) {
    // Built before the transaction opens, as the app's writes are.
    const records: CustomerBlock[] = [];
    if (first % CHUNK < perTransaction) lines = '';
    for (let start = first; start < first + perTransaction; start += BLOCK) {
      const record = {
        block: start / BLOCK,
        pks: [] as number[],
        ids: [] as string[],
        phones: [] as string[],
        rows: [] as string[],
      };
      for (let pk = start; pk < start + BLOCK; pk++) {
        const row = customerAt(pk, fetchedAt);
        record.pks.push(pk);
        record.ids.push(row.id);
        record.phones.push(row.phoneE164);
        record.rows.push(JSON.stringify(row));
        lines += `${pk} ${row.nameWords.join(' ')}\n`;
      }
      records.push(record);
    }
    const chunk = { chunk: Math.floor(first / CHUNK), lines };
    const started = performance.now();
    await new Promise<void>((resolve, reject) => {
      const transaction = db.transaction(['customerBlocks', 'searchChunks'], 'readwrite');
      for (const record of records) transaction.objectStore('customerBlocks').put(record);
      transaction.objectStore('searchChunks').put(chunk);
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
