/**
 * Offline search, ours beside the naive way, in the page: the app's own CustomerCache and
 * slim index over IndexedDB, against reading and testing every stored customer (what a
 * till that keeps every customer without an index ends up doing).
 */
import { Dexie } from 'dexie';
import { customerTables, putCustomerRows } from '../../../renderer/offline/customers/customer-blocks';
import { getCustomerRows } from '../../../renderer/offline/customers/customer-reads';
import { asBeforeSealing, benchDb } from './bench-db';
import { type CachedCustomer, type OfflineDb } from '../../../renderer/offline/db/schema';
import { CustomerCache, MAX_RESULTS, PAGE_SIZE } from '../../../renderer/offline/cache/customer-cache';
import { parseQuery, type ParsedQuery } from '../../../renderer/offline/search/search-index';
import { customerAt } from './generate';
import { QUERY_KINDS, queriesFor, type QueryKind } from './queries';

export const COUNTRY = 'SA';
const SEED_BATCH = 5_000;

/**
 * Fills a fresh database with `size` generated customers, in large bulkPut batches. `before
 * sealing`: written as a till before sealing wrote them, in clear (the first start's sealing
 * pass then has them to seal).
 */
export async function seedCache(dbName: string, size: number, beforeSealing = false): Promise<{ ms: number }> {
  await Dexie.delete(dbName);
  const db = benchDb(dbName, { sealed: !beforeSealing });
  const started = performance.now();
  const fetchedAt = new Date().toISOString();
  for (let from = 0; from < size; from += SEED_BATCH) {
    const rows: CachedCustomer[] = [];
    for (let i = from; i < Math.min(size, from + SEED_BATCH); i++) rows.push(customerAt(i, fetchedAt));
    // The app's own write of customer rows (with whatever derived rows the schema keeps).
    await db.transaction('rw', customerTables(db), async () => putCustomerRows(db, rows));
  }
  const ms = performance.now() - started;
  if (beforeSealing) await asBeforeSealing(db);
  db.close();
  return { ms };
}

/** Every stored customer read, parsed and tested. */
async function naiveScan(db: OfflineDb, match: (row: CachedCustomer) => boolean): Promise<CachedCustomer[]> {
  const rows: CachedCustomer[] = [];
  await db.customerBlocks.each((block) => {
    for (const json of block.rows) {
      const row = JSON.parse(json) as CachedCustomer;
      if (match(row)) rows.push(row);
    }
  });
  return rows;
}

/** The naive search: every row read and tested, the same matching rules as ours. */
function naiveMatcher(query: ParsedQuery): (row: CachedCustomer) => boolean {
  switch (query.kind) {
    case 'all':
      return () => true;
    case 'phone':
      return (row) => row.phoneE164 === query.e164;
    case 'digits':
      return (row) => row.phoneE164.includes(query.digits);
    case 'name':
      return (row) => query.terms.every((term) => row.nameWords.some((word) => word.startsWith(term)));
  }
}

export interface SearchKindResult {
  /** The in-memory index answering (parse included): the hot path. */
  index: number[];
  /** `CustomerCache.search`: the index, the page of 20's listings (memory) and the cache note. */
  full: number[];
  /** The same page of 20 read from the customer blocks, as before the listings load. */
  blocks: number[];
  naive: number[];
  /** Queries where ours and naive disagreed on the number of matches (up to the cap). */
  mismatches: string[];
}

export interface SearchBenchOptions {
  indexRounds: number;
  fullRounds: number;
  /** At most this many naive scans per kind, and at least `naiveMinReps`... */
  naiveReps: number;
  naiveMinReps: number;
  /** ...but no more once this much time went into one kind's naive scans (a busy machine). */
  naiveBudgetMs: number;
  distinctQueries: number;
}

export async function searchBench(
  dbName: string,
  size: number,
  options: SearchBenchOptions,
): Promise<Record<QueryKind, SearchKindResult>> {
  const db = benchDb(dbName);
  const cache = new CustomerCache(db, { defaultCountry: () => COUNTRY });
  await cache.loadIndex();
  if (!cache.indexReady || cache.index.size !== size) {
    throw new Error(`The index holds ${cache.index.size} customers, expected ${size}.`);
  }
  const queries = queriesFor(size, options.distinctQueries);
  const results = {} as Record<QueryKind, SearchKindResult>;

  // Warm-up: the first calls compile the code paths; a till has been running for a while.
  for (const kind of QUERY_KINDS)
    for (const text of queries[kind]) cache.index.search(parseQuery(text, COUNTRY), MAX_RESULTS);

  for (const kind of QUERY_KINDS) {
    const list = queries[kind];
    const result: SearchKindResult = { index: [], full: [], blocks: [], naive: [], mismatches: [] };
    for (let round = 0; round < options.indexRounds; round++) {
      for (const text of list) {
        const started = performance.now();
        cache.index.search(parseQuery(text, COUNTRY), MAX_RESULTS);
        result.index.push(performance.now() - started);
      }
    }
    for (let round = 0; round < options.fullRounds; round++) {
      for (const text of list) {
        const started = performance.now();
        await cache.search(text);
        result.full.push(performance.now() - started);
      }
    }
    for (let round = 0; round < options.fullRounds; round++) {
      for (const text of list) {
        const page = cache.index.search(parseQuery(text, COUNTRY), MAX_RESULTS).pks.slice(0, PAGE_SIZE);
        const started = performance.now();
        await getCustomerRows(db, page);
        result.blocks.push(performance.now() - started);
      }
    }
    const naiveStarted = performance.now();
    for (let rep = 0; rep < options.naiveReps; rep++) {
      if (rep >= options.naiveMinReps && performance.now() - naiveStarted > options.naiveBudgetMs) break;
      const text = list[rep % list.length]!;
      const query = parseQuery(text, COUNTRY);
      const started = performance.now();
      const rows = await naiveScan(db, naiveMatcher(query));
      result.naive.push(performance.now() - started);
      const ours = cache.index.search(query, MAX_RESULTS);
      if (ours.pks.length !== Math.min(rows.length, MAX_RESULTS)) {
        result.mismatches.push(`${text}: ours ${ours.pks.length}${ours.capped ? '+' : ''}, naive ${rows.length}`);
      }
    }
    results[kind] = result;
  }
  db.close();
  return results;
}
