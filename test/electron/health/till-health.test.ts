/**
 * The running till's health (electron/health/till-health.ts) through its bridge: the service
 * as the till's own calls find it, the page's word on its cache, `health.json` written (0600)
 * when what it says changes and read back after a restart, the connection's history kept, and
 * `tillHealth`, what Settings' "About this till" shows.
 */
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from 'vitest';
import type { HealthReport } from '../../../common/contract';
import { startSandbox, type Sandbox } from '../../../sandbox';
import { configureService, createCoreFixture, type CoreFixture } from '../../support/app-core-fixture';

const KEY = 'till-health-key-2291';
let sandbox: Sandbox;
let folder: string;
let till: CoreFixture;

beforeAll(async () => {
  sandbox = await startSandbox({ keys: { [KEY]: 'coffee-club' } });
});
afterAll(async () => {
  await sandbox?.close();
});
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'till-health-core-'));
  till = await createCoreFixture({ userDataDir: folder });
});
afterEach(async () => {
  await till.dispose();
  await rm(folder, { recursive: true, force: true });
});

const healthFile = async (): Promise<HealthReport> =>
  JSON.parse(await readFile(join(folder, 'health.json'), 'utf8')) as HealthReport;

async function report(): Promise<HealthReport> {
  const answer = await till.call('tillHealth');
  if (!answer.ok) throw new Error(answer.error.message);
  return answer.data;
}

test('the service as the till’s own calls found it: online, then offline since the first failure', async () => {
  expect((await report()).connection).toEqual({ state: 'unknown', since: null });
  // A port nothing listens on: the same service gone.
  const gone = await startSandbox({ keys: { [KEY]: 'coffee-club' } });
  await configureService(till, gone.url, KEY);
  expect((await till.call('searchCustomers', { search: 'Layla' })).ok).toBe(true);
  const online = (await report()).connection;
  expect(online).toMatchObject({ state: 'online' });
  await gone.close();
  expect((await till.call('searchCustomers', { search: 'Layla' })).ok).toBe(false);
  const offline = (await report()).connection;
  expect(offline.state).toBe('offline');
  // A second failure is the same outage: "since" is the first.
  await till.call('getCustomer', { id: '0b1e9c40-2f3b-4d5e-8a6b-0c1d2e3f4a5b' });
  expect((await report()).connection).toEqual(offline);

  // Written for what runs without the till: health.json, and the week's history.
  await till.core.health.flush();
  expect((await healthFile()).connection).toEqual(offline);
  expect((await stat(join(folder, 'health.json'))).mode & 0o777).toBe(0o600);
  const history = JSON.parse(await readFile(join(folder, 'connection-history.json'), 'utf8')) as {
    changes: unknown[];
  };
  expect(history.changes).toEqual([
    { at: online.since, state: 'online' },
    { at: offline.since, state: 'offline' },
  ]);
  expect((await stat(join(folder, 'connection-history.json'))).mode & 0o777).toBe(0o600);

  // A restart while offline keeps "offline since" the first failure, until the service answers.
  await till.restart();
  expect((await report()).connection).toEqual(offline);
  await configureService(till, sandbox.url, KEY);
  expect((await till.call('connectionStatus')).ok).toBe(true);
  expect((await report()).connection.state).toBe('online');
});

test('a refused key or a 5xx is the service answering: online', async () => {
  await configureService(till, sandbox.url, 'not-this-till-key-0000');
  const answer = await till.call('searchCustomers', { search: 'Layla' });
  expect(answer.ok === false && answer.error.kind).toBe('unauthorized');
  expect((await report()).connection.state).toBe('online');
});

test('the page’s word on its cache, checked, reported and kept across a restart', async () => {
  const at = '2026-11-26T02:14:00.000Z';
  expect((await till.call('noteCache', { lastCompleteRefreshAt: at, customers: 4820 })).ok).toBe(true);
  expect((await report()).cache).toEqual({ lastCompleteRefreshAt: at, customers: 4820 });
  for (const bad of [
    { lastCompleteRefreshAt: 'yesterday', customers: 1 },
    { lastCompleteRefreshAt: at, customers: -1 },
    { lastCompleteRefreshAt: at, customers: 1, extra: true },
  ]) {
    const refused = await till.call('noteCache', bad as never);
    expect(refused.ok === false && refused.error.kind).toBe('validation');
  }
  await till.restart();
  expect((await report()).cache).toEqual({ lastCompleteRefreshAt: at, customers: 4820 });
});

test('health.json follows the till: written soon after a change, with the id the help desk quotes', async () => {
  await till.call('noteCache', { lastCompleteRefreshAt: '2026-11-26T02:14:00.000Z', customers: 10 });
  await expect.poll(async () => (await healthFile().catch(() => null))?.cache.customers, { timeout: 5000 }).toBe(10);
  const written = await healthFile();
  expect(written.till.id).toMatch(/^LT-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
  // The same id after a restart.
  await till.restart();
  expect((await report()).till.id).toBe(written.till.id);
});
