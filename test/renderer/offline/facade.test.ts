// The offline facade hands out operations only: its database, cache, outbox, replayer,
// refresh and connection monitor stay inside (views and stores cannot reach past it).
import { expect, test, vi } from 'vitest';
import { createTillApi, type TillApi } from '../../../common/contract';
import { createOfflineServices } from '../../../renderer/offline';
import { CustomerCache } from '../../../renderer/offline/cache/customer-cache';
import { Outbox } from '../../../renderer/offline/outbox/outbox';
import { Dexie } from 'dexie';
import { openOfflineDb } from '../../../renderer/offline/db/open';
import { customer, dataKeyApi, dropDb, freshDb, reward, withDataKey } from './support/fixtures';

test('the facade exposes functions only, and none of its internals', async () => {
  const db = freshDb();
  try {
    const services = createOfflineServices({
      api: {} as TillApi,
      db,
      locks: null,
      settings: () => ({ defaultCountry: 'SA', branchId: null, allowOfflineRedemption: true }),
    });
    for (const internal of ['db', 'cache', 'outbox', 'replayer', 'refresh', 'connection']) {
      expect(services).not.toHaveProperty(internal);
    }
    const notOperations = Object.entries(services).filter(([, value]) => typeof value !== 'function');
    expect(notOperations.map(([name]) => name)).toEqual([]);
    // @ts-expect-error the database is not part of the facade's type either
    void services.db;
  } finally {
    await dropDb(db);
  }
});

test('at start-up the waiting redemptions are told to the shop, again while its ledger is not running, never after stop', async () => {
  const db = freshDb();
  const settings = () => ({ defaultCountry: 'SA', branchId: null, allowOfflineRedemption: true });
  const cache = new CustomerCache(db, { defaultCountry: () => 'SA' });
  const layla = customer('c-layla', 'Layla', '+966 50 123 4567', { rewards: [reward('RW-LAYLA001', 'c-layla')] });
  await cache.putCustomerWithRewards(layla, '2026-11-26T09:00:00.000Z');
  const queued = await new Outbox(db, cache).queueRedemption(
    { code: 'RW-LAYLA001', phone: '+966501234567' },
    settings(),
  );
  expect(queued.ok).toBe(true);

  const timers = manualTimers();
  let ledgerRunning = false;
  const claims: unknown[] = [];
  // Only the ledger answers; every other call finds the service out of reach.
  const api = createTillApi(async (channel, payload) => {
    if (channel !== 'till:shop:claim') return { ok: false, error: { kind: 'offline', message: 'Down.' } };
    claims.push(payload);
    return { ok: true, data: { enabled: ledgerRunning, winner: null, won: ledgerRunning, unreachable: [] } };
  });
  const services = createOfflineServices({ api, db, locks: null, settings, timers: timers.timers });
  try {
    services.start();
    await vi.waitFor(() => expect(timers.delays()).toContain(5000));
    expect(claims).toEqual([{ reward_code: 'RW-LAYLA001' }]);
    ledgerRunning = true;
    await timers.fire(5000);
    await vi.waitFor(() => expect(claims).toHaveLength(2));
    // Taken: no third try is planned.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(timers.delays()).not.toContain(5000);

    // Stopped while a try is under way: nothing more is planned when it ends.
    ledgerRunning = false;
    services.start();
    services.stop();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(claims).toHaveLength(3);
    expect(timers.delays()).not.toContain(5000);
  } finally {
    services.close();
    await dropDb(db);
  }
});

/** Timers that run only when a test fires them. */
function manualTimers() {
  const pending = new Map<number, { callback: () => void; ms: number }>();
  let next = 0;
  return {
    timers: {
      setTimeout: (callback: () => void, ms: number) => {
        next += 1;
        pending.set(next, { callback, ms });
        return next;
      },
      clearTimeout: (handle: unknown) => void pending.delete(handle as number),
    },
    delays: () => [...pending.values()].map((timer) => timer.ms),
    async fire(ms: number) {
      const [handle, timer] = [...pending.entries()].find(([, { ms: delay }]) => delay === ms)!;
      pending.delete(handle);
      timer.callback();
      await new Promise((resolve) => setTimeout(resolve, 0));
    },
  };
}

test("the facade says why the till's database started blank, and seals what an earlier version left in clear", async () => {
  const name = `facade-key-${Math.random().toString(36).slice(2)}`;
  const settings = () => ({ defaultCountry: 'SA', branchId: null, allowOfflineRedemption: true });
  // Written under the tests' key.
  const before = withDataKey(openOfflineDb(name));
  await new CustomerCache(before, { defaultCountry: () => 'SA' }).putCustomers([
    customer('c-layla', 'Layla', '+966 50 123 4567'),
  ]);
  before.close();

  // The main process lost that key and made another: the page is told, and starts blank.
  const lostKey = btoa(String.fromCharCode(...new Uint8Array(32).fill(9)));
  const grant = dataKeyApi(lostKey, 'lost');
  const api = createTillApi(async (channel) => {
    if (channel === 'till:data-key:get') return grant.dataKey();
    if (channel === 'till:work:copy')
      return { ok: true, data: { items: [], journal: [], journalTotal: 0, since: null } };
    return { ok: false, error: { kind: 'offline', message: 'Down.' } };
  });
  const db = openOfflineDb(name);
  const services = createOfflineServices({ api, db, locks: null, settings });
  try {
    const told: unknown[] = [];
    services.onDataKeyProblem((problem) => told.push(problem));
    expect(await services.outboxItems()).toEqual([]);
    const problem = { reason: 'key_lost', lost: 'unreadable', cleared: true, at: expect.any(String) };
    expect(told).toEqual([problem]);
    expect(services.dataKeyProblem()).toEqual(problem);
    // Nothing was left to seal: the pass is done at once.
    expect(await services.sealLegacyRecords()).toMatchObject({ done: true });
  } finally {
    services.close();
    await Dexie.delete(name);
  }
});
