// Online answers never wait for the cache: the write-through runs behind them, in order,
// and its failures are reported. Against the real sandbox through the main process's handlers.
import { afterAll, afterEach, beforeAll, beforeEach, expect, test, vi } from 'vitest';
import type { Settings } from '../../../../common/contract';
import { DEMO_FIXTURES } from '../../../../sandbox';
import { createOfflineServices, type OfflineServices } from '../../../../renderer/offline';
import { CustomerCache } from '../../../../renderer/offline/cache/customer-cache';
import type { OfflineDb } from '../../../../renderer/offline/db/schema';
import { createFakeLocks, dropDb, freshDb } from '../support/fixtures';
import { startService, type ServiceHarness } from '../support/service';
import { customersWithId, getCustomerRow } from '../../../support/offline-rows';

const { layla } = DEMO_FIXTURES;
const SETTINGS: Pick<Settings, 'defaultCountry' | 'branchId' | 'allowOfflineRedemption'> = {
  defaultCountry: 'SA',
  branchId: null,
  allowOfflineRedemption: true,
};

let service: ServiceHarness;
let db: OfflineDb;
let till: OfflineServices;

beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.close());
beforeEach(() => {
  db = freshDb();
  till = createOfflineServices({ api: service.api, settings: () => SETTINGS, db, locks: createFakeLocks() });
});
afterEach(async () => {
  vi.restoreAllMocks();
  till.stop();
  await dropDb(db);
});

type PutCustomers = CustomerCache['putCustomers'];

/** Wraps the cache's write of customers (the facade keeps its cache inside; the class is shared). */
function wrapPutCustomers(
  wrap: (put: PutCustomers, ...args: Parameters<PutCustomers>) => ReturnType<PutCustomers>,
): void {
  const put = CustomerCache.prototype.putCustomers;
  vi.spyOn(CustomerCache.prototype, 'putCustomers').mockImplementation(function (this: CustomerCache, ...args) {
    return wrap(put.bind(this), ...args);
  });
}

/**
 * Holds a read-write transaction over the customers' table open (as the refresh's writer
 * does) until `release()`. It keeps issuing small reads, so IndexedDB cannot commit it early.
 */
function holdCustomersTable(events: string[]) {
  let released = false;
  const committed = db
    .transaction('rw', db.customerBlocks, async () => {
      while (!released) await getCustomerRow(db, -1);
    })
    .then(() => events.push('held transaction committed'));
  return {
    release: () => {
      released = true;
      return committed;
    },
  };
}

/** Runs `answer` while the customers table is held; releases when it answered (or, if it never can, after a while). */
async function answerWhileHeld<T>(events: string[], answer: () => Promise<T>): Promise<T> {
  const hold = holdCustomersTable(events);
  // A safety valve, not a timing assertion: a regression would otherwise deadlock the test.
  const valve = setTimeout(() => {
    events.push('released by the safety valve');
    void hold.release();
  }, 5_000);
  const result = await answer();
  events.push('answered');
  clearTimeout(valve);
  await hold.release();
  return result;
}

test('an online search answers while a write transaction over the customers table is held; its write-through lands after', async () => {
  const events: string[] = [];
  wrapPutCustomers(async (put, ...args) => {
    const rows = await put(...args);
    events.push('written through');
    return rows;
  });

  const found = await answerWhileHeld(events, () => till.searchCustomers('layla'));

  expect(found).toMatchObject({ ok: true, source: 'service' });
  expect(found.ok && found.customers.map((customer) => customer.id)).toContain(layla.id);
  await till.cacheWritesSettled();
  expect(events).toEqual(['answered', 'held transaction committed', 'written through']);
  expect(await customersWithId(db, layla.id)).toBe(1);
});

test('a customer lookup and a reward check answer while the table is held; both are cached after', async () => {
  const events: string[] = [];

  const lookup = await answerWhileHeld(events, () => till.getCustomer(layla.id));
  const check = await answerWhileHeld(events, () => till.checkReward(layla.rewards.availableProduct, layla.phone));

  expect(events).toEqual(['answered', 'held transaction committed', 'answered', 'held transaction committed']);
  expect(lookup).toMatchObject({ ok: true, source: 'service', customer: { id: layla.id }, pendingCodes: [] });
  expect(check).toMatchObject({
    ok: true,
    source: 'service',
    reward: { code: layla.rewards.availableProduct },
    pendingHere: false,
  });
  await till.cacheWritesSettled();
  expect(await customersWithId(db, layla.id)).toBe(1);
  expect(await db.rewards.get(layla.rewards.availableProduct)).toMatchObject({
    customerId: layla.id,
    phoneE164: layla.phone,
  });
});

test('a failed write-through is reported, loses only that write, and the next one still lands', async () => {
  const failures: { what: string; message: string }[] = [];
  till.onCacheWriteFailure(({ what, error }) => failures.push({ what, message: (error as Error).message }));
  let calls = 0;
  wrapPutCustomers(async (put, ...args) => {
    calls += 1;
    if (calls === 1) throw new Error('quota exceeded');
    return put(...args);
  });

  const first = await till.searchCustomers('layla');
  const second = await till.searchCustomers('søren');
  await till.cacheWritesSettled();

  // The cashier saw both answers; the first was not cached, and that was said.
  expect(first).toMatchObject({ ok: true, source: 'service' });
  expect(second).toMatchObject({ ok: true, source: 'service' });
  expect(failures).toEqual([{ what: 'a page of search results', message: 'quota exceeded' }]);
  expect(await customersWithId(db, layla.id)).toBe(0);
  expect(await customersWithId(db, DEMO_FIXTURES.soren.id)).toBe(1);
});

test('a cache answer comes after the writes queued before it: the service goes away right after answering', async () => {
  let calls = 0;
  const flaky = {
    ...service.api,
    searchCustomers: async (payload: Parameters<typeof service.api.searchCustomers>[0]) =>
      calls++ === 0
        ? service.api.searchCustomers(payload)
        : {
            ok: false as const,
            error: { kind: 'offline' as const, message: 'The loyalty service cannot be reached.' },
          },
  };
  const local = createOfflineServices({ api: flaky, settings: () => SETTINGS, db, locks: createFakeLocks() });
  // A slow disk: the first answer's write-through is still running when the cache is asked.
  wrapPutCustomers(async (put, ...args) => {
    await new Promise((resolve) => setTimeout(resolve, 50));
    return put(...args);
  });

  const online = await local.searchCustomers('layla');
  const offline = await local.searchCustomers('layla');

  expect(online).toMatchObject({ ok: true, source: 'service' });
  expect(offline).toMatchObject({ ok: true, source: 'cache' });
  expect(offline.ok && offline.customers.map((customer) => customer.id)).toContain(layla.id);
  local.stop();
});
