// The facade end to end against the real sandbox and the main process's handler table
// (real HTTP): online, the service goes away, the till keeps serving, the service returns.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { createTillApi, type Settings, type TillApi } from '../../../common/contract';
import { DEMO_FIXTURES, startSandbox, type Sandbox } from '../../../sandbox';
import { createOfflineServices, type OfflineServices } from '../../../renderer/offline';
import { exportedJournalCsv } from '../../../renderer/lib/journal-csv';
import { openOfflineDb } from '../../../renderer/offline/db/open';
import type { Timers } from '../../../renderer/offline/connection/connection-monitor';
import { APP_SENDER, configureService, createCoreFixture, type CoreFixture } from '../../support/app-core-fixture';
import { createFakeLocks, dropDb, withDataKey } from './support/fixtures';
import { countCustomers } from '../../support/offline-rows';

const { layla } = DEMO_FIXTURES;
const SETTINGS: Pick<Settings, 'defaultCountry' | 'branchId' | 'allowOfflineRedemption'> = {
  defaultCountry: 'SA',
  branchId: '0b6e4a52-7d1f-4c8a-9e3b-5f2d1c0a9b99',
  allowOfflineRedemption: true,
};

let dir: string;
let sandbox: Sandbox;
let port: number;
let core: CoreFixture;
let api: TillApi;
const dbName = `offline-flow-${Date.now()}`;
const opened: OfflineServices[] = [];

async function startService(): Promise<void> {
  sandbox = await startSandbox({ port, dataFile: join(dir, 'sandbox.json') });
  port = Number(new URL(sandbox.url).port);
}

function openTill(settings = SETTINGS, timers?: Timers): OfflineServices {
  const services = createOfflineServices({
    api,
    settings: () => settings,
    db: openOfflineDb(dbName),
    locks: createFakeLocks(),
    ...(timers ? { timers } : {}),
  });
  opened.push(services);
  return services;
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'offline-flow-'));
  port = 0;
  await startService();
  core = await createCoreFixture({ requestTimeoutMs: 1_500 });
  await configureService(core, sandbox.url, 'demo-key');
  api = createTillApi((channel, payload) => core.core.handlers[channel](APP_SENDER, payload));
});

afterEach(async () => {
  for (const services of opened.splice(0)) {
    services.close();
  }
  await dropDb(openOfflineDb(dbName));
  await core.dispose();
  await sandbox.close().catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

test('offline: search, check and queue from the cache; after a reload the queue replays once', async () => {
  const till = openTill();
  // Online: the cashier finds Layla and opens her record; both are written through.
  const online = await till.searchCustomers('layla');
  expect(online).toMatchObject({ ok: true, source: 'service' });
  const opened = await till.getCustomer(layla.id);
  expect(opened).toMatchObject({ ok: true, source: 'service' });
  await till.prepareOfflineSearch();

  // The service goes away.
  await sandbox.close();
  const byPhone = await till.searchCustomers('050 123 4567');
  expect(byPhone).toMatchObject({ ok: true, source: 'cache', customers: [{ id: layla.id }] });
  expect(till.connectionNow().state).toBe('offline');
  if (!byPhone.ok || byPhone.source !== 'cache') throw new Error('not from the cache');
  expect(byPhone.cache.of).not.toBeNull();
  expect(await till.searchCustomers('haddad lay')).toMatchObject({ source: 'cache', customers: [{ id: layla.id }] });
  expect(await till.searchCustomers('1234567')).toMatchObject({ source: 'cache' });

  const check = await till.checkReward(layla.rewards.availableProduct.toLowerCase(), layla.phone);
  expect(check).toMatchObject({ ok: true, source: 'cache', check: { verdict: 'available' } });
  expect(await till.checkReward('RW-NEVERSEEN', layla.phone)).toMatchObject({
    source: 'cache',
    check: { verdict: 'unverifiable' },
  });

  const redeemed = await till.redeemReward({
    code: layla.rewards.availableProduct,
    phone: layla.phone,
    orderReference: 'ORD-77',
  });
  expect(redeemed).toMatchObject({ outcome: 'queued', item: { orderReference: 'ORD-77' } });
  expect(await till.redeemReward({ code: layla.rewards.availableProduct, phone: layla.phone })).toMatchObject({
    outcome: 'refused',
    reason: 'already_queued',
  });
  expect(await till.checkReward(layla.rewards.availableProduct, layla.phone)).toMatchObject({
    check: { verdict: 'pending' },
  });

  // Registering while offline: usable at once.
  const registered = await till.registerCustomer({ name: 'Nora Berg', phone: '+47 412 34 567' });
  expect(registered).toMatchObject({ outcome: 'queued', customer: { name: 'Nora Berg' } });
  expect(await till.searchCustomers('nora')).toMatchObject({ source: 'cache', customers: [{ name: 'Nora Berg' }] });

  // Reload while offline: a new instance over the same database still holds the queue.
  till.stop();
  const reloaded = openTill();
  expect(await reloaded.counts()).toEqual({ pending: 2, failed: 0, conflict: 0, done: 0 });

  // The service comes back; the probe notices; the replay redeems once, with the order reference.
  await startService();
  expect(await reloaded.probeConnectionNow()).toBe('online');
  expect(await reloaded.replayNow()).toMatchObject({ ran: true, done: 2 });
  expect(sandbox.redemptions().map((r) => [r.code, r.order_reference])).toEqual([
    [layla.rewards.availableProduct, 'ORD-77'],
  ]);
  expect(await reloaded.counts()).toEqual({ pending: 0, failed: 0, conflict: 0, done: 2 });
  const csv = exportedJournalCsv(await reloaded.journalExport());
  expect(csv).toContain('ORD-77');
  expect(csv).toContain('Nora Berg');
  // Online search now finds the registered customer on the service.
  expect(await reloaded.searchCustomers('+4741234567')).toMatchObject({
    source: 'service',
    customers: [{ name: 'Nora Berg' }],
  });
});

test('with offline redemption turned off, nothing is queued', async () => {
  const till = openTill({ ...SETTINGS, allowOfflineRedemption: false });
  await till.getCustomer(layla.id);
  await sandbox.close();
  const refused = await till.redeemReward({ code: layla.rewards.availableProduct, phone: layla.phone });
  expect(refused).toMatchObject({ outcome: 'failed', error: { kind: 'offline' } });
  // Now known offline: refused without trying the network.
  expect(await till.redeemReward({ code: layla.rewards.availableProduct, phone: layla.phone })).toMatchObject({
    outcome: 'refused',
    reason: 'offline_redemption_disabled',
  });
  expect(await till.counts()).toMatchObject({ pending: 0 });
});

test('started, it loads the index, fills the cache in the background and replays on its beat', async () => {
  const scheduled: { callback: () => void; ms: number }[] = [];
  const timers: Timers = {
    setTimeout: (callback, ms) => scheduled.push({ callback, ms }),
    clearTimeout: () => undefined,
  };
  const till = openTill(SETTINGS, timers);
  till.start();
  await vi.waitFor(
    async () => {
      expect(till.refreshProgress()).toMatchObject({ state: 'idle', resumable: false });
      expect(till.refreshProgress().lastCompleteRefreshAt).not.toBeNull();
    },
    { timeout: 20_000, interval: 50 },
  );
  const total = till.refreshProgress().total!;
  const beside = withDataKey(openOfflineDb(dbName), api);
  expect(await countCustomers(beside)).toBe(total);
  beside.close();
  // Every customer is now findable offline, e.g. by part of the number, through the loaded index.
  await sandbox.close();
  await vi.waitFor(
    async () =>
      expect(await till.searchCustomers('123 4567')).toMatchObject({ source: 'cache', cache: { complete: true } }),
    { timeout: 20_000, interval: 50 },
  );
  expect(till.connectionNow().state).toBe('offline');
  await till.getCustomer(layla.id); // from the cache: no rewards known yet
  expect(await till.checkReward(layla.rewards.availableProduct, layla.phone)).toMatchObject({
    check: { verdict: 'unverifiable' },
  });

  // Back online, a queued registration goes out on the replay beat.
  await till.registerCustomer({ name: 'Nora Berg', phone: '+47 412 34 567' });
  await startService();
  till.noteReachable(true);
  const beat = scheduled.find((timer) => timer.ms === 10_000)!;
  beat.callback();
  await vi.waitFor(async () => expect(await till.counts()).toMatchObject({ pending: 0, done: 1 }), {
    timeout: 10_000,
    interval: 50,
  });
});

test('a redeem whose answer is lost is queued with its attempt time and reconciles to done, redeemed once', async () => {
  const till = openTill();
  await till.getCustomer(layla.id);
  sandbox.faults.set({ commitThenDropRate: 1 });
  const lost = await till.redeemReward({
    code: layla.rewards.availablePoints,
    phone: layla.phone,
    orderReference: 'ORD-LOST',
  });
  expect(lost).toMatchObject({ outcome: 'queued', item: { orderReference: 'ORD-LOST' } });
  if (lost.outcome !== 'queued') return;
  expect(lost.item.firstAttemptAt).not.toBeNull();
  expect(sandbox.redemptions()).toHaveLength(1);

  sandbox.faults.reset();
  expect(await till.replayNow()).toMatchObject({ done: 1, conflicts: 0 });
  expect(sandbox.redemptions().map((r) => [r.code, r.order_reference])).toEqual([
    [layla.rewards.availablePoints, 'ORD-LOST'],
  ]);
  expect(await till.journal()).toMatchObject([
    { outcome: 'redeemed_answer_lost', code: layla.rewards.availablePoints },
  ]);
});
