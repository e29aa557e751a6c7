import { afterAll, beforeAll, expect, test } from 'vitest';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startSandbox, DEMO_FIXTURES, type Sandbox } from '../../../sandbox';
import type { Operation } from '../../../common/contract';
import { configureService, createCoreFixture, type CoreFixture } from '../../support/app-core-fixture';
import { CUSTOMER } from '../../support/answer-shapes';
import { startCountingProxy, startSilentServer, startStubServer, type StubServer } from '../../support/stub-servers';

// The whole suite of bridge calls, successes and failures, with one distinctive key: the
// key must appear in no result, no error and no log line, even when a service echoes it.

const KEY = 'ZEBRA-quartz-314159-secret';
const { layla } = DEMO_FIXTURES;

let sandbox: Sandbox;
const servers: StubServer[] = [];
const fixtures: CoreFixture[] = [];
const seen: unknown[] = [];

/** A service that echoes the request's Authorization header back in every way it can. */
async function startEchoingService(status: number): Promise<StubServer> {
  return startStubServer((request, response) => {
    const auth = request.headers.authorization ?? '';
    const body =
      status === 200
        ? { ok: true, data: { ...CUSTOMER, name: `Echo ${auth}`, rewards: [] } }
        : {
            message: `Rejected ${auth}`,
            errors: { phone: [`bad with ${auth}`] },
            error: { code: 'echo', message: `header was ${auth}` },
          };
    response.writeHead(status, { 'Content-Type': 'application/json', 'Retry-After': '60' }).end(JSON.stringify(body));
  });
}

const CALLS: Array<[Operation, unknown]> = [
  ['getState', undefined],
  ['connectionStatus', undefined],
  ['searchCustomers', { phone: layla.phone }],
  ['searchCustomers', { search: 'Layla', per_page: 5 }],
  ['searchCustomers', { per_page: 500 }],
  ['getCustomer', { id: layla.id }],
  ['getCustomer', { id: '00000000-0000-4000-8000-000000000000' }],
  ['getCustomer', { id: 'nope' }],
  ['registerCustomer', { name: 'Secret Tester', phone: '+966551230000' }],
  ['registerCustomer', { name: 'Secret Tester', phone: '+1234' }],
  ['updateCustomer', { id: layla.id, email: 'layla@example.org' }],
  ['checkReward', { reward_code: layla.rewards.availableProduct, phone: layla.phone }],
  ['checkReward', { reward_code: 'RW-NOPE1', phone: layla.phone }],
  ['redeemReward', { reward_code: layla.rewards.availableProduct, phone: layla.phone, order_reference: 'S-1' }],
  ['redeemReward', { reward_code: layla.rewards.availableProduct, phone: layla.phone }],
  ['updateSettings', { tillName: 'Secret till' }],
  ['updateSettings', { baseUrl: `https://user:${KEY}@example.com` }],
  [
    'logError',
    {
      message: `Saving failed for key ${KEY}`,
      source: 'settings',
      stack: `Error: Authorization: Bearer ${KEY}\n  at save`,
    },
  ],
  ['setApiKey', { apiKey: 'short' }],
];

async function runAll(till: CoreFixture): Promise<void> {
  for (const [operation, payload] of CALLS) seen.push(await till.call(operation, payload));
}

async function tillFor(baseUrl: string, requestTimeoutMs = 3000): Promise<CoreFixture> {
  // GETs are still retried as in the till; only the waits between tries are skipped.
  const till = await createCoreFixture({ requestTimeoutMs, retrySleep: async () => undefined });
  fixtures.push(till);
  await configureService(till, baseUrl, KEY);
  return till;
}

beforeAll(async () => {
  sandbox = await startSandbox({ keys: { [KEY]: 'coffee-club' } });
});

afterAll(async () => {
  for (const till of fixtures) await till.dispose();
  for (const server of servers) await server.close();
  await sandbox?.close();
});

test('against the sandbox: every result and the log are free of the key', async () => {
  const till = await tillFor(sandbox.url);
  await runAll(till);
  sandbox.faults.set({ errorRate: 1 });
  await runAll(till);
  sandbox.faults.set({ errorRate: 0, rateLimitRate: 1, retryAfterSeconds: 30 });
  await runAll(till);
  sandbox.faults.reset();
  // The successes really happened, so this is not a suite of refusals.
  expect(seen.filter((r) => (r as { ok: boolean }).ok).length).toBeGreaterThan(10);
}, 30_000);

test('against services that echo the key in their answers, and ones that fail in transit', async () => {
  for (const status of [200, 401, 422, 429, 500]) {
    const echo = await startEchoingService(status);
    servers.push(echo);
    await runAll(await tillFor(echo.url));
    expect(echo.requests.some((r) => r.authorization === `Bearer ${KEY}`)).toBe(true);
  }
  const silent = await startSilentServer();
  servers.push(silent);
  // Every request reaches it and times out; each costs its deadline in real time, so a short one.
  await runAll(await tillFor(silent.url, 50));
  const gone = await startCountingProxy('http://127.0.0.1:9');
  await gone.close();
  await runAll(await tillFor(gone.url));
}, 60_000);

test('the key appears in no result, no error, no log line, and no file except encrypted', async () => {
  expect(seen.length).toBeGreaterThan(100);
  const results = JSON.stringify(seen);
  expect(results).toContain('Echo'); // the echoing service's answers are in there...
  expect(results).toContain('[redacted]'); // ...with the echoed key taken out
  expect(results).not.toContain(KEY);

  const logs = fixtures.map((till) => till.log.text()).join('\n');
  expect(logs).toContain('Renderer error in settings');
  expect(logs).not.toContain(KEY);
  expect(logs).not.toMatch(/Bearer (?!\[redacted\])/);

  for (const till of fixtures) {
    for (const name of await readdir(till.userDataDir, { recursive: true })) {
      const content = await readFile(join(till.userDataDir, name)).catch(() => Buffer.alloc(0));
      expect(content.includes(Buffer.from(KEY)), name).toBe(false);
    }
  }
});
