/**
 * Readiness after a (re)start with a full cache: the page starts the app's index load, as
 * `createOfflineServices().start()` does, and asks at once what a cashier would ask. Times
 * are `performance.now()`, which counts from the page's navigation start.
 */
import { benchDb } from './bench-db';
import { CustomerCache } from '../../../renderer/offline/cache/customer-cache';
import { COUNTRY } from './search-bench';
import { nameOf, phoneOf } from './generate';

export interface ReadinessResult {
  /** Both first searches answered (through Dexie's indexes while the index loads). */
  firstAnswerMs: number;
  firstAnswerVia: string[];
  firstAnswerFound: number[];
  /** The in-memory index loaded: every search answers through it (the page's customers read from their blocks). */
  indexReadyMs: number;
  /** The listings loaded too (`onListingsLoaded`): a search reads nothing from IndexedDB. */
  listingsReadyMs: number;
  /** The card serials loaded too (`CustomerCache.loadIndex` resolved): a scanned card is found from memory. */
  serialsReadyMs: number;
  indexed: number;
  /** The listings' typed arrays, outside the JS heap. */
  listingBytes: number;
}

export async function measureReadiness(dbName: string, size: number): Promise<ReadinessResult> {
  const cache = new CustomerCache(benchDb(dbName), { defaultCountry: () => COUNTRY });
  // Kept reachable so the heap reading after this counts the index the till would hold.
  (globalThis as { benchCache?: CustomerCache }).benchCache = cache;
  let indexReadyMs = Number.NaN;
  let listingsReadyMs = Number.NaN;
  const loading = cache.loadIndex({
    onProgress: (progress) => {
      if (progress.done) indexReadyMs = performance.now();
    },
    onListingsLoaded: () => (listingsReadyMs = performance.now()),
  });
  const someone = Math.floor(size / 2);
  const answers = await Promise.all([
    cache.search(phoneOf(someone)),
    cache.search(nameOf(someone).split(' ')[0]!.slice(0, 3)),
  ]);
  const firstAnswerMs = performance.now();
  const progress = await loading;
  const serialsReadyMs = performance.now();
  return {
    firstAnswerMs,
    firstAnswerVia: answers.map((answer) => answer.via),
    firstAnswerFound: answers.map((answer) => answer.total),
    indexReadyMs,
    listingsReadyMs,
    serialsReadyMs,
    indexed: progress.loaded,
    listingBytes: cache.listings.bytes,
  };
}
