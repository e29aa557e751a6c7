// Pages come from the real sandbox through the main process's handler table (real HTTP).
import { Dexie, type DBCoreTable } from 'dexie';
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, test, vi } from 'vitest';
import type { CustomerPagePayload, CustomerPageResult, TillApi } from '../../../../common/contract';
import {
  adaptedCashierShare,
  CacheRefresh,
  CASHIER_SHARE,
  MAX_PAGES_AHEAD,
  refreshDue,
  type RefreshProgress,
} from '../../../../renderer/offline/refresh/cache-refresh';
import { CustomerCache } from '../../../../renderer/offline/cache/customer-cache';
import { WriteCostModel } from '../../../../renderer/offline/pacing/write-cost';
import { readMeta } from '../../../../renderer/offline/db/meta';
import { type OfflineDb } from '../../../../renderer/offline/db/schema';
import { dropDb, freshDb } from '../support/fixtures';
import { startService, type ServiceHarness } from '../support/service';
import { allCustomers, countCustomers } from '../../../support/offline-rows';

let service: ServiceHarness;
let db: OfflineDb;
let cache: CustomerCache;

beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.close());
beforeEach(() => {
  db = freshDb();
  cache = new CustomerCache(db, { defaultCountry: () => 'SA' });
});
afterEach(() => dropDb(db));

type Search = TillApi['customerPage'];

/** The real search, seen through a hook that may answer instead (to inject failures by page). */
function instrumented(hook: (payload: CustomerPagePayload) => CustomerPageResult | null = () => null) {
  const pages: number[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const customerPage: Search = async (payload) => {
    pages.push(payload.page ?? 1);
    const injected = hook(payload);
    if (injected) return injected;
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      return await service.api.customerPage(payload);
    } finally {
      inFlight -= 1;
    }
  };
  return { api: { customerPage }, pages, maxInFlight: () => maxInFlight };
}

function refreshWith(
  api: { customerPage: Search },
  sleeps: number[] = [],
  perPage = 100,
  cashierTransactionCustomers?: number,
) {
  return new CacheRefresh({
    ...(cashierTransactionCustomers !== undefined ? { cashierTransactionCustomers } : {}),
    api,
    db,
    cache,
    perPage,
    concurrency: 3,
    random: () => 0.5,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    yieldToPage: async () => undefined,
  });
}

describe('the background refresh', () => {
  test('fills the cache with every customer, a few pages at a time, observably', async () => {
    const source = instrumented();
    const refresh = refreshWith(source.api);
    const seen: RefreshProgress[] = [];
    refresh.subscribe((progress) => seen.push(progress));

    const done = await refresh.run();

    const total = done.total!;
    expect(total).toBeGreaterThan(200);
    expect(await countCustomers(db)).toBe(total);
    expect(done).toMatchObject({
      state: 'idle',
      pagesDone: Math.ceil(total / 100),
      fetched: total,
      stoppedBecause: null,
      resumable: false,
    });
    expect(done.lastCompleteRefreshAt).not.toBeNull();
    expect(await readMeta(db, 'lastCompleteRefresh')).toEqual({ at: done.lastCompleteRefreshAt, total, unreadable: 0 });
    expect(await readMeta(db, 'refreshCursor')).toBeUndefined();
    expect(source.maxInFlight()).toBeLessThanOrEqual(3);
    expect(source.maxInFlight()).toBeGreaterThan(1);
    expect([...source.pages].sort((a, b) => a - b)).toEqual(
      Array.from({ length: Math.ceil(total / 100) }, (_, i) => i + 1),
    );
    // Progress was visible on the way, not only at the end.
    const lastPage = Math.ceil(total / 100);
    expect(seen.some((p) => p.state === 'running' && p.pagesDone > 0 && p.pagesDone < lastPage)).toBe(true);
    // And what it stored is searchable offline.
    expect((await cache.search('layla')).customers.map((row) => row.name)).toContain('Layla Haddad');
  });

  test('customers the service listed and the till could not read are counted, and a 304 keeps the count', async () => {
    // Pages 2 and 3 as the main process hands them on after leaving unreadable records out.
    const unreadableOn: Record<number, number> = { 2: 2, 3: 1 };
    const customerPage: Search = async (payload) => {
      const result = await service.api.customerPage(payload);
      const skipped = unreadableOn[payload.page];
      return result.ok && !result.notModified && skipped ? { ...result, skipped } : result;
    };
    const first = await refreshWith({ customerPage }).run();
    expect(first.unreadable).toBe(3);
    expect(await readMeta(db, 'lastCompleteRefresh')).toMatchObject({ unreadable: 3 });

    // The next complete refresh hears "not modified" for every page: the count stands.
    await db.meta.delete('lastCompleteRefresh');
    const asked: CustomerPageResult[] = [];
    const again = await refreshWith({
      customerPage: async (payload) => {
        const result = await customerPage(payload);
        asked.push(result);
        return result;
      },
    }).run();
    expect(asked.some((result) => result.ok && result.notModified)).toBe(true);
    expect(again.unreadable).toBe(3);

    // Once the service's records read again, the count is gone.
    unreadableOn[2] = 0;
    unreadableOn[3] = 0;
    await db.pageTags.clear();
    await db.meta.delete('lastCompleteRefresh');
    expect((await refreshWith({ customerPage }).run()).unreadable).toBe(0);
  });

  test('by default it asks at most four pages at once: gentle with a service that many tills page', async () => {
    const source = instrumented();
    const refresh = new CacheRefresh({ api: source.api, db, cache, perPage: 25, yieldToPage: async () => undefined });

    const done = await refresh.run();

    expect(done.state).toBe('idle');
    expect(source.maxInFlight()).toBeLessThanOrEqual(4);
    expect(source.maxInFlight()).toBeGreaterThan(1);
  });

  test('the fetchers stay at most MAX_PAGES_AHEAD pages ahead of what is stored, however long a write takes', async () => {
    const source = instrumented();
    // Every write of customers waits at a gate: nothing is stored until it opens.
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const put = cache.putCustomers.bind(cache);
    cache.putCustomers = async (...args) => {
      await gate;
      return put(...args);
    };
    const putParted = cache.putNewCustomersWhile.bind(cache);
    cache.putNewCustomersWhile = async (...args) => {
      await gate;
      return putParted(...args);
    };
    const refresh = new CacheRefresh({ api: source.api, db, cache, perPage: 10, yieldToPage: async () => undefined });

    const running = refresh.run();
    // The fetchers reach the bound, then have time to pass it if they would.
    await vi.waitFor(() => expect(source.pages.length).toBeGreaterThanOrEqual(MAX_PAGES_AHEAD));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const askedWhileBlocked = [...source.pages];
    open();
    const done = await running;

    expect(Math.max(...askedWhileBlocked)).toBe(MAX_PAGES_AHEAD);
    expect(new Set(askedWhileBlocked).size).toBe(askedWhileBlocked.length);
    expect(done.state).toBe('idle');
    expect(done.pagesDone).toBeGreaterThan(MAX_PAGES_AHEAD);
    expect(await countCustomers(db)).toBe(done.total);
  });

  test('backs off on 429, honouring Retry-After, then carries on', async () => {
    let limited = 0;
    const source = instrumented((payload) => {
      if (payload.page === 2 && limited < 2) {
        limited += 1;
        return {
          ok: false,
          error: { kind: 'rate_limited', status: 429, message: 'Too many requests.', retryAfterMs: 7_000 },
        };
      }
      return null;
    });
    const sleeps: number[] = [];
    const done = await refreshWith(source.api, sleeps).run();
    expect(done.state).toBe('idle');
    expect(sleeps).toHaveLength(2);
    expect(sleeps.every((ms) => ms >= 7_000)).toBe(true);
    expect(source.pages.filter((page) => page === 2)).toHaveLength(3);
  });

  test('stops when the service cannot be reached and resumes from its cursor after a restart', async () => {
    const source = instrumented((payload) =>
      (payload.page ?? 1) >= 3
        ? { ok: false, error: { kind: 'offline', message: 'The loyalty service cannot be reached.' } }
        : null,
    );
    const sleeps: number[] = [];
    const stopped = await refreshWith(source.api, sleeps).run();
    expect(stopped).toMatchObject({ state: 'stopped', resumable: true });
    expect(stopped.stoppedBecause).toEqual({
      reason: 'call_failed',
      message: 'The loyalty service cannot be reached.',
    });
    expect(stopped.lastCompleteRefreshAt).toBeNull();
    expect((await readMeta(db, 'refreshCursor'))?.pagesDone).toBe(2);
    // Back-off between tries grows.
    expect(sleeps.slice(0, 3)).toEqual([...sleeps.slice(0, 3)].sort((a, b) => a - b));

    // "Restart": a new refresh over the same database continues at page 3.
    const resumed = instrumented();
    const done = await refreshWith(resumed.api).run();
    expect(done.state).toBe('idle');
    expect(Math.min(...resumed.pages)).toBe(3);
    expect(await countCustomers(db)).toBe(done.total);
  });

  test('a rejected key stops the run at once, without retries', async () => {
    const source = instrumented(() => ({
      ok: false,
      error: { kind: 'unauthorized', status: 401, message: 'The service rejected the API key.' },
    }));
    const sleeps: number[] = [];
    const stopped = await refreshWith(source.api, sleeps).run();
    expect(stopped).toMatchObject({
      state: 'stopped',
      stoppedBecause: { reason: 'call_failed', message: 'The service rejected the API key.' },
    });
    expect(sleeps).toEqual([]);
    expect(source.pages).toEqual([1]);
  });

  test('a "not modified" to a request that did not ask for it stops the run, keeping the reason, not words', async () => {
    const source = instrumented(() => ({ ok: true, data: null, notModified: true, status: 304 }));
    const stopped = await refreshWith(source.api).run();
    expect(stopped).toMatchObject({ state: 'stopped', stoppedBecause: { reason: 'not_modified_unasked' } });
    expect(source.pages).toEqual([1]);
  });
});

/** Wraps the database's tables at Dexie's DBCore level: `wrap` gives the operations it replaces. */
function wrapTables(middleware: string, wrap: (name: string, table: DBCoreTable) => Partial<DBCoreTable>): void {
  db.use({
    stack: 'dbcore',
    name: middleware,
    create: (down) => ({
      ...down,
      table: (name) => {
        const table = down.table(name);
        return { ...table, ...wrap(name, table) };
      },
    }),
  });
}

/** Counts lookups of stored customers by id (the comparison of a page with what is stored). */
function recordCustomerReads(target: OfflineDb): { count: number } {
  const reads = { count: 0 };
  const where = target.customerBlocks.where.bind(target.customerBlocks);
  target.customerBlocks.where = ((index: string) => {
    const clause = where(index);
    if (index !== 'ids') return clause;
    // `equals` and `anyOf` look customers up by id; a prefix range (offline registrations) does not.
    for (const lookup of ['equals', 'anyOf'] as const) {
      const original = clause[lookup].bind(clause) as (...keys: unknown[]) => unknown;
      (clause as unknown as Record<string, unknown>)[lookup] = (...keys: unknown[]) => {
        reads.count += 1;
        return original(...keys);
      };
    }
    return clause;
  }) as typeof where;
  return reads;
}

/** Every write transaction of customers that committed: the ids it stored, and the cursor and count after it. */
function recordCommits(target: CustomerCache) {
  const commits: { ids: string[]; pagesDone: number | undefined; stored: number; parted: boolean }[] = [];
  const record = async (ids: string[], parted: boolean) =>
    commits.push({
      ids,
      pagesDone: (await readMeta(db, 'refreshCursor'))?.pagesDone,
      stored: await countCustomers(db),
      parted,
    });
  const put = target.putCustomers.bind(target);
  target.putCustomers = async (...args) => {
    const rows = await put(...args);
    await record(
      rows.map((row) => row.id),
      false,
    );
    return rows;
  };
  const putParted = target.putNewCustomersWhile.bind(target);
  target.putNewCustomersWhile = async (...args) => {
    const stored = await putParted(...args);
    if (stored !== null)
      await record(
        args[0].items.slice(0, stored).map((item) => item.id),
        true,
      );
    return stored;
  };
  return commits;
}

/** Page 2 answers only once pages 3 and 4 have arrived: the writer then finds 2, 3 and 4 waiting. */
function pageTwoArrivesLast(): Search {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const arrived = new Set<number>();
  return async (payload) => {
    const page = payload.page ?? 1;
    if (page === 2) await gate;
    const result = await service.api.customerPage(payload);
    arrived.add(page);
    if (arrived.has(3) && arrived.has(4)) release();
    return result;
  };
}

describe('the refresh writer', () => {
  test('stores the pages that have arrived in one transaction that also moves the cursor', async () => {
    const customerPage = pageTwoArrivesLast();
    const commits = recordCommits(cache);
    const perPage = 25;

    const done = await refreshWith({ customerPage }, [], perPage).run();

    expect(done.state).toBe('idle');
    expect(await countCustomers(db)).toBe(done.total);
    // Page 1 alone (nothing else had arrived), then one transaction with pages 2, 3, 4 at least.
    expect(commits[0]).toMatchObject({ pagesDone: 1, stored: perPage });
    expect(commits[1]!.pagesDone).toBeGreaterThanOrEqual(4);
    expect(commits[1]!.ids.length).toBe((commits[1]!.pagesDone! - 1) * perPage);
    // After every transaction, what is stored is exactly the pages the cursor covers.
    let stored = 0;
    for (const commit of commits) {
      stored += commit.ids.length;
      expect(commit.stored).toBe(stored);
      if (commit.pagesDone !== undefined && commit.pagesDone * perPage <= done.total!) {
        expect(commit.stored).toBe(commit.pagesDone * perPage);
      }
    }
    expect(commits.length).toBeLessThan(done.lastPage!);
  });

  // Hundreds of transactions cut short take 6-8 s on a loaded two-core machine: more than the default 5 s.
  test('while the cashier searches, transactions are cut short, and only the last of a batch moves the cursor', async () => {
    const customerPage = pageTwoArrivesLast();
    const commits = recordCommits(cache);
    const perPage = 25;
    let filling = true;
    let searches = 0;
    const cashier = (async () => {
      while (filling) {
        await cache.search('layla');
        searches += 1;
      }
    })();

    const done = await refreshWith({ customerPage }, [], perPage, 10)
      .run()
      .finally(() => (filling = false));
    await cashier;

    expect(done.state).toBe('idle');
    expect(searches).toBeGreaterThan(0);
    expect(await countCustomers(db)).toBe(done.total);
    // No transaction stored more than 10 customers, so pages of 25 took several each.
    expect(commits.every((commit) => commit.ids.length <= 10)).toBe(true);
    expect(commits.length).toBeGreaterThanOrEqual(Math.ceil(done.total! / 10));
    // The cursor never covers a customer not stored: it moves only when its pages are all in.
    let stored = 0;
    let cursor = 0;
    for (const commit of commits) {
      stored += commit.ids.length;
      expect(commit.stored).toBe(stored);
      // No cursor yet: the run's first transactions come before the first page's last one.
      const pagesDone = commit.pagesDone ?? 0;
      expect(pagesDone).toBeGreaterThanOrEqual(cursor);
      expect(Math.min(pagesDone * perPage, done.total!)).toBeLessThanOrEqual(stored);
      cursor = pagesDone;
    }
  }, 30_000);

  /**
   * Starts a cashier's search (outside the write's transaction, as a keystroke's handler
   * is) the first `times` times the refresh's write transactions reach `moment`: while
   * reading what they merge with (the pk counter), or once their blocks are sent.
   */
  function searchDuringWrites(moment: 'reading' | 'writesSent', times: number): Promise<unknown>[] {
    const searched: Promise<unknown>[] = [];
    const search = () => {
      if (searched.length < times) searched.push(Dexie.ignoreTransaction(() => cache.search('layla')));
    };
    wrapTables('search-during-write', (name, table) => ({
      get: (request) => {
        const reading = table.get(request);
        const inWrite = (request.trans as unknown as IDBTransaction).mode === 'readwrite';
        if (moment === 'reading' && name === 'meta' && request.key === 'nextCustomerPk' && inWrite) search();
        return reading;
      },
      mutate: (request) => {
        const storing = table.mutate(request);
        if (moment === 'writesSent' && name === 'customerBlocks') search();
        return storing;
      },
    }));
    return searched;
  }

  function recordInterruptible(): boolean[] {
    const interruptible: boolean[] = [];
    const put = cache.putCustomers.bind(cache);
    cache.putCustomers = (...args) => {
      interruptible.push(args[3]?.interruptible === true);
      return put(...args);
    };
    return interruptible;
  }

  async function expectEveryCustomerOnce(done: RefreshProgress): Promise<void> {
    expect(done.state).toBe('idle');
    const stored = await allCustomers(db);
    expect(stored).toHaveLength(done.total!);
    expect(new Set(stored.map((row) => row.id)).size).toBe(done.total);
    expect(await readMeta(db, 'refreshCursor')).toBeUndefined();
    expect((await readMeta(db, 'lastCompleteRefresh'))?.total).toBe(done.total);
  }

  test("a cashier's search that comes while a write still reads rolls it back instead of waiting; the write is made again, nothing lost or stored twice", async () => {
    const searched = searchDuringWrites('reading', 2);
    const interruptible = recordInterruptible();
    const refresh = refreshWith(instrumented().api);

    const done = await refresh.run();
    await Promise.all(searched);

    expect(searched).toHaveLength(2);
    expect(refresh.interruptedWrites).toBe(2);
    expect(cache.backgroundWritesMetBySearch).toBe(2);
    // Every write of the refresh may give way, but not a third time in a row.
    expect(interruptible.slice(0, 3)).toEqual([true, true, false]);
    await expectEveryCustomerOnce(done);
  });

  test("once a write's requests are sent, a search waits for it: rolling back would cost the search more and waste the write", async () => {
    const searched = searchDuringWrites('writesSent', 2);
    const refresh = refreshWith(instrumented().api);

    const done = await refresh.run();
    const answers = (await Promise.all(searched)) as { customers: { name: string }[] }[];

    expect(answers).toHaveLength(2);
    expect(refresh.interruptedWrites).toBe(0);
    expect(cache.backgroundWritesMetBySearch).toBe(2);
    // The searches answered after the write, with what it stored.
    for (const answer of answers) {
      expect(answer.customers.length).toBeGreaterThan(0);
      for (const row of answer.customers) expect(row.name.toLowerCase()).toContain('layla');
    }
    await expectEveryCustomerOnce(done);
  });

  /**
   * Runs `refresh` while a cashier searches, then reads the answer for `pauseMs`, again and
   * again: their rhythm is known before the first write.
   */
  async function runWhileCashierSearches(refresh: CacheRefresh, pauseMs: number): Promise<RefreshProgress> {
    let filling = true;
    const cashier = (async () => {
      while (filling) {
        await cache.search('omar');
        await new Promise((resolve) => setTimeout(resolve, pauseMs));
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const done = await refresh.run().finally(() => (filling = false));
    await cashier;
    return done;
  }

  function refreshCostingAsIf(cost: { fixedMs: number; msPerCustomer: number }, perPage = 25): CacheRefresh {
    return new CacheRefresh({
      api: instrumented().api,
      db,
      cache,
      perPage,
      random: () => 0.5,
      sleep: async () => undefined,
      yieldToPage: async () => undefined,
      writeCost: new WriteCostModel(cost),
    });
  }

  test("searches that keep meeting writes fitted to the cashier's pauses cut the share of the pause a write may take, a quarter each time", async () => {
    searchDuringWrites('writesSent', Number.POSITIVE_INFINITY);
    // Writes as cheap as this fit the cashier's pauses.
    const refresh = refreshCostingAsIf({ fixedMs: 0.1, msPerCustomer: 0.001 }, 10);

    const done = await runWhileCashierSearches(refresh, 80);

    // Two meetings at least, each a quarter off (and never below the floor).
    expect(refresh.cashierShare).toBeLessThanOrEqual(CASHIER_SHARE.first * CASHIER_SHARE.cut ** 2 + 1e-9);
    expect(refresh.cashierShare).toBeGreaterThanOrEqual(CASHIER_SHARE.min);
    await expectEveryCustomerOnce(done);
  });

  test("when not even a block fits the cashier's pause, a write right after a search takes what the pause pays for beyond the fixed part, and meeting a search does not cut the share", async () => {
    const commits = recordCommits(cache);
    // A search meets the first write only, which could not fit.
    searchDuringWrites('writesSent', 1);
    // A fixed part longer than the pause: nothing fits; 0.01 ms a customer: a pause of 40 ms
    // pays for hundreds beyond it: each write takes the whole batch, not a block of 16.
    const refresh = refreshCostingAsIf({ fixedMs: 1_000, msPerCustomer: 0.01 }, 100);

    const done = await runWhileCashierSearches(refresh, 40);

    expect(commits[0]!.ids.length).toBe(100);
    expect(commits.length).toBeLessThan(done.total! / 50);
    expect(refresh.cashierShare).toBeGreaterThanOrEqual(CASHIER_SHARE.first);
    await expectEveryCustomerOnce(done);
  });

  /** Pages from the real service, each held back `ms` more; records whether each came during a search. */
  function pagesTaking(ms: number, searching: () => boolean) {
    const cameDuringSearch: boolean[] = [];
    const customerPage: Search = async (payload) => {
      const result = await service.api.customerPage(payload);
      await new Promise((resolve) => setTimeout(resolve, ms));
      cameDuringSearch.push(searching());
      return result;
    };
    return { api: { customerPage }, cameDuringSearch };
  }

  /** Counts the cashier's searches in progress; each reads its page of customers `ms` slower. */
  function slowSearches(ms: number): () => boolean {
    let active = 0;
    const search = cache.search.bind(cache);
    cache.search = async (...args) => {
      active += 1;
      try {
        return await search(...args);
      } finally {
        active -= 1;
      }
    };
    wrapTables('slow-search-reads', (name, table) => ({
      getMany: async (request) => {
        const rows = await table.getMany(request);
        const reading = (request.trans as unknown as IDBTransaction).mode === 'readonly';
        if (name === 'customerBlocks' && reading) await new Promise((resolve) => setTimeout(resolve, ms));
        return rows;
      },
    }));
    return () => active > 0;
  }

  test('while the cashier searches, pages are asked for so that they come in the pauses between searches, not during one', async () => {
    // A search of 25 ms every 40 ms: asked at any moment, over a third of the pages would
    // come during one, and handling them would slow it.
    const searching = slowSearches(25);
    const source = pagesTaking(15, searching);

    const done = await runWhileCashierSearches(refreshWith(source.api, [], 10), 40);

    expect(source.cameDuringSearch.length).toBeGreaterThan(20);
    // Asked at any moment, over a third would. The first page comes before its time is known,
    // and on a loaded two-core machine late timers bring a few more: a fifth is the bound.
    expect(source.cameDuringSearch.filter(Boolean).length).toBeLessThanOrEqual(source.cameDuringSearch.length / 5);
    await expectEveryCustomerOnce(done);
  });

  test("pages slower than the cashier's pause still come: each is asked for right after a search", async () => {
    const source = pagesTaking(60, slowSearches(5));

    const done = await runWhileCashierSearches(refreshWith(source.api, [], 50), 20);

    await expectEveryCustomerOnce(done);
  });

  test('a batch that fails to store moves neither its pages nor the cursor; the next run repeats exactly those pages', async () => {
    const commits = recordCommits(cache);
    const write = db.searchChunks.bulkPut.bind(db.searchChunks);
    let writes = 0;
    // The second batch fails inside its transaction, after its rows were put: IndexedDB aborts it.
    db.searchChunks.bulkPut = (async (...args: Parameters<typeof write>) => {
      writes += 1;
      if (writes === 2) throw new Error('disk full');
      return write(...args);
    }) as typeof write;
    const perPage = 25;

    const stopped = await refreshWith(instrumented().api, [], perPage).run();

    expect(stopped).toMatchObject({ state: 'stopped', resumable: true });
    expect(stopped.stoppedBecause).toEqual({ reason: 'not_stored', detail: 'disk full' });
    expect(commits).toHaveLength(1);
    expect((await readMeta(db, 'refreshCursor'))?.pagesDone).toBe(1);
    expect(await countCustomers(db)).toBe(perPage);
    expect((await allCustomers(db)).map((row) => row.id).sort()).toEqual([...commits[0]!.ids].sort());

    db.searchChunks.bulkPut = write;
    const resumed = instrumented();
    const done = await refreshWith(resumed.api, [], perPage).run();

    expect(done.state).toBe('idle');
    expect(Math.min(...resumed.pages)).toBe(2);
    expect(new Set(resumed.pages).size).toBe(resumed.pages.length);
    const committedIds = commits.flatMap((commit) => commit.ids);
    expect(committedIds).toHaveLength(done.total!);
    expect(new Set(committedIds).size).toBe(done.total);
  });

  test('stopped mid-fill and restarted: no page lost, none stored twice', async () => {
    const commits = recordCommits(cache);
    const perPage = 25;
    const first = refreshWith(instrumented().api, [], perPage);
    const stopAfterSecondCommit = first.subscribe((progress) => {
      if (progress.pagesDone >= 2) first.stop();
    });

    const stopped = await first.run();
    stopAfterSecondCommit();

    expect(stopped).toMatchObject({ state: 'stopped', stoppedBecause: { reason: 'stopped' }, resumable: true });
    const cursor = (await readMeta(db, 'refreshCursor'))!;
    expect(cursor.pagesDone).toBeLessThan(cursor.lastPage);
    expect(await countCustomers(db)).toBe(cursor.pagesDone * perPage);

    const resumed = instrumented();
    const done = await refreshWith(resumed.api, [], perPage).run();

    expect(done.state).toBe('idle');
    expect([...resumed.pages].sort((a, b) => a - b)).toEqual(
      Array.from({ length: done.lastPage! - cursor.pagesDone }, (_, i) => cursor.pagesDone + 1 + i),
    );
    const committedIds = commits.flatMap((commit) => commit.ids);
    expect(committedIds).toHaveLength(done.total!);
    expect(new Set(committedIds).size).toBe(done.total);
    expect(await countCustomers(db)).toBe(done.total);
  });
  /** A cashier's pause short enough that a parted write has room for about one part. */
  const SHORT_PAUSE_MS = 5;

  test('a first fill while the cashier searches: its transactions grow part by part within the pauses, pages are split between them, and the cursor never passes what is stored', async () => {
    const commits = recordCommits(cache);
    const perPage = 25;

    const done = await runWhileCashierSearches(refreshWith(instrumented().api, [], perPage), SHORT_PAUSE_MS);

    await expectEveryCustomerOnce(done);
    const parted = commits.filter((commit) => commit.parted);
    // All but the first write (which reads what it merges with) went part by part.
    expect(parted.length).toBeGreaterThan(commits.length / 2);
    // Parts end where blocks do, pages of 25 do not: some transaction ended inside a page.
    expect(parted.some((commit) => commit.ids.length % perPage !== 0)).toBe(true);
    let stored = 0;
    for (const commit of commits) {
      stored += commit.ids.length;
      expect(commit.stored).toBe(stored);
      expect(Math.min((commit.pagesDone ?? 0) * perPage, done.total!)).toBeLessThanOrEqual(stored);
    }
  });

  test('stopped after a transaction that ended inside a page, and restarted: the page is fetched again, its stored customers are not stored twice', async () => {
    const commits = recordCommits(cache);
    const perPage = 25;
    const first = refreshWith(instrumented().api, [], perPage);
    cache.putNewCustomersWhile = (
      (put) =>
      async (...args: Parameters<typeof put>) => {
        const stored = await put(...args);
        if (stored !== null && (await countCustomers(db)) % perPage !== 0) first.stop();
        return stored;
      }
    )(cache.putNewCustomersWhile.bind(cache));

    const stopped = await runWhileCashierSearches(first, SHORT_PAUSE_MS);

    expect(stopped.state).toBe('stopped');
    const cursor = (await readMeta(db, 'refreshCursor'))!;
    expect(await countCustomers(db)).toBeGreaterThan(cursor.pagesDone * perPage);

    const resumed = instrumented();
    const done = await refreshWith(resumed.api, [], perPage).run();

    expect(Math.min(...resumed.pages)).toBe(cursor.pagesDone + 1);
    await expectEveryCustomerOnce(done);
    expect(commits.at(-1)!.stored).toBe(done.total);
  });

  test('customers the cashier looked up before the first fill: the rest are still inserted without a lookup each, and each is stored once', async () => {
    const perPage = 25;
    // Three customers of the last page, as a search at the counter stores them.
    const first = await service.api.customerPage({ page: 1, per_page: perPage });
    if (!first.ok || first.notModified) throw new Error('no first page');
    const last = await service.api.customerPage({ page: first.meta.last_page, per_page: perPage });
    if (!last.ok || last.notModified) throw new Error('no last page');
    const before = await cache.putCustomers(last.data.slice(0, 3));
    const lookups = recordCustomerReads(db);

    const done = await refreshWith(instrumented().api, [], perPage).run();

    expect(done.state).toBe('idle');
    // Only the write holding the three looks its customers up (the last batch of pages);
    // taken as not new, every customer would be.
    expect(lookups.count).toBeLessThan(done.total! / 2);
    const stored = await allCustomers(db);
    expect(stored).toHaveLength(done.total!);
    expect(new Set(stored.map((row) => row.id)).size).toBe(done.total);
    for (const row of before) expect(stored.find((one) => one.id === row.id)?.pk).toBe(row.pk);
  });

  test("the service's order shifts while the till pages (customers come in ahead): pages repeat customers, and each is stored once, across a restart too", async () => {
    const perPage = 25;
    // Customers that came in at the front of the service's list since page 1 was fetched:
    // every later page starts with customers of the page before. More than a block (16),
    // so that the repeated are stored in other blocks than the pks the repeats would get.
    let cameIn = 20;
    const shifted: Search = async (payload) => {
      const page = payload.page ?? 1;
      if (page === 1) return service.api.customerPage(payload);
      const from = (page - 1) * perPage - cameIn;
      const pages = await Promise.all(
        [Math.floor(from / perPage) + 1, Math.floor(from / perPage) + 2].map((real) =>
          service.api.customerPage({ ...payload, page: real }),
        ),
      );
      const [first, second] = pages;
      if (!first!.ok || first!.notModified) return first!;
      if (!second!.ok || second!.notModified) return second!;
      const skip = from - Math.floor(from / perPage) * perPage;
      return { ...first!, data: [...first!.data, ...second!.data].slice(skip, skip + perPage) };
    };
    const first = refreshWith({ customerPage: shifted }, [], perPage);
    const stopAfterSecondCommit = first.subscribe((progress) => {
      if (progress.pagesDone >= 2) first.stop();
    });
    expect((await first.run()).state).toBe('stopped');
    stopAfterSecondCommit();
    // More came in while the till was closed: the first page after the restart repeats
    // customers stored before it, which the new run knows of only by reading the cache.
    cameIn += 20;
    const done = await refreshWith({ customerPage: shifted }, [], perPage).run();

    expect(done.state).toBe('idle');
    const stored = (await allCustomers(db)).map((row) => row.id);
    expect(new Set(stored).size).toBe(stored.length);
    // The service's list up to where the last page, shifted, ends: each customer once.
    const real: string[] = [];
    for (let page = 1; page <= done.lastPage!; page++) {
      const result = await service.api.customerPage({ page, per_page: perPage });
      if (result.ok && !result.notModified) real.push(...result.data.map((row) => row.id));
    }
    expect(stored.sort()).toEqual(real.slice(0, done.lastPage! * perPage - cameIn).sort());
  });
});

describe('a refresh of what the cache already holds', () => {
  /** The real pages, with a record of what was asked and answered; `tags: false` hides the service's entity tags. */
  function observed(options: { tags: boolean }) {
    const asked: { page: number; conditional: boolean; notModified: boolean }[] = [];
    const customerPage: Search = async (payload) => {
      const result = await service.api.customerPage(
        options.tags ? payload : { page: payload.page, per_page: payload.per_page },
      );
      asked.push({
        page: payload.page,
        conditional: payload.if_none_match !== undefined,
        notModified: result.ok && result.notModified === true,
      });
      if (!options.tags && result.ok && !result.notModified) delete result.etag;
      return result;
    };
    return { api: { customerPage }, asked };
  }

  async function renameOnService(): Promise<{ id: string; name: string }> {
    const found = await service.api.searchCustomers({ search: 'Østergaard' });
    if (!found.ok) throw new Error(found.error.message);
    const id = found.data[0]!.id;
    const name = `Søren Østergaard ${Math.random().toString(36).slice(2, 7)}`;
    const updated = await service.api.updateCustomer({ id, name });
    if (!updated.ok) throw new Error(updated.error.message);
    return { id, name };
  }

  test('with entity tags: every page but the first is a 304, nothing is written; a change writes only that customer', async () => {
    const first = observed({ tags: true });
    const filled = await refreshWith(first.api).run();
    expect(filled.state).toBe('idle');
    const lastPage = filled.lastPage!;
    expect(await db.pageTags.count()).toBe(lastPage);
    expect(first.asked.every((ask) => !ask.conditional)).toBe(true);

    const commits = recordCommits(cache);
    const again = observed({ tags: true });
    const refreshed = await refreshWith(again.api).run();
    expect(refreshed).toMatchObject({ state: 'idle', fetched: filled.total, total: filled.total });
    // Page 1 starts a run unconditionally (it carries the page count); the rest are 304s.
    expect(again.asked.filter((ask) => ask.page > 1).every((ask) => ask.conditional && ask.notModified)).toBe(true);
    expect(again.asked.filter((ask) => ask.page > 1)).toHaveLength(lastPage - 1);
    // Nothing to store: not even a transaction for the cursor (the refresh took under 2 s).
    expect(commits).toEqual([]);
    expect(await countCustomers(db)).toBe(filled.total);
    // The customers it confirmed are "from the cache of" this refresh, though not rewritten.
    expect((await cache.search('layla')).cacheOf).toBe(refreshed.lastCompleteRefreshAt);

    const changed = await renameOnService();
    const third = observed({ tags: true });
    commits.length = 0;
    await refreshWith(third.api).run();
    expect(commits.flatMap((commit) => commit.ids)).toEqual([changed.id]);
    expect(third.asked.filter((ask) => !ask.notModified).length).toBeGreaterThanOrEqual(1);
    expect((await cache.getCustomer(changed.id))?.record.customer.name).toBe(changed.name);
  });

  test('without entity tags: every page is fetched, and only the customers that differ are written', async () => {
    const first = observed({ tags: false });
    const filled = await refreshWith(first.api).run();
    // No entity tags, but each page's content hash.
    const tags = await db.pageTags.toArray();
    expect(tags).toHaveLength(filled.lastPage!);
    expect(tags.every((tag) => tag.etag === undefined && typeof tag.contentHash === 'string')).toBe(true);
    const reads = recordCustomerReads(db);
    const before = await allCustomers(db);

    const commits = recordCommits(cache);
    const again = observed({ tags: false });
    await refreshWith(again.api).run();
    expect(again.asked.every((ask) => !ask.conditional)).toBe(true);
    expect(again.asked).toHaveLength(filled.lastPage!);
    expect(commits).toEqual([]);
    // Every page hashed as stored: not one stored customer was read back to compare.
    expect(reads.count).toBe(0);
    // Not rewritten: the rows are exactly as they were, fetch times included.
    expect(await allCustomers(db)).toEqual(before);

    const changed = await renameOnService();
    await refreshWith(observed({ tags: false }).api).run();
    expect(commits.slice(-filled.lastPage!).flatMap((commit) => commit.ids)).toEqual([changed.id]);
    expect((await cache.getCustomer(changed.id))?.record.customer.name).toBe(changed.name);
  });
});

describe("the share of the cashier's pause a write may take", () => {
  test('a write a search met cuts it by a quarter, down to a floor; one none met grows it a little, up to a ceiling', () => {
    expect(adaptedCashierShare(0.6, true)).toBeCloseTo(0.45);
    expect(adaptedCashierShare(0.6, false)).toBeCloseTo(0.605);
    let share: number = CASHIER_SHARE.first;
    for (let i = 0; i < 20; i++) share = adaptedCashierShare(share, true);
    expect(share).toBe(CASHIER_SHARE.min);
    for (let i = 0; i < 1_000; i++) share = adaptedCashierShare(share, false);
    expect(share).toBe(CASHIER_SHARE.max);
    // About one write met in forty keeps it steady: searches rarely wait.
    const steady = Array.from({ length: 400 }, (_, i) => i % 40 === 0).reduce(adaptedCashierShare, 0.5);
    expect(steady).toBeGreaterThan(CASHIER_SHARE.min);
    expect(steady).toBeLessThan(CASHIER_SHARE.max);
  });
});

describe('when a refresh is due', () => {
  const idle: RefreshProgress = {
    state: 'idle',
    unreadable: 0,
    pagesDone: 0,
    lastPage: null,
    fetched: 0,
    total: null,
    lastCompleteRefreshAt: null,
    stoppedBecause: null,
    stoppedAt: null,
    resumable: false,
  };
  const at = new Date('2026-03-01T12:00:00Z');
  const HOUR = 3_600_000;

  test('never refreshed, or left part-way: at once; never while running', () => {
    expect(refreshDue(idle, at, 6 * HOUR, 60_000)).toBe(true);
    expect(
      refreshDue({ ...idle, lastCompleteRefreshAt: '2026-03-01T11:00:00Z', resumable: true }, at, 6 * HOUR, 60_000),
    ).toBe(true);
    expect(refreshDue({ ...idle, state: 'running' }, at, 6 * HOUR, 60_000)).toBe(false);
  });

  test('complete: again only once it is older than the interval', () => {
    expect(
      refreshDue({ ...idle, lastCompleteRefreshAt: '2026-03-01T11:00:00Z', lastPage: 4 }, at, 6 * HOUR, 60_000),
    ).toBe(false);
    expect(
      refreshDue({ ...idle, lastCompleteRefreshAt: '2026-03-01T05:00:00Z', lastPage: 4 }, at, 6 * HOUR, 60_000),
    ).toBe(true);
  });

  test('stopped: not hammered, retried after the pause', () => {
    const stopped = { ...idle, state: 'stopped' as const, resumable: true, stoppedAt: '2026-03-01T11:59:30Z' };
    expect(refreshDue(stopped, at, 6 * HOUR, 60_000)).toBe(false);
    expect(refreshDue({ ...stopped, stoppedAt: '2026-03-01T11:58:00Z' }, at, 6 * HOUR, 60_000)).toBe(true);
  });
});
