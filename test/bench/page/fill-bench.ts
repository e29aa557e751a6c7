/**
 * Filling an empty cache from the service through `window.till` (the real bridge to the
 * main-process core and the sandbox): the app's own CacheRefresh, beside strictly
 * sequential paging written through the same CustomerCache, while a cashier searches.
 */
import { Dexie } from 'dexie';
import type { TillApi } from '../../../common/contract';
import { CacheRefresh } from '../../../renderer/offline/refresh/cache-refresh';
import { CustomerCache, MAX_RESULTS } from '../../../renderer/offline/cache/customer-cache';
import { parseQuery } from '../../../renderer/offline/search/search-index';
import { countCustomers } from '../../../renderer/offline/customers/customer-reads';
import { benchDb } from './bench-db';
import { attachKeptWrites } from '../../../renderer/offline/db/kept-tables';
import { defaultTimers } from '../../../renderer/offline/connection/connection-monitor';
import { MainCopy } from '../../../renderer/offline/outbox/main-copy';
import { Outbox } from '../../../renderer/offline/outbox/outbox';
import { COUNTRY } from './search-bench';

export interface FillRun {
  customers: number;
  ms: number;
  pages: number;
  state: string;
  stoppedBecause: string | null;
  /** Summed time inside `window.till.customerPage` and inside the cache's writes (they overlap when pages run concurrently). */
  fetchMs: number;
  writeMs: number;
  /** Pages the service answered 304 (unchanged since the tag the till sent). */
  notModified: number;
  /** Writes rolled back for a cashier's search and made again (CacheRefresh only). */
  interruptedWrites: number;
  /** Writes a cashier's search came upon (waited for or rolled back), and the share of their pauses the writer ended at (CacheRefresh only). */
  writesMetBySearch: number;
  cashierShare: number | null;
  /** Writes of new customers sent without reading what they merge with first. */
  writesSentWithoutReading: number;
  /** Transactions that committed customers. */
  writes: number;
  /** Wall-clock bounds (Date.now()), so the runner can add up the core's own time within them. */
  startedAtEpoch: number;
  endedAtEpoch: number;
}

/** Counts where a fill spends its time, without changing what it does. */
function instrument(
  cache: CustomerCache,
  options: { tags: boolean } = { tags: true },
): { api: typeof window.till; spent: { fetchMs: number; writeMs: number; notModified: number; writes: number } } {
  const spent = { fetchMs: 0, writeMs: 0, notModified: 0, writes: 0 };
  const till = window.till;
  const api: typeof till = {
    ...till,
    customerPage: async (payload) => {
      const started = performance.now();
      try {
        // Without tags: as against a service that sends none.
        const result = await till.customerPage(
          options.tags ? payload : { page: payload.page, per_page: payload.per_page },
        );
        if (result.ok && result.notModified) spent.notModified += 1;
        if (!options.tags && result.ok && !result.notModified) delete result.etag;
        return result;
      } finally {
        spent.fetchMs += performance.now() - started;
      }
    },
  };
  // Both ways the refresh writes: putCustomers, and a first fill's parted writes.
  const timed =
    <A extends unknown[], R>(write: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const started = performance.now();
      try {
        return await write(...args);
      } finally {
        spent.writeMs += performance.now() - started;
        spent.writes += 1;
      }
    };
  cache.putCustomers = timed(cache.putCustomers.bind(cache));
  cache.putNewCustomersWhile = timed(cache.putNewCustomersWhile.bind(cache));
  return { api, spent };
}

export interface FillBenchResult {
  refresh: FillRun;
  /**
   * Redemptions queued offline during the refresh, ms each from the cashier's "redeem" to
   * "Queued": the outbox's strict transaction and the main process's flush of its copy.
   */
  queueDuringFill: number[];
  /**
   * Of each of those, the main process's part: `keepWork` from the page's call to its answer
   * (the bridge both ways, the append and the fsync); the rest is the page's strict commit and
   * the wait for the fill's write already under way.
   */
  keepDuringFill: number[];
  /** The till's first redemption of all, before the fill: it also makes the main process's file. */
  firstQueue: number;
  /** Cashier's searches (`CustomerCache.search`) during the refresh, ms each. */
  searchDuringFill: number[];
  /** The same searches' in-memory index part alone. */
  indexSearchDuringFill: number[];
  /** The same cashier on the filled base with nothing else running: what the fill adds is the difference. */
  searchWithoutFill: number[];
  sequential: FillRun | null;
  /** The same base refreshed again, unchanged: without entity tags, then with them. */
  unchangedWithoutTags: FillRun | null;
  unchangedWithTags: FillRun | null;
  /** JS heap after the fill and a forced collection is read by the runner. */
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function freshCache(dbName: string, sealed: boolean): Promise<CustomerCache> {
  await Dexie.delete(dbName);
  const cache = new CustomerCache(benchDb(dbName, { sealed }), { defaultCountry: () => COUNTRY });
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
    // The search first, as the cashier meets it: the first work after a pause is the one
    // a pending garbage collection falls on.
    const started = performance.now();
    await cache.search(text);
    samples.full.push(performance.now() - started);
    // Then the in-memory part alone: it tells waiting on IndexedDB apart from a busy page.
    const indexStarted = performance.now();
    cache.index.search(parseQuery(text, COUNTRY), MAX_RESULTS);
    samples.index.push(performance.now() - indexStarted);
    await sleep(40);
  }
}

/** A customer whose rewards the cashier redeems offline while the fill runs: one code each time. */
const QUEUE_PHONE = '+966559990001';
const QUEUE_REWARDS = 400;
const queueCode = (i: number) => `RW-BENCHQ${String(i).padStart(4, '0')}`;

/**
 * The customer and their rewards in the cache, and an outbox whose copy is the main process's;
 * the till's first redemption made (and timed): a till that has queued before has its file.
 */
async function queueingTill(
  cache: CustomerCache,
  keepTimes: number[],
): Promise<{ outbox: Outbox; firstQueue: number }> {
  const at = '2026-11-28T09:00:00.000Z';
  await cache.putCustomerWithRewards(
    {
      id: 'bench-queue-customer',
      name: 'Bench Queue',
      phone: '+966 55 999 0001',
      email: null,
      birthday: null,
      status: 'active',
      cards: [],
      created_at: at,
      last_visit_at: null,
      rewards: Array.from({ length: QUEUE_REWARDS }, (_, i) => ({
        code: queueCode(i),
        status: 'available',
        name: 'Free coffee',
        description: null,
        type: 'product',
        allowed_products: { quantity: 1, products_list: [] },
        customer_id: 'bench-queue-customer',
        earned_at: at,
        expires_at: null,
        redeemed_at: null,
      })),
    },
    at,
  );
  // The bridge's keepWork, timed: what the main process's copy adds to "Queued".
  const keepWork: TillApi['keepWork'] = async (payload) => {
    const started = performance.now();
    try {
      return await window.till.keepWork(payload);
    } finally {
      keepTimes.push(performance.now() - started);
    }
  };
  const copy = new MainCopy({ api: { keepWork }, timers: defaultTimers });
  attachKeptWrites(cache.db, copy);
  const outbox = new Outbox(cache.db, cache, { copy });
  const started = performance.now();
  await queueOne(outbox, QUEUE_REWARDS - 1);
  return { outbox, firstQueue: performance.now() - started };
}

const QUEUE_SETTINGS = { allowOfflineRedemption: true, branchId: null, defaultCountry: COUNTRY };

async function queueOne(outbox: Outbox, i: number): Promise<void> {
  const queued = await outbox.queueRedemption({ code: queueCode(i), phone: QUEUE_PHONE }, QUEUE_SETTINGS);
  if (!queued.ok) throw new Error(`Not queued: ${JSON.stringify(queued)}`);
}

/** A cashier redeeming while the service is out of reach: a "Queued" every `everyMs`, timed. */
async function queuer(outbox: Outbox, until: () => boolean, samples: number[], everyMs: number): Promise<void> {
  for (let i = 0; !until() && i < QUEUE_REWARDS - 1; i++) {
    const started = performance.now();
    await queueOne(outbox, i);
    samples.push(performance.now() - started);
    await sleep(everyMs);
  }
}

async function refreshRun(
  cache: CustomerCache,
  options: {
    perPage: number;
    tags: boolean;
    cashier?: { queries: string[]; samples: { full: number[]; index: number[] } };
    queuer?: { outbox: Outbox; samples: number[]; everyMs: number };
  },
): Promise<FillRun> {
  const spent = instrument(cache, { tags: options.tags });
  const refresh = new CacheRefresh({ api: spent.api, db: cache.db, cache, perPage: options.perPage });
  const metBefore = cache.backgroundWritesMetBySearch;
  const sentBefore = cache.writesSentWithoutReading;
  let filling = true;
  const searching = Promise.all([
    options.cashier ? cashier(cache, options.cashier.queries, () => !filling, options.cashier.samples) : null,
    options.queuer
      ? queuer(options.queuer.outbox, () => !filling, options.queuer.samples, options.queuer.everyMs)
      : null,
  ]);
  const startedAtEpoch = Date.now();
  const started = performance.now();
  const progress = await refresh.run().finally(() => (filling = false));
  const ms = performance.now() - started;
  const endedAtEpoch = Date.now();
  await searching;
  return {
    customers: await countCustomers(cache.db),
    ms,
    startedAtEpoch,
    endedAtEpoch,
    pages: progress.pagesDone,
    interruptedWrites: refresh.interruptedWrites,
    writesMetBySearch: cache.backgroundWritesMetBySearch - metBefore,
    cashierShare: options.cashier ? refresh.cashierShare : null,
    writesSentWithoutReading: cache.writesSentWithoutReading - sentBefore,
    state: progress.state,
    // The reason as data (it crosses to Node for the report's log, which stays English).
    stoppedBecause: progress.stoppedBecause ? JSON.stringify(progress.stoppedBecause) : null,
    ...spent.spent,
  };
}

export async function fillBench(options: {
  perPage: number;
  sequentialPages: number;
  cashierQueries: string[];
  /** Then let the cashier search the filled base this long, nothing else running. */
  searchWithoutFillMs: number;
  /** Refresh the filled base twice more, unchanged (without, then with entity tags). */
  unchanged: boolean;
  /** Keep the filled database open (the runner reads the heap, then calls `closeFill`). */
  keep?: boolean;
  /** False: the till before sealing (the sealing middleware left out), to measure what sealing costs. */
  sealed?: boolean;
  /** How often the cashier queues a redemption during the fill (fill-section.ts `QUEUE_EVERY_MS`). */
  queueEveryMs: number;
}): Promise<FillBenchResult> {
  const sealed = options.sealed !== false;
  const ours = await freshCache('bench-fill-refresh', sealed);
  const samples = { full: [] as number[], index: [] as number[] };
  const queued: number[] = [];
  const keepTimes: number[] = [];
  const { outbox, firstQueue } = await queueingTill(ours, keepTimes);
  keepTimes.length = 0; // the first redemption's, timed apart
  const refreshed = await refreshRun(ours, {
    perPage: options.perPage,
    tags: true,
    cashier: { queries: options.cashierQueries, samples },
    queuer: { outbox, samples: queued, everyMs: options.queueEveryMs },
  });
  // The floor the during-fill figure stands on: this machine's own search time, nothing writing.
  const withoutFill = { full: [] as number[], index: [] as number[] };
  const quietUntil = performance.now() + options.searchWithoutFillMs;
  await cashier(ours, options.cashierQueries, () => performance.now() >= quietUntil, withoutFill);
  let unchangedWithoutTags: FillRun | null = null;
  let unchangedWithTags: FillRun | null = null;
  if (options.unchanged) {
    // As a till that never had entity tags from its service: the first fill's tags are
    // forgotten, the pages' content hashes (which the till computes itself) are kept.
    await ours.db.pageTags.toCollection().modify((tag) => {
      delete tag.etag;
    });
    unchangedWithoutTags = await refreshRun(ours, { perPage: options.perPage, tags: false });
    // One more run that stores tags, then the measured run that sends them back.
    await refreshRun(ours, { perPage: options.perPage, tags: true });
    unchangedWithTags = await refreshRun(ours, { perPage: options.perPage, tags: true });
  }
  if (options.keep) {
    kept = ours;
  } else {
    ours.db.close();
    await Dexie.delete('bench-fill-refresh');
  }

  let sequentialRun: FillRun | null = null;
  if (options.sequentialPages > 0) {
    // The same writes, one page at a time, each waiting for the previous to be stored.
    const sequential = await freshCache('bench-fill-sequential', sealed);
    const seqSpent = instrument(sequential);
    const seqStartedAtEpoch = Date.now();
    const seqStarted = performance.now();
    let pages = 0;
    let stoppedBecause: string | null = null;
    for (let page = 1; page <= options.sequentialPages; page++) {
      const result = await seqSpent.api.customerPage({ page, per_page: options.perPage });
      if (!result.ok || result.notModified) {
        stoppedBecause = result.ok ? 'unexpected 304' : result.error.message;
        break;
      }
      await sequential.putCustomers(result.data);
      pages = page;
      if (page >= result.meta.last_page) break;
    }
    sequentialRun = {
      customers: await countCustomers(sequential.db),
      ms: performance.now() - seqStarted,
      startedAtEpoch: seqStartedAtEpoch,
      endedAtEpoch: Date.now(),
      pages,
      interruptedWrites: 0,
      writesMetBySearch: 0,
      cashierShare: null,
      writesSentWithoutReading: sequential.writesSentWithoutReading,
      state: stoppedBecause ? 'stopped' : 'idle',
      stoppedBecause,
      ...seqSpent.spent,
    };
    sequential.db.close();
    await Dexie.delete('bench-fill-sequential');
  }
  return {
    refresh: refreshed,
    queueDuringFill: queued,
    keepDuringFill: keepTimes,
    firstQueue,
    searchDuringFill: samples.full,
    indexSearchDuringFill: samples.index,
    searchWithoutFill: withoutFill.full,
    sequential: sequentialRun,
    unchangedWithoutTags,
    unchangedWithTags,
  };
}

/** The cache a `keep` fill left open: its index is what the heap figure measures. */
let kept: CustomerCache | null = null;

/** The kept fill's listings (typed arrays, outside the JS heap), once its index has settled. */
export async function keptFillMemory(): Promise<{ listingBytes: number }> {
  if (!kept) return { listingBytes: 0 };
  await kept.index.settled();
  return { listingBytes: kept.listings.bytes };
}

export async function closeFill(): Promise<void> {
  if (!kept) return;
  kept.db.close();
  kept = null;
  await Dexie.delete('bench-fill-refresh');
}
