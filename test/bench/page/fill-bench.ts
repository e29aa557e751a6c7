/**
 * Filling an empty cache from the service through `window.till` (the real bridge to the
 * main-process core and the sandbox): the app's own CacheRefresh, beside strictly
 * sequential paging written through the same CustomerCache, while a cashier searches.
 */
import { Dexie } from 'dexie';
import { CacheRefresh } from '../../../renderer/offline/cache-refresh';
import { CustomerCache, MAX_RESULTS } from '../../../renderer/offline/customer-cache';
import { parseQuery } from '../../../renderer/offline/search-index';
import { openOfflineDb } from '../../../renderer/offline/db';
import { COUNTRY } from './search-bench';

export interface FillRun {
  customers: number;
  ms: number;
  pages: number;
  state: string;
  stoppedBecause: string | null;
  /** Summed time inside `window.till.searchCustomers` and inside `putCustomers` (they overlap when pages run concurrently). */
  fetchMs: number;
  writeMs: number;
}

/** Counts where a fill spends its time, without changing what it does. */
function instrument(cache: CustomerCache): { api: typeof window.till; spent: { fetchMs: number; writeMs: number } } {
  const spent = { fetchMs: 0, writeMs: 0 };
  const till = window.till;
  const api: typeof till = {
    ...till,
    searchCustomers: async (payload) => {
      const started = performance.now();
      try {
        return await till.searchCustomers(payload);
      } finally {
        spent.fetchMs += performance.now() - started;
      }
    },
  };
  const put = cache.putCustomers.bind(cache);
  cache.putCustomers = async (...args) => {
    const started = performance.now();
    try {
      return await put(...args);
    } finally {
      spent.writeMs += performance.now() - started;
    }
  };
  return { api, spent };
}

export interface FillBenchResult {
  refresh: FillRun;
  /** Cashier's searches (`CustomerCache.search`) during the refresh, ms each. */
  searchDuringFill: number[];
  /** The same searches' in-memory index part alone. */
  indexSearchDuringFill: number[];
  sequential: FillRun;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function freshCache(dbName: string): Promise<CustomerCache> {
  await Dexie.delete(dbName);
  const cache = new CustomerCache(openOfflineDb(dbName), { defaultCountry: () => COUNTRY });
  // An empty cache's index is ready at once; write-through then keeps it current.
  await cache.loadIndex();
  return cache;
}

/** A cashier at the till: a search, a pause as they read the answer, another search. */
async function cashier(
  cache: CustomerCache,
  queries: readonly string[],
  until: () => boolean,
  samples: { full: number[]; index: number[] },
): Promise<void> {
  for (let i = 0; !until(); i++) {
    const text = queries[i % queries.length]!;
    // The in-memory part alone first: it tells waiting on IndexedDB apart from a busy page.
    const indexStarted = performance.now();
    cache.index.search(parseQuery(text, COUNTRY), MAX_RESULTS);
    samples.index.push(performance.now() - indexStarted);
    const started = performance.now();
    await cache.search(text);
    samples.full.push(performance.now() - started);
    await sleep(40);
  }
}

export async function fillBench(options: { perPage: number; sequentialPages: number; cashierQueries: string[] }): Promise<FillBenchResult> {
  const ours = await freshCache('bench-fill-refresh');
  const oursSpent = instrument(ours);
  const refresh = new CacheRefresh({ api: oursSpent.api, db: ours.db, cache: ours, perPage: options.perPage });
  const samples = { full: [] as number[], index: [] as number[] };
  let filling = true;
  const searching = cashier(ours, options.cashierQueries, () => !filling, samples);
  const started = performance.now();
  const progress = await refresh.run().finally(() => (filling = false));
  const refreshMs = performance.now() - started;
  await searching;
  const refreshRun: FillRun = {
    customers: await ours.db.customers.count(),
    ms: refreshMs,
    pages: progress.pagesDone,
    state: progress.state,
    stoppedBecause: progress.stoppedBecause,
    ...oursSpent.spent,
  };
  ours.db.close();

  // The same writes, one page at a time, each waiting for the previous to be stored.
  const sequential = await freshCache('bench-fill-sequential');
  const seqSpent = instrument(sequential);
  const seqStarted = performance.now();
  let pages = 0;
  let stoppedBecause: string | null = null;
  for (let page = 1; page <= options.sequentialPages; page++) {
    const result = await seqSpent.api.searchCustomers({ page, per_page: options.perPage });
    if (!result.ok) {
      stoppedBecause = result.error.message;
      break;
    }
    await sequential.putCustomers(result.data);
    pages = page;
    if (page >= result.meta.last_page) break;
  }
  const sequentialRun: FillRun = {
    customers: await sequential.db.customers.count(),
    ms: performance.now() - seqStarted,
    pages,
    state: stoppedBecause ? 'stopped' : 'idle',
    stoppedBecause,
    ...seqSpent.spent,
  };
  sequential.db.close();
  await Dexie.delete('bench-fill-refresh');
  await Dexie.delete('bench-fill-sequential');
  return { refresh: refreshRun, searchDuringFill: samples.full, indexSearchDuringFill: samples.index, sequential: sequentialRun };
}
