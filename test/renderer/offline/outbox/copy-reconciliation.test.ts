/**
 * The page's database and the main process's copy, made one again whenever the database opens
 * (renderer/offline/outbox/copy-reconciliation.ts), end to end over the real main-process
 * handler table and the sandbox (real HTTP): what the page lost comes back and is replayed
 * once, a redemption the service already made is reconciled as this till's, what the copy
 * lacks is handed to it, and what left the outbox stays gone.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Dexie } from 'dexie';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { createTillApi, type Settings, type TillApi } from '../../../../common/contract';
import { DEMO_FIXTURES, startSandbox, type Sandbox } from '../../../../sandbox';
import { createOfflineServices, type OfflineServices } from '../../../../renderer/offline';
import { openOfflineDb } from '../../../../renderer/offline/db/open';
import { CustomerCache } from '../../../../renderer/offline/cache/customer-cache';
import { Outbox } from '../../../../renderer/offline/outbox/outbox';
import { APP_SENDER, configureService, createCoreFixture, type CoreFixture } from '../../../support/app-core-fixture';
import { createFakeLocks, withDataKey } from '../support/fixtures';

const { layla, omar } = DEMO_FIXTURES;
const SETTINGS: Pick<Settings, 'defaultCountry' | 'branchId' | 'allowOfflineRedemption'> = {
  defaultCountry: 'SA',
  branchId: null,
  allowOfflineRedemption: true,
};

let dir: string;
let sandbox: Sandbox;
let port: number;
let core: CoreFixture;
let api: TillApi;
let dbName: string;
const opened: OfflineServices[] = [];

async function startService(): Promise<void> {
  sandbox = await startSandbox({ port, dataFile: join(dir, 'sandbox.json') });
  port = Number(new URL(sandbox.url).port);
}

function openTill(): OfflineServices {
  const services = createOfflineServices({
    api,
    settings: () => SETTINGS,
    db: openOfflineDb(dbName),
    locks: createFakeLocks(),
  });
  opened.push(services);
  return services;
}

/** The page goes away and its database with it: eviction, "clear site data", a new origin. */
async function losePage(services: OfflineServices): Promise<void> {
  services.close();
  await Dexie.delete(dbName);
}

/** Online, the cashier opens Layla (her rewards cached); then the service goes away and a reward is queued. */
async function queueOffline(till: OfflineServices, code: string, orderReference: string): Promise<void> {
  expect(await till.getCustomer(layla.id)).toMatchObject({ ok: true, source: 'service' });
  await till.cacheWritesSettled();
  await sandbox.close();
  expect(await till.redeemReward({ code, phone: layla.phone, orderReference })).toMatchObject({ outcome: 'queued' });
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'copy-reconciliation-'));
  dbName = `copy-reconciliation-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  port = 0;
  await startService();
  core = await createCoreFixture({ requestTimeoutMs: 1_500 });
  await configureService(core, sandbox.url, 'demo-key');
  api = createTillApi((channel, payload) => core.core.handlers[channel](APP_SENDER, payload));
});

afterEach(async () => {
  for (const services of opened.splice(0)) services.close();
  await Dexie.delete(dbName);
  await core.dispose();
  await sandbox.close().catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

test('a queued redemption whose page database was lost comes back from the copy, journalled, and is replayed once', async () => {
  const till = openTill();
  await queueOffline(till, layla.rewards.availableProduct, 'ORD-LOST-1');
  // "Queued" meant the main process had it on disk.
  expect(core.core.workCopy.items()).toMatchObject([{ code: layla.rewards.availableProduct, state: 'pending' }]);

  await losePage(till);
  const fresh = openTill();
  const [restored] = await fresh.outboxItems();
  expect(restored).toMatchObject({ code: layla.rewards.availableProduct, orderReference: 'ORD-LOST-1' });
  expect(restored!.restoredAt).toEqual(expect.any(String));
  expect(fresh.copyReconciliation()).toMatchObject({ restoredItems: 1, newDatabase: true });
  expect(await fresh.journal()).toEqual([]);
  const notes = (await fresh.journalSince('2000-01-01T00:00:00.000Z')).filter((e) => e.outcome === 'restored');
  expect(notes).toMatchObject([{ code: layla.rewards.availableProduct, restoredUid: restored!.uid }]);

  await startService();
  expect(await fresh.probeConnectionNow()).toBe('online');
  expect(await fresh.replayNow()).toMatchObject({ done: 1, conflicts: 0 });
  expect(sandbox.redemptions().filter((r) => r.code === layla.rewards.availableProduct)).toHaveLength(1);
  expect(sandbox.redemptions()[0]).toMatchObject({ order_reference: 'ORD-LOST-1' });
  // Done in both copies: a later page finds nothing to put back.
  await expect.poll(() => core.core.workCopy.items()).toEqual([]);
  await losePage(fresh);
  expect(await openTill().outboxItems()).toEqual([]);
});

test('made by the service during an attempt whose answer was lost, then the page lost: reconciled as this till’s, made once', async () => {
  const till = openTill();
  await queueOffline(till, layla.rewards.availableProduct, 'ORD-MADE-1');
  // The service comes back, and makes the replayed redemption, but its answer never arrives.
  await startService();
  expect(await till.probeConnectionNow()).toBe('online');
  sandbox.faults.set({ commitThenDropRate: 1 });
  await till.replayNow();
  expect(sandbox.redemptions()).toHaveLength(1);
  const [waiting] = await till.outboxItems();
  expect(waiting?.state).toBe('pending');

  // Before it could ask again, the page and its database are gone.
  await losePage(till);
  sandbox.faults.reset();
  const fresh = openTill();
  expect(await fresh.outboxItems()).toMatchObject([{ code: layla.rewards.availableProduct, attempts: 1 }]);
  // The connection the service dropped may fail the first probe; the next finds it.
  await expect.poll(() => fresh.probeConnectionNow()).toBe('online');
  // The lost answer set the item back; "Retry now" skips the wait.
  await fresh.clearBackoff();
  expect(await fresh.replayNow()).toMatchObject({ done: 1, conflicts: 0 });
  const entries = await fresh.journalSince('2000-01-01T00:00:00.000Z');
  expect(entries.filter((e) => e.outcome !== 'restored')).toMatchObject([
    { outcome: 'redeemed_answer_lost', code: layla.rewards.availableProduct, orderReference: 'ORD-MADE-1' },
  ]);
  expect(sandbox.redemptions()).toHaveLength(1);
});

test('what the copy lacks is handed to it; an item that left the outbox, or was withdrawn, is not put back', async () => {
  // Queued by a version before the copy: the page has it, the main process never heard of it.
  const before = withDataKey(openOfflineDb(dbName), api);
  const cache = new CustomerCache(before, { defaultCountry: () => 'SA' });
  const full = await api.getCustomer({ id: layla.id });
  if (!full.ok) throw new Error(full.error.message);
  await cache.putCustomerWithRewards(full.data, '2026-11-28T09:00:00.000Z');
  const old = new Outbox(before, cache);
  const queued = await old.queueRedemption({ code: layla.rewards.availableProduct, phone: layla.phone }, SETTINGS);
  if (!queued.ok) throw new Error('not queued');
  before.close();
  expect(core.core.workCopy.items()).toEqual([]);

  const till = openTill();
  expect(await till.counts()).toMatchObject({ pending: 1 });
  expect(core.core.workCopy.items()).toMatchObject([{ uid: queued.item.uid }]);

  // The item leaves the outbox while the copy cannot hear of it (a database no copy is
  // attached to, as a page that went away before it could send); the next opening tells it.
  till.close();
  const direct = withDataKey(openOfflineDb(dbName), api);
  const [item] = await direct.outbox.toArray();
  await direct.outbox.update(item!.seq!, { state: 'failed' });
  await new Outbox(direct, new CustomerCache(direct, { defaultCountry: () => 'SA' })).acknowledge(item!.seq!);
  direct.close();
  expect(core.core.workCopy.items()).toHaveLength(1);

  const after = openTill();
  expect(await after.outboxItems()).toEqual([]);
  expect(after.copyReconciliation()).toMatchObject({ restoredItems: 0 });
  expect(core.core.workCopy.items()).toEqual([]);
  expect(core.core.workCopy.read().journal).toMatchObject([{ outcome: 'failure_acknowledged', outboxUid: item!.uid }]);
});

test('a journal the page lost comes back from the copy, entry by entry', async () => {
  const till = openTill();
  expect(await till.getCustomer(omar.id)).toMatchObject({ ok: true });
  expect(await till.redeemReward({ code: omar.reward, phone: omar.phone, orderReference: 'ORD-ONLINE' })).toMatchObject(
    {
      outcome: 'redeemed',
    },
  );
  await till.cacheWritesSettled();
  await till.registerCustomer({ name: 'Nora Berg', phone: '+47 412 34 567' });
  await till.cacheWritesSettled();
  const journal = await till.journalSince('2000-01-01T00:00:00.000Z');
  expect(journal.map((e) => e.outcome)).toEqual(['redeemed', 'registered']);
  await expect.poll(() => core.core.workCopy.read().journalTotal).toBe(2);

  await losePage(till);
  const fresh = openTill();
  const back = await fresh.journalSince('2000-01-01T00:00:00.000Z');
  expect(back.map(({ seq: _seq, ...entry }) => entry)).toEqual(journal.map(({ seq: _seq, ...entry }) => entry));
  expect(fresh.copyReconciliation()).toMatchObject({ restoredEntries: 2, restoredItems: 0, newDatabase: true });
});
