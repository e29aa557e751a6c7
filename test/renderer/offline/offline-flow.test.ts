// @vitest-environment node
// The facade end to end against the real sandbox and the main process's handler table
// (Node HTTP): online, the service goes away, the till keeps serving, the service returns.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { createTillApi, type Settings, type TillApi } from '../../../electron/contract';
import { DEMO_FIXTURES, startSandbox, type Sandbox } from '../../../sandbox';
import { createOfflineServices, type OfflineServices } from '../../../renderer/offline';
import { openOfflineDb } from '../../../renderer/offline/db';
import { APP_SENDER, configureService, createCoreFixture, type CoreFixture } from '../../support/app-core-fixture';
import { createFakeLocks, dropDb } from './support/fixtures';

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

function openTill(settings = SETTINGS): OfflineServices {
  const services = createOfflineServices({ api, settings: () => settings, db: openOfflineDb(dbName), locks: createFakeLocks() });
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
    services.stop();
    services.db.close();
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
  await till.cache.loadIndex({ yieldToPage: async () => undefined });

  // The service goes away.
  await sandbox.close();
  const byPhone = await till.searchCustomers('050 123 4567');
  expect(byPhone).toMatchObject({ ok: true, source: 'cache', customers: [{ id: layla.id }] });
  expect(till.connection.state).toBe('offline');
  if (!byPhone.ok || byPhone.source !== 'cache') throw new Error('not from the cache');
  expect(byPhone.cache.of).not.toBeNull();
  expect(await till.searchCustomers('haddad lay')).toMatchObject({ source: 'cache', customers: [{ id: layla.id }] });
  expect(await till.searchCustomers('1234567')).toMatchObject({ source: 'cache' });

  const check = await till.checkReward(layla.rewards.availableProduct.toLowerCase(), layla.phone);
  expect(check).toMatchObject({ ok: true, source: 'cache', check: { verdict: 'available' } });
  expect(await till.checkReward('RW-NEVERSEEN', layla.phone)).toMatchObject({ source: 'cache', check: { verdict: 'unverifiable' } });

  const redeemed = await till.redeemReward({ code: layla.rewards.availableProduct, phone: layla.phone, orderReference: 'ORD-77' });
  expect(redeemed).toMatchObject({ outcome: 'queued', item: { orderReference: 'ORD-77' } });
  expect(await till.redeemReward({ code: layla.rewards.availableProduct, phone: layla.phone })).toMatchObject({
    outcome: 'refused',
    reason: 'already_queued',
  });
  expect(await till.checkReward(layla.rewards.availableProduct, layla.phone)).toMatchObject({ check: { verdict: 'pending' } });

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
  expect(await reloaded.connection.probeNow()).toBe('online');
  expect(await reloaded.replayNow()).toMatchObject({ ran: true, done: 2 });
  expect(sandbox.redemptions().map((r) => [r.code, r.order_reference])).toEqual([[layla.rewards.availableProduct, 'ORD-77']]);
  expect(await reloaded.counts()).toEqual({ pending: 0, failed: 0, conflict: 0, done: 2 });
  const csv = await reloaded.exportJournalCsv();
  expect(csv).toContain('ORD-77');
  expect(csv).toContain('Nora Berg');
  // Online search now finds the registered customer on the service.
  expect(await reloaded.searchCustomers('+4741234567')).toMatchObject({ source: 'service', customers: [{ name: 'Nora Berg' }] });
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
