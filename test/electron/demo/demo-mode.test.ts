import { afterAll, beforeAll, expect, test } from 'vitest';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, DEMO_FIXTURES, type Sandbox } from '../../../sandbox';
import { PROGRAMS } from '../../../sandbox/demo-data';
import { createCoreFixture, type CoreFixture } from '../../support/app-core-fixture';

// Demo mode: the sandbox in-process, remembered across restarts, left when a real service is set up.
// The tests run in order and share one user-data folder, like one till over several days.

const REAL_KEY = 'real-service-key-5150';
const { layla } = DEMO_FIXTURES;

let userDataDir: string;
let till: CoreFixture;
let realService: Sandbox;
let demoUrl = '';

beforeAll(async () => {
  userDataDir = await mkdtemp(join(tmpdir(), 'till-demo-'));
  till = await createCoreFixture({ userDataDir });
  realService = await startSandbox({ keys: { [REAL_KEY]: 'bakery' } });
});

afterAll(async () => {
  await till?.dispose();
  await realService?.close();
  await rm(userDataDir, { recursive: true, force: true });
});

async function answers(url: string): Promise<boolean> {
  try {
    await fetch(`${url}/v1/customers`);
    return true;
  } catch {
    return false;
  }
}

test('startDemo starts the sandbox on 127.0.0.1 and the till works against it', async () => {
  const started = await till.call('startDemo');
  expect(started.ok && started.data.mode).toBe('demo');

  const status = await till.call('connectionStatus');
  if (!status.ok) throw new Error('status failed');
  expect(status.data).toMatchObject({ mode: 'demo', reachable: true });
  demoUrl = status.data.baseUrl ?? '';
  expect(demoUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

  const found = await till.call('searchCustomers', { phone: layla.phone });
  expect(found.ok && found.data.map((c) => c.name)).toEqual([layla.name]);
  const registered = await till.call('registerCustomer', { name: 'Demo Person', phone: '+966559876543' });
  expect(registered.ok && registered.data.created).toBe(true);

  expect(await readdir(join(userDataDir, 'demo'))).toEqual(expect.arrayContaining(['sandbox.json', 'state.json']));
  // The demo key is generated per start and never stored; the service settings stay untouched.
  const state = await till.call('getState');
  expect(state.ok && state.data.settings.baseUrl).toBeNull();
  expect(state.ok && state.data.key.set).toBe(false);
});

test("startDemo makes the demo key's programme (Coffee Club) this till's programme, and that card is the one the key earns on", async () => {
  const coffeeClub = PROGRAMS.find((programme) => programme.slug === 'coffee-club');
  const state = await till.call('getState');
  expect(state.ok && state.data.settings.programId).toBe(coffeeClub?.id);
  // The programme is the one new customers are registered in with the demo key.
  const registered = await till.call('searchCustomers', { phone: '+966559876543' });
  expect(registered.ok && registered.data[0]?.cards.map((card) => card.program.id)).toEqual([coffeeClub?.id]);
});

test('starting the demo again is harmless, and keeps a programme the till has chosen', async () => {
  const bakery = PROGRAMS.find((programme) => programme.slug === 'bakery');
  const chosen = await till.call('updateSettings', { programId: bakery?.id });
  expect(chosen.ok).toBe(true);
  const again = await till.call('startDemo');
  expect(again.ok && again.data.mode).toBe('demo');
  expect(again.ok && again.data.settings.programId).toBe(bakery?.id);
  const status = await till.call('connectionStatus');
  expect(status.ok && status.data.baseUrl).toBe(demoUrl);
});

test('after a restart the till is still in demo mode, with the same data', async () => {
  await till.restart();
  expect(await answers(demoUrl)).toBe(false);
  const state = await till.call('getState');
  expect(state.ok && state.data.mode).toBe('demo');
  const found = await till.call('searchCustomers', { phone: '+966559876543' });
  expect(found.ok && found.data.map((c) => c.name)).toEqual(['Demo Person']);
  const status = await till.call('connectionStatus');
  if (!status.ok) throw new Error('status failed');
  demoUrl = status.data.baseUrl ?? '';
  expect(await answers(demoUrl)).toBe(true);
});

test('changing other settings, or only the URL without a key, keeps the demo running', async () => {
  await till.call('updateSettings', { tillName: 'Counter 2' });
  await till.call('updateSettings', { baseUrl: realService.url });
  const state = await till.call('getState');
  expect(state.ok && state.data.mode).toBe('demo');
  expect(await answers(demoUrl)).toBe(true);
});

test('setting the key of a real service switches to it and stops the demo sandbox', async () => {
  const switched = await till.call('setApiKey', { apiKey: REAL_KEY });
  expect(switched.ok && switched.data.mode).toBe('service');
  expect(await answers(demoUrl)).toBe(false);

  const status = await till.call('connectionStatus');
  expect(status.ok && status.data).toMatchObject({ mode: 'service', baseUrl: realService.url, reachable: true });
  const demoOnly = await till.call('searchCustomers', { phone: '+966559876543' });
  expect(demoOnly.ok && demoOnly.data).toEqual([]);

  // The demo's data is kept (nothing is deleted silently), but the mode is forgotten.
  expect(await readdir(join(userDataDir, 'demo'))).toEqual(['sandbox.json']);
  expect(await readFile(join(userDataDir, 'demo', 'sandbox.json'), 'utf8')).toContain('Demo Person');
  await till.restart();
  const state = await till.call('getState');
  expect(state.ok && state.data.mode).toBe('service');
});
