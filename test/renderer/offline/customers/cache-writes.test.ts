import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { Dexie } from 'dexie';
import {
  CustomerCache,
  WriteInterrupted,
  prepareCustomers,
  type CacheSearchResult,
  type WriteOptions,
} from '../../../../renderer/offline/cache/customer-cache';
import { StoredIds } from '../../../../renderer/offline/customers/stored-ids';
import { PartedWritePace } from '../../../../renderer/offline/pacing/write-cost';
import { readMeta, writeMeta } from '../../../../renderer/offline/db/meta';
import { keyringOf } from '../../../../renderer/offline/db/sealed-tables';
import type { OfflineDb } from '../../../../renderer/offline/db/schema';
import { linesOf, parseSearchLine } from '../../../../renderer/offline/search/search-chunks';
import { phoneDigestOf } from '../../../../renderer/offline/search/phone-digests';
import { customer, dropDb, freshDb, recordStoreCalls, type StoreCall } from '../support/fixtures';
import { allCustomers, countCustomers, getCustomerRow } from '../../../support/offline-rows';
import {
  addCustomerRow,
  BLOCK_SIZE,
  customerTables,
  partSizes,
  putCustomerRows,
} from '../../../../renderer/offline/customers/customer-blocks';

let db: OfflineDb;
let cache: CustomerCache;
let calls: StoreCall[];
/** As a fill writes: its customers taken to be new unless the ids stored (loaded at the start) say otherwise. */
let asNew: WriteOptions;
beforeEach(async () => {
  db = freshDb();
  calls = recordStoreCalls(db);
  cache = new CustomerCache(db, { defaultCountry: () => 'SA' });
  await cache.loadIndex({ yieldToPage: async () => undefined });
  asNew = { onlyChanged: true, expectNew: await StoredIds.load(db) };
});
afterEach(async () => {
  asNew.expectNew!.close();
  await dropDb(db);
});

const people = (from: number, count: number, name = 'Person') =>
  Array.from({ length: count }, (_, i) =>
    customer(
      `c-${from + i}`,
      `${name}${from + i} Haddad`,
      `+966 55 ${String(1_000_000 + from + i).slice(0, 3)} ${String(1_000_000 + from + i).slice(3)}`,
    ),
  );

/**
 * Counts lookups of customers by id from now on: an exact read or an `anyOf` cursor over
 * the blocks' id index (the range read of offline registrations is not one).
 */
function countLookups(): { readonly count: number } {
  const from = calls.length;
  const isLookup = (call: StoreCall) =>
    call.table === 'customerBlocks' &&
    call.index === 'ids' &&
    (call.op === 'openCursor' || (call.op === 'query' && call.rangeType === 1));
  return {
    get count() {
      return calls.slice(from).filter(isLookup).length;
    },
  };
}

async function expectConsistent(): Promise<void> {
  const rows = await allCustomers(db);
  const lines = (await db.searchChunks.toArray()).flatMap(linesOf).map(parseSearchLine);
  expect(lines.map((line) => line.pk).sort((a, b) => a - b)).toEqual(rows.map((row) => row.pk!).sort((a, b) => a - b));
  expect(new Set(rows.map((row) => row.id)).size).toBe(rows.length);
}

test('new customers expected new are inserted without a lookup each, with their search lines and index entries', async () => {
  const lookups = countLookups();
  const stored = await cache.putCustomers(people(1, 30), undefined, undefined, asNew);
  expect(stored).toHaveLength(30);
  expect(lookups.count).toBe(0);
  expect(await countCustomers(db)).toBe(30);
  await expectConsistent();
  expect((await cache.search('person17')).customers.map((row) => row.id)).toEqual(['c-17']);
});

test('expected new but one is stored already: the stored ids say so, and the write goes the usual way, no duplicate, its pk kept', async () => {
  const [before] = await cache.putCustomers([customer('c-5', 'Old Name', '+966 55 100 0005')]);
  const lookups = countLookups();
  const stored = await cache.putCustomers(people(1, 10), undefined, undefined, asNew);
  expect(stored).toHaveLength(10);
  // The usual way looked every one up.
  expect(lookups.count).toBe(10);
  expect(await countCustomers(db)).toBe(10);
  expect((await cache.getCustomer('c-5'))?.record.pk).toBe(before!.pk);
  expect((await cache.getCustomer('c-5'))?.record.customer.name).toBe('Person5 Haddad');
  await expectConsistent();
  expect((await cache.search('old name')).total).toBe(0);
  expect((await cache.search('person5')).customers.map((row) => row.id)).toEqual(['c-5']);
});

test('expected new but one is stored in an earlier block: written the usual way, no duplicate', async () => {
  await cache.putCustomers(people(1, 40, 'First'));
  const before = await cache.getCustomer('c-3');
  const stored = await cache.putCustomers([...people(41, 20), ...people(3, 1)], undefined, undefined, asNew);
  expect(stored).toHaveLength(21);
  expect(await countCustomers(db)).toBe(60);
  expect((await cache.getCustomer('c-3'))?.record.pk).toBe(before!.record.pk);
  expect((await cache.getCustomer('c-3'))?.record.customer.name).toBe('Person3 Haddad');
  await expectConsistent();
});

test('a customer registered offline is matched by phone even when the page was expected new', async () => {
  const pk = await db.transaction('rw', customerTables(db), async () =>
    addCustomerRow(db, {
      id: 'local-1',
      phoneE164: '+966551000003',
      nameWords: ['person3'],
      customer: customer('local-1', 'Person3', '+966 55 100 0003'),
      fetchedAt: '2026-01-01T00:00:00.000Z',
      localOnly: true,
    }),
  );
  const local = await getCustomerRow(db, pk);
  await cache.putCustomers(people(1, 5), undefined, undefined, asNew);
  expect(await countCustomers(db)).toBe(5);
  const merged = await cache.getCustomer('c-3');
  expect(merged?.record.pk).toBe(local!.pk);
  expect(merged?.record.localOnly).toBeUndefined();
});

test("a fill's next write of new customers is sent without reading first, from what the last one left; every block and line is as if read", async () => {
  // 30 then 25 then 40: the second and third share a partly filled block and chunk with the one before.
  await cache.putCustomers(people(1, 30), undefined, undefined, asNew);
  expect(cache.writesSentWithoutReading).toBe(0);
  await cache.putCustomers(people(31, 25), undefined, undefined, asNew);
  await cache.putCustomers(people(56, 40), undefined, undefined, asNew);
  expect(cache.writesSentWithoutReading).toBe(2);

  expect(await countCustomers(db)).toBe(95);
  const rows = await allCustomers(db);
  expect(rows.map((row) => row.pk)).toEqual(Array.from({ length: 95 }, (_, i) => i + 1));
  expect(rows.map((row) => row.id)).toEqual(people(1, 95).map((person) => person.id));
  expect(await readMeta(db, 'nextCustomerPk')).toBe(96);
  await expectConsistent();
  expect((await cache.search('person44')).customers.map((row) => row.id)).toEqual(['c-44']);
});

test('a write from elsewhere between two fill writes: the kept context is found stale, nothing of the planned write is kept, and it is written the usual way without losing the other', async () => {
  await cache.putCustomers(people(1, 20), undefined, undefined, asNew);
  // A customer of the last, partly filled block changes meanwhile (a redemption, an edit on
  // another path), outside this cache's own writes.
  const changed = { ...(await cache.getCustomer('c-18'))!.record };
  changed.customer = { ...changed.customer, name: 'Changed Elsewhere' };
  await db.transaction('rw', customerTables(db), async () => {
    await putCustomerRows(db, [changed], [changed]);
  });

  await cache.putCustomers(people(21, 10), undefined, undefined, asNew);

  expect(cache.writesSentWithoutReading).toBe(0);
  expect((await cache.getCustomer('c-18'))?.record.customer.name).toBe('Changed Elsewhere');
  expect(await countCustomers(db)).toBe(30);
  await expectConsistent();
});

test('a customer registered offline after the last fill write: the next is not sent from the kept context, and the customer is matched by phone', async () => {
  await cache.putCustomers(people(1, 5), undefined, undefined, asNew);
  // Registered offline: a new pk, so the kept counter is stale as well.
  const pk = await db.transaction('rw', customerTables(db), async () =>
    addCustomerRow(db, {
      id: 'local-9',
      phoneE164: '+966551000009',
      nameWords: ['person9'],
      customer: customer('local-9', 'Person9', '+966 55 100 0009'),
      fetchedAt: '2026-01-01T00:00:00.000Z',
      localOnly: true,
    }),
  );

  await cache.putCustomers(people(6, 5), undefined, undefined, asNew);

  expect(cache.writesSentWithoutReading).toBe(0);
  expect(await countCustomers(db)).toBe(10);
  expect((await cache.getCustomer('c-9'))?.record.pk).toBe(pk);
  await expectConsistent();
});

test('a kept context that fails to confirm rolls the planned write back whole, its companion writes included', async () => {
  await cache.putCustomers(people(1, 20), undefined, undefined, asNew);
  // Another pk allocated behind the cache's back (as another path's new customer would).
  await writeMeta(db, 'nextCustomerPk', 40);
  const companion: boolean[] = [];
  await cache.putCustomers(
    people(21, 10),
    undefined,
    {
      tables: [db.pageTags],
      write: async () => {
        companion.push(true);
        await db.pageTags.put({ page: companion.length, perPage: 100, contentHash: 'h' });
      },
    },
    asNew,
  );
  expect(cache.writesSentWithoutReading).toBe(0);
  // Written twice (planned, then the usual way); only the second kept its companion.
  expect(companion).toHaveLength(2);
  expect((await db.pageTags.toArray()).map((tag) => tag.page)).toEqual([2]);
  expect((await allCustomers(db)).slice(20).map((row) => row.pk)).toEqual(Array.from({ length: 10 }, (_, i) => 40 + i));
  await expectConsistent();
});

test("a fill's page repeating customers of the page before (the service's order shifted): each stays one customer under its pk, and only that write looks them up", async () => {
  await cache.putCustomers(people(1, 40), undefined, undefined, asNew);
  const before = await cache.getCustomer('c-3');
  const lookups = countLookups();
  // Five new, then five of the first block: they would go to other blocks than their own.
  // It would be sent from the kept context, but the stored ids hold the repeated ones.
  await cache.putCustomers([...people(41, 5), ...people(3, 5, 'Moved')], undefined, undefined, asNew);
  expect(cache.writesSentWithoutReading).toBe(0);
  expect(lookups.count).toBe(10);
  // New again: inserted without a lookup.
  await cache.putCustomers(people(46, 10), undefined, undefined, asNew);
  expect(lookups.count).toBe(10);

  expect(await countCustomers(db)).toBe(55);
  expect((await cache.getCustomer('c-3'))?.record.pk).toBe(before!.record.pk);
  expect((await cache.getCustomer('c-3'))?.record.customer.name).toBe('Moved3 Haddad');
  await expectConsistent();
});

describe("a customer stored by another write while a fill's write is on its way: stored once, whichever runs first", () => {
  // Far enough into the fill's page that the fill would store it in another block than the other write.
  const lookedUpAlone = customer('c-58', 'Looked Up', '+966 55 100 0058');
  for (const kept of [false, true]) {
    for (const first of ['the other write', "the fill's"] as const) {
      test(`${first} first, ${kept ? 'the fill writing from its kept context' : "the fill's first write"}`, async () => {
        if (kept) await cache.putCustomers(people(1, 20), undefined, undefined, asNew);
        const fillPage = people(21, 40);
        // Neither awaited before the other starts: their transactions queue in this order.
        const writes =
          first === 'the other write'
            ? [cache.putCustomers([lookedUpAlone]), cache.putCustomers(fillPage, undefined, undefined, asNew)]
            : [cache.putCustomers(fillPage, undefined, undefined, asNew), cache.putCustomers([lookedUpAlone])];
        await Promise.all(writes);

        expect(await countCustomers(db)).toBe(kept ? 60 : 40);
        const rows = await allCustomers(db);
        expect(rows.filter((row) => row.id === 'c-58')).toHaveLength(1);
        const latest = first === 'the other write' ? 'Person58 Haddad' : 'Looked Up';
        expect((await cache.getCustomer('c-58'))?.record.customer.name).toBe(latest);
        await expectConsistent();
      });
    }
  }
});

describe("a fill's parted write: one transaction that grows part by part while there is time", () => {
  const PART = 64;
  /** What the parted write's companion was told, and a record of it in the same transaction. */
  function companion(): {
    told: number[];
    alongside: { tables: [typeof db.pageTags]; write: (n: number) => Promise<void> };
  } {
    const told: number[] = [];
    return {
      told,
      alongside: {
        tables: [db.pageTags],
        write: async (stored) => {
          told.push(stored);
          await db.pageTags.put({ page: told.length, perPage: 100, contentHash: `stored ${stored}` });
        },
      },
    };
  }
  /**
   * A cashier's search for 'person', started as the second part's blocks are sent (outside
   * the write's transaction, as a keystroke): its answer, once the write is done.
   */
  function searchAsSecondPartIsSent(): () => Promise<CacheSearchResult> {
    let searching: Promise<CacheSearchResult> | null = null;
    let blockWrites = 0;
    const bulkPut = db.customerBlocks.bulkPut.bind(db.customerBlocks);
    db.customerBlocks.bulkPut = ((...args: Parameters<typeof bulkPut>) => {
      if (++blockWrites === 2) searching = Dexie.ignoreTransaction(() => cache.search('person'));
      return bulkPut(...args);
    }) as typeof bulkPut;
    return () => searching!;
  }

  const asParted = (deadline: number, alongside: ReturnType<typeof companion>['alongside']) => ({
    storedIds: asNew.expectNew!,
    deadline,
    alongside,
  });

  test('parts end where blocks end: the first is cut to the next block boundary, the last takes what is left', () => {
    expect(partSizes(150, 5, PART)).toEqual([PART - 5, PART, 150 - (PART - 5) - PART]);
    expect(partSizes(40, 16, PART)).toEqual([40]);
    expect(partSizes(0, 3, PART)).toEqual([]);
    for (const nextPk of [1, 7, 16, 33]) {
      let pk = nextPk;
      for (const size of partSizes(500, nextPk, PART).slice(0, -1)) {
        pk += size;
        expect(pk % BLOCK_SIZE).toBe(0);
      }
    }
  });

  test('with its deadline past it writes its first part only, tells its companion how many, and the next one carries on from where it stopped', async () => {
    // The first write of a fill reads what it merges with; the ones after go from what it left.
    await cache.putCustomers(people(1, 21), undefined, undefined, asNew);
    const first = companion();
    const stored = await cache.putNewCustomersWhile(
      prepareCustomers(people(22, 200)),
      '2026-01-02T00:00:00.000Z',
      asParted(performance.now() - 1, first.alongside),
    );
    // pks 22.. : the first part ends where block 4 (pks 64..79) begins.
    expect(stored).toBe(PART - (22 % BLOCK_SIZE));
    expect(first.told).toEqual([stored]);
    expect(await countCustomers(db)).toBe(21 + stored!);
    expect(await db.pageTags.toArray()).toEqual([{ page: 1, perPage: 100, contentHash: `stored ${stored}` }]);
    expect(cache.index.size).toBe(21 + stored!);
    await expectConsistent();

    const rest = companion();
    const more = await cache.putNewCustomersWhile(
      prepareCustomers(people(22 + stored!, 200 - stored!)),
      '2026-01-02T00:00:00.000Z',
      asParted(Number.POSITIVE_INFINITY, rest.alongside),
    );
    expect(more).toBe(200 - stored!);
    expect(rest.told).toEqual([more]);
    const rows = await allCustomers(db);
    expect(rows.map((row) => row.id)).toEqual(people(1, 221).map((person) => person.id));
    expect(rows.map((row) => row.pk)).toEqual(Array.from({ length: 221 }, (_, i) => i + 1));
    expect(await readMeta(db, 'nextCustomerPk')).toBe(222);
    expect(cache.writesSentWithoutReading).toBe(2);
    await expectConsistent();
    expect((await cache.search('person150')).customers.map((row) => row.id)).toEqual(['c-150']);
  });

  test('its first part teaches the pace too, so a write that had time for one part only still learns what parts cost', async () => {
    await cache.putCustomers(people(1, 16), undefined, undefined, asNew);
    const observed = vi.spyOn(PartedWritePace.prototype, 'observePart');
    try {
      const stored = await cache.putNewCustomersWhile(
        prepareCustomers(people(17, 200)),
        '2026-01-02T00:00:00.000Z',
        asParted(performance.now() - 1, companion().alongside),
      );
      const [first] = partSizes(200, 17, PART);
      expect(stored).toBe(first);
      // Timed from the end of the confirming reads, which run before it: its own writes.
      expect(observed.mock.calls).toEqual([[first, expect.any(Number)]]);
      expect(observed.mock.calls[0]![1]).toBeGreaterThanOrEqual(0);
    } finally {
      observed.mockRestore();
    }
  });

  test("a cashier's search that starts during it stops it after the parts already sent, which the search waits for", async () => {
    // A search that reads IndexedDB: the listings have not loaded (memory answers without reading, below).
    cache.listings.close();
    await cache.putCustomers(people(1, 16), undefined, undefined, asNew);
    const searching = searchAsSecondPartIsSent();
    const { told, alongside } = companion();
    const stored = await cache.putNewCustomersWhile(
      prepareCustomers(people(17, 640)),
      '2026-01-02T00:00:00.000Z',
      asParted(Number.POSITIVE_INFINITY, alongside),
    );
    // Sent before the search began: the first part, the second, and at most the one after
    // (a part is decided while the one before is in flight).
    const [first, second, third] = partSizes(640, 17, PART);
    expect(stored).toBeGreaterThanOrEqual(first! + second!);
    expect(stored).toBeLessThanOrEqual(first! + second! + third!);
    expect(told).toEqual([stored]);
    expect(cache.backgroundWritesMetBySearch).toBe(1);
    // It found what was stored when it began, and read it once the write had committed.
    expect((await searching()).total).toBe(16);
    expect((await cache.search('person')).total).toBe(16 + stored!);
    await expectConsistent();
  });

  test('searches that memory answers read nothing and are not the cashier whom background writers make way for: a fill write goes on through them', async () => {
    await cache.putCustomers(people(1, 16), undefined, undefined, asNew);
    let now = 10_000;
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => now);
    try {
      for (let i = 0; i < 4; i++) {
        calls.length = 0;
        expect((await cache.search('person')).total).toBe(16);
        expect(calls).toEqual([]);
        now += 40;
      }
      expect(cache.expectedSearchIn()).toBeNull();
    } finally {
      clock.mockRestore();
    }
    // A search while a parted write sends its parts: nothing stops it, the search answers at once.
    const searching = searchAsSecondPartIsSent();
    const { alongside } = companion();
    const stored = await cache.putNewCustomersWhile(
      prepareCustomers(people(17, 400)),
      '2026-01-02T00:00:00.000Z',
      asParted(Number.POSITIVE_INFINITY, alongside),
    );
    expect(stored).toBe(400);
    expect(cache.backgroundWritesMetBySearch).toBe(0);
    // It answered with what had committed before it: the write's customers show once it has.
    expect((await searching()).total).toBe(16);
    expect((await cache.search('person')).total).toBe(16 + 400);
    await expectConsistent();
  });

  test('it goes only from a kept context and with customers the stored ids do not hold; otherwise it stores nothing and says so', async () => {
    const { told, alongside } = companion();
    // No write of the fill before it: nothing kept to go from.
    expect(
      await cache.putNewCustomersWhile(prepareCustomers(people(1, 10)), 'x', asParted(Infinity, alongside)),
    ).toBeNull();
    await cache.putCustomers(people(1, 10), undefined, undefined, asNew);
    // Its first part holds a stored customer.
    expect(
      await cache.putNewCustomersWhile(
        prepareCustomers([...people(5, 1), ...people(11, 5)]),
        'x',
        asParted(Infinity, alongside),
      ),
    ).toBeNull();
    expect(told).toEqual([]);
    expect(await countCustomers(db)).toBe(10);
    await expectConsistent();
  });

  test('a later part holding a stored customer ends the write before it; what was written stays, each customer once', async () => {
    await cache.putCustomers(people(1, 16), undefined, undefined, asNew);
    const { told, alongside } = companion();
    // Two parts' worth of new customers (pks from 17: the first part is cut to end at 63),
    // then one stored already.
    const twoParts = PART - 1 + PART;
    const stored = await cache.putNewCustomersWhile(
      prepareCustomers([...people(17, twoParts), ...people(3, 1), ...people(500, 10)]),
      'x',
      asParted(Infinity, alongside),
    );
    expect(stored).toBe(twoParts);
    expect(told).toEqual([twoParts]);
    expect(await countCustomers(db)).toBe(16 + twoParts);
    expect((await cache.getCustomer('c-3'))?.record.customer.name).toBe('Person3 Haddad');
    await expectConsistent();
  });

  test('a kept context found stale rolls it back whole, its companion included, and it says so', async () => {
    await cache.putCustomers(people(1, 20), undefined, undefined, asNew);
    // Another pk allocated behind the cache's back.
    await writeMeta(db, 'nextCustomerPk', 40);
    const { told, alongside } = companion();
    const stored = await cache.putNewCustomersWhile(
      prepareCustomers(people(21, 100)),
      'x',
      asParted(Infinity, alongside),
    );
    expect(stored).toBeNull();
    expect(told).toEqual([100]);
    expect(await db.pageTags.count()).toBe(0);
    expect(await countCustomers(db)).toBe(20);
    expect(cache.index.size).toBe(20);
    await expectConsistent();
  });

  /**
   * The cashier's own work (a redemption being queued) begins as the `part`th part's blocks are
   * sent, and lasts until `done`.
   */
  function cashierComesAtPart(part: number): { done(): Promise<void> } {
    let released: () => void = () => undefined;
    let holding: Promise<void> | null = null;
    let blockWrites = 0;
    const bulkPut = db.customerBlocks.bulkPut.bind(db.customerBlocks);
    db.customerBlocks.bulkPut = ((...args: Parameters<typeof bulkPut>) => {
      if (++blockWrites === part) {
        holding = Dexie.ignoreTransaction(() => cache.asCashier(() => new Promise<void>((r) => (released = r))));
      }
      return bulkPut(...args);
    }) as typeof bulkPut;
    return {
      async done() {
        released();
        await holding;
      },
    };
  }

  test("a redemption being queued (the cashier's own work) stops it after the parts already sent, and is not counted as a search", async () => {
    await cache.putCustomers(people(1, 16), undefined, undefined, asNew);
    const cashier = cashierComesAtPart(2);
    const { told, alongside } = companion();
    const stored = await cache.putNewCustomersWhile(
      prepareCustomers(people(17, 640)),
      '2026-01-02T00:00:00.000Z',
      asParted(Number.POSITIVE_INFINITY, alongside),
    );
    await cashier.done();
    const [first, second, third] = partSizes(640, 17, PART);
    expect(stored).toBeGreaterThanOrEqual(first! + second!);
    expect(stored).toBeLessThanOrEqual(first! + second! + third!);
    expect(told).toEqual([stored]);
    // Not a search: the share of the cashier's pause the fill takes is not cut for it.
    expect(cache.backgroundWritesMetBySearch).toBe(0);
    await expectConsistent();
  });

  test('parts planned and sealed before the transaction opens are written as sealed, nothing sealed inside it, and read back whole', async () => {
    await cache.putCustomers(people(1, 16), undefined, undefined, asNew);
    const customers = prepareCustomers(people(17, 300));
    const at = '2026-01-02T00:00:00.000Z';
    const ahead = await cache.sealNewCustomersAhead(customers, at);
    expect(ahead!.parts.map((part) => part.plan.changes.length)).toEqual(partSizes(300, 17, PART));
    const sealedInside = vi.spyOn(keyringOf(db), 'seal');
    try {
      const { alongside } = companion();
      const stored = await cache.putNewCustomersWhile(customers, at, { ...asParted(Infinity, alongside), ahead });
      expect(stored).toBe(300);
      // The blocks, and the search chunks and listings as the last part left them, were sealed ahead.
      expect(sealedInside.mock.calls.map(([, context]) => context)).toEqual([]);
    } finally {
      sealedInside.mockRestore();
    }
    const rows = await allCustomers(db);
    expect(rows.map((row) => row.id)).toEqual(people(1, 316).map((person) => person.id));
    expect((await cache.getCustomer('c-200'))?.record.customer.name).toBe('Person200 Haddad');
    await expectConsistent();
  });

  test("sealing ahead waits for the cashier's own work before each part: a redemption being queued has the page's thread", async () => {
    await cache.putCustomers(people(1, 16), undefined, undefined, asNew);
    let released: () => void = () => undefined;
    const holding = cache.asCashier(() => new Promise<void>((resolve) => (released = resolve)));
    let sealed = false;
    const sealing = cache.sealNewCustomersAhead(prepareCustomers(people(17, 300)), 'x').then((ahead) => {
      sealed = true;
      return ahead;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sealed).toBe(false);
    released();
    await holding;
    expect((await sealing)!.parts.map((part) => part.plan.changes.length)).toEqual(partSizes(300, 17, PART));
  });

  test("the parts' phone digests are computed before the transaction opens, and stored as the chunks' own", async () => {
    await cache.putCustomers(people(1, 16), undefined, undefined, asNew);
    const customers = prepareCustomers(people(17, 300));
    const ahead = await cache.sealNewCustomersAhead(customers, 'x');
    // The keyed HMAC each new digest starts from (sealing/keyring.ts `mac`); a digest computed before is looked up.
    const hmac = (keyringOf(db) as unknown as { keyed: { _cloneInto(): unknown } }).keyed;
    const computedInside = vi.spyOn(hmac, '_cloneInto');
    try {
      const { alongside } = companion();
      expect(await cache.putNewCustomersWhile(customers, 'x', { ...asParted(Infinity, alongside), ahead })).toBe(300);
      expect(computedInside).not.toHaveBeenCalled();
      // Without parts sealed ahead, the same write computes them inside (the spy sees HMACs).
      const rest = companion();
      const more = prepareCustomers(people(400, 40));
      expect(await cache.putNewCustomersWhile(more, 'x', asParted(Infinity, rest.alongside))).toBe(40);
      expect(computedInside).toHaveBeenCalled();
    } finally {
      computedInside.mockRestore();
    }
    const digests = new Map((await db.phoneDigests.toArray()).map((digest) => [digest.chunk, digest]));
    for (const chunk of await db.searchChunks.toArray()) {
      expect(digests.get(chunk.chunk)?.hashes).toEqual(phoneDigestOf(db, chunk).hashes);
    }
    await expectConsistent();
  });

  test('a write stopped after some parts sends the search chunks and listings its last part left, sealed ahead', async () => {
    await cache.putCustomers(people(1, 16), undefined, undefined, asNew);
    const customers = prepareCustomers(people(17, 640));
    const ahead = await cache.sealNewCustomersAhead(customers, 'x');
    // The cashier comes as the second part is sent: no part after it.
    const cashier = cashierComesAtPart(2);
    const sealedInside = vi.spyOn(keyringOf(db), 'seal');
    let stored: number | null;
    try {
      const { alongside } = companion();
      stored = await cache.putNewCustomersWhile(customers, 'x', { ...asParted(Infinity, alongside), ahead });
      expect(sealedInside).not.toHaveBeenCalled();
    } finally {
      sealedInside.mockRestore();
      await cashier.done();
    }
    const [first, second] = partSizes(640, 17, PART);
    expect(stored).toBeGreaterThanOrEqual(first! + second!);
    expect(stored).toBeLessThan(640);
    await expectConsistent();
    // The listings stored hold the customers stored, no more (those of the parts not sent are not there).
    const listed = (await db.listingChunks.toArray()).flatMap(({ offsets, lines }) =>
      [...offsets].filter((start, slot) => (offsets[slot + 1] ?? lines.length) > start),
    );
    expect(listed).toHaveLength(16 + stored!);
    const fresh = new CustomerCache(db, { defaultCountry: () => 'SA' });
    await fresh.loadIndex({ yieldToPage: async () => undefined });
    expect((await fresh.search('person17')).customers.map((row) => row.id)).toEqual(['c-17']);
    const lastStored = 16 + stored!;
    expect((await fresh.search(`person${lastStored}`)).customers.map((row) => row.id)).toEqual([`c-${lastStored}`]);
    expect((await fresh.search(`person${lastStored + 1}`)).total).toBe(0);
  });

  test('parts sealed ahead from a context no longer kept are not used: the write plans and seals as it goes', async () => {
    await cache.putCustomers(people(1, 16), undefined, undefined, asNew);
    const customers = prepareCustomers(people(17, 100));
    const ahead = await cache.sealNewCustomersAhead(customers, 'x');
    // Another write of the fill moves the kept context on: the blocks sealed ahead would overwrite it.
    const { alongside } = companion();
    expect(
      await cache.putNewCustomersWhile(prepareCustomers(people(200, 20)), 'x', asParted(Infinity, alongside)),
    ).toBe(20);
    const rest = companion();
    expect(await cache.putNewCustomersWhile(customers, 'x', { ...asParted(Infinity, rest.alongside), ahead })).toBe(
      100,
    );
    const ids = (await allCustomers(db)).map((row) => row.id).sort();
    expect(ids).toEqual([...people(1, 116), ...people(200, 20)].map((person) => person.id).sort());
    await expectConsistent();
  });
});

test('prepared customers keep one entry per id, the last one given', () => {
  const prepared = prepareCustomers([
    customer('c-1', 'First', '+966 55 100 0001'),
    customer('c-2', 'Two', '+966 55 100 0002'),
    customer('c-1', 'Again', '+966 55 100 0001'),
  ]);
  expect(prepared.items.map((item) => [item.id, item.record.name])).toEqual([
    ['c-2', 'Two'],
    ['c-1', 'Again'],
  ]);
  expect(prepared.items[1]!.phoneE164).toBe('+966551000001');
  expect(prepared.items[1]!.nameWords).toEqual(['again']);
});

test('an interruptible write that a search interrupts stores nothing, its companion writes included, and says so', async () => {
  // A search that reads IndexedDB: the listings have not loaded.
  cache.listings.close();
  // One customer stored already, whom the search will find and read.
  await cache.putCustomers(people(100, 1));
  const chunksBefore = await db.searchChunks.toArray();
  let searching: Promise<unknown> | null = null;
  const writing = cache.putCustomers(
    people(1, 40),
    undefined,
    {
      tables: [db.meta],
      write: async () => {
        // The cashier types while the write is in progress (outside its transaction, as a keystroke).
        searching = Dexie.ignoreTransaction(() => cache.search('person1'));
        await writeMeta(db, 'lastCompleteRefresh', { at: '2026-01-01T00:00:00.000Z', total: 40 });
      },
    },
    { interruptible: true },
  );
  await expect(writing).rejects.toBeInstanceOf(WriteInterrupted);
  expect(((await searching!) as CacheSearchResult).customers.map((row) => row.id)).toEqual(['c-100']);
  expect(await countCustomers(db)).toBe(1);
  expect(await db.searchChunks.toArray()).toEqual(chunksBefore);
  expect(await readMeta(db, 'lastCompleteRefresh')).toBeUndefined();
  expect(cache.index.size).toBe(1);
  // Written again, it is all there.
  await cache.putCustomers(people(1, 40));
  expect(await countCustomers(db)).toBe(41);
  await expectConsistent();
});

test("the cashier's rhythm: the next search is expected after their usual pause, none once they stopped for a second", async () => {
  // Searches that read IndexedDB (the listings not loaded): the ones background writers make way for.
  cache.listings.close();
  let now = 10_000;
  const clock = vi.spyOn(performance, 'now').mockImplementation(() => now);
  try {
    expect(cache.expectedSearchIn()).toBeNull();
    // Searches each 40 ms after the last one ended (each taking no time on this clock).
    for (let i = 0; i < 4; i++) {
      await cache.search('person');
      now += 40;
    }
    now -= 30;
    expect(cache.expectedSearchIn()).toBeCloseTo(30, 5);
    now += 100;
    expect(cache.expectedSearchIn()).toBe(0);
    const ended = cache.nextSearchEnd();
    await cache.search('person');
    await ended;
    now += 1_000;
    expect(cache.expectedSearchIn()).toBeNull();
  } finally {
    clock.mockRestore();
  }
});
