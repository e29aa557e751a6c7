import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { startSandbox, DEMO_FIXTURES, type Sandbox } from '../../../sandbox';
import { configureService, createCoreFixture, type CoreFixture } from '../../support/app-core-fixture';
import { CUSTOMER } from '../../support/answer-shapes';
import { startCountingProxy, startSilentServer, startStubServer, type StubServer } from '../../support/stub-servers';

// Every error kind of the contract, produced for real over HTTP.

const API_KEY = 'errors-test-key-7a7a';
const { layla } = DEMO_FIXTURES;

let sandbox: Sandbox;
let proxy: StubServer;
const fixtures: CoreFixture[] = [];
const servers: StubServer[] = [];
/** The waits before each GET retry, in order: recorded instead of slept. */
const retryWaits: number[] = [];

async function tillFor(baseUrl: string, requestTimeoutMs = 3000, apiKey = API_KEY): Promise<CoreFixture> {
  const till = await createCoreFixture({
    requestTimeoutMs,
    retrySleep: async (ms) => {
      retryWaits.push(ms);
    },
  });
  fixtures.push(till);
  await configureService(till, baseUrl, apiKey);
  return till;
}

async function stub(...args: Parameters<typeof startStubServer>): Promise<StubServer> {
  const server = await startStubServer(...args);
  servers.push(server);
  return server;
}

beforeAll(async () => {
  sandbox = await startSandbox({ keys: { [API_KEY]: 'coffee-club' } });
  proxy = await startCountingProxy(sandbox.url);
});

afterEach(() => {
  sandbox.faults.reset();
  proxy.requests.length = 0;
  retryWaits.length = 0;
});

afterAll(async () => {
  for (const till of fixtures) await till.dispose();
  for (const server of servers) await server.close();
  await proxy?.close();
  await sandbox?.close();
});

describe('no answer', () => {
  test('a stopped server is offline', async () => {
    const gone = await startStubServer(() => undefined);
    await gone.close();
    const till = await tillFor(gone.url);
    const result = await till.call('getCustomer', { id: layla.id });
    expect(result).toMatchObject({ ok: false, error: { kind: 'offline', code: 'ECONNREFUSED' } });
    const status = await till.call('connectionStatus');
    expect(status.ok && status.data).toMatchObject({ reachable: false, error: { kind: 'offline' } });
  });

  test('a host that does not resolve is offline', async () => {
    const till = await tillFor('https://loyalty.does-not-exist.invalid');
    const result = await till.call('searchCustomers', { search: 'x' });
    expect(result).toMatchObject({ ok: false, error: { kind: 'offline' } });
  });

  test('a server that never answers is a timeout, and the GET is not retried into a longer wait', async () => {
    const silent = await startSilentServer();
    servers.push(silent);
    const till = await tillFor(silent.url, 300);
    const result = await till.call('getCustomer', { id: layla.id });
    expect(result).toMatchObject({ ok: false, error: { kind: 'timeout' } });
    expect(silent.requests).toHaveLength(1);
  });

  test('a connection dropped after a redeem committed is offline, and the redeem is not sent again', async () => {
    const till = await tillFor(proxy.url);
    sandbox.faults.set({ commitThenDropRate: 1 });
    const result = await till.call('redeemReward', { reward_code: 'RW-OMAR0001', phone: DEMO_FIXTURES.omar.phone });
    expect(result).toMatchObject({ ok: false, error: { kind: 'offline' } });
    expect(proxy.requests.filter((r) => r.url === '/v1/rewards/redeem')).toHaveLength(1);
    expect(sandbox.redemptions().filter((r) => r.code === 'RW-OMAR0001')).toHaveLength(1);
  });
});

describe('answers that are errors', () => {
  test('a wrong key is unauthorized (401)', async () => {
    const till = await tillFor(sandbox.url, 3000, 'not-the-right-key-123');
    const result = await till.call('searchCustomers', { search: 'layla' });
    expect(result).toMatchObject({ ok: false, error: { kind: 'unauthorized', status: 401, code: 'unauthorized' } });
    const status = await till.call('connectionStatus');
    // The service answered: reachable, but the key is refused.
    expect(status.ok && status.data).toMatchObject({ reachable: true, error: { kind: 'unauthorized' } });
  });

  test('429 with a long Retry-After is handed back at once, with retryAfterMs', async () => {
    const till = await tillFor(proxy.url);
    sandbox.faults.set({ rateLimitRate: 1, retryAfterSeconds: 30 });
    const result = await till.call('searchCustomers', { search: 'layla' });
    expect(result).toMatchObject({ ok: false, error: { kind: 'rate_limited', status: 429, retryAfterMs: 30_000 } });
    expect(proxy.requests).toHaveLength(1);
  });

  test('429 with a short Retry-After: a GET waits and retries, a bounded number of times', async () => {
    const till = await tillFor(proxy.url);
    sandbox.faults.set({ rateLimitRate: 1, retryAfterSeconds: 1 });
    const result = await till.call('getCustomer', { id: layla.id });
    expect(result).toMatchObject({ ok: false, error: { kind: 'rate_limited', retryAfterMs: 1000 } });
    expect(proxy.requests).toHaveLength(3);
    // It waited Retry-After (1 s) before each of its two retries: 2 s in all.
    expect(retryWaits).toEqual([1000, 1000]);
  });

  test('a rate-limited GET that succeeds on retry is a success', async () => {
    let calls = 0;
    const flaky = await stub((request, response) => {
      calls++;
      if (calls === 1) {
        response
          .writeHead(429, { 'Retry-After': '0', 'Content-Type': 'application/json' })
          .end('{"message":"slow down"}');
        return;
      }
      const customer = { ...CUSTOMER, rewards: [] };
      response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ ok: true, data: customer }));
    });
    const till = await tillFor(flaky.url);
    const result = await till.call('getCustomer', { id: layla.id });
    expect(result).toMatchObject({ ok: true, data: { id: layla.id } });
    expect(flaky.requests).toHaveLength(2);
  });

  test('500: a GET is retried (bounded) and then reported as server', async () => {
    const till = await tillFor(proxy.url);
    sandbox.faults.set({ errorRate: 1 });
    const result = await till.call('searchCustomers', { search: 'layla' });
    expect(result).toMatchObject({ ok: false, error: { kind: 'server', status: 500, code: 'server_error' } });
    expect(proxy.requests).toHaveLength(3);
  });

  test('500 on a redeem or any write is never retried', async () => {
    const till = await tillFor(proxy.url);
    sandbox.faults.set({ errorRate: 1 });
    const redeem = await till.call('redeemReward', { reward_code: layla.rewards.availableProduct, phone: layla.phone });
    expect(redeem).toMatchObject({ ok: false, error: { kind: 'server', status: 500 } });
    const register = await till.call('registerCustomer', { name: 'Retry Never', phone: '+966551119999' });
    expect(register).toMatchObject({ ok: false, error: { kind: 'server' } });
    expect(proxy.requests.map((r) => r.method)).toEqual(['POST', 'POST']);
    expect(sandbox.redemptions().filter((r) => r.code === layla.rewards.availableProduct)).toHaveLength(0);
  });

  test('a dropped connection on a GET is retried and then offline', async () => {
    const till = await tillFor(proxy.url);
    sandbox.faults.set({ dropRate: 1 });
    const result = await till.call('getCustomer', { id: layla.id });
    expect(result).toMatchObject({ ok: false, error: { kind: 'offline' } });
    expect(proxy.requests).toHaveLength(3);
  });
});

describe('answers that cannot be read', () => {
  test('an HTML page where JSON was expected is bad_response', async () => {
    const portal = await stub((_, response) => {
      response
        .writeHead(200, { 'Content-Type': 'text/html' })
        .end('<!doctype html><html><body>Wi-Fi login</body></html>');
    });
    const till = await tillFor(portal.url);
    const result = await till.call('getCustomer', { id: layla.id });
    expect(result).toMatchObject({ ok: false, error: { kind: 'bad_response', status: 200 } });
    if (!result.ok) expect(result.error.message).not.toContain('<');
  });

  test('an HTML error page with a 502 is server, without the markup in the message', async () => {
    const gateway = await stub((_, response) => {
      response
        .writeHead(502, { 'Content-Type': 'text/html' })
        .end('<html><body><h1>502 Bad Gateway</h1></body></html>');
    });
    const till = await tillFor(gateway.url);
    const result = await till.call('checkReward', { reward_code: 'RW-ABC123', phone: layla.phone });
    expect(result).toMatchObject({ ok: false, error: { kind: 'server', status: 502 } });
    if (!result.ok) expect(result.error.message).not.toMatch(/<|html/i);
  });

  test('malformed JSON is bad_response', async () => {
    const broken = await stub((_, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok": true, "data": [');
    });
    const till = await tillFor(broken.url);
    const result = await till.call('searchCustomers', { search: 'x' });
    expect(result).toMatchObject({ ok: false, error: { kind: 'bad_response' } });
  });

  test('JSON in the wrong envelope is bad_response', async () => {
    const other = await stub((_, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' }).end('{"customers": []}');
    });
    const till = await tillFor(other.url);
    const result = await till.call('searchCustomers', { search: 'x' });
    expect(result).toMatchObject({ ok: false, error: { kind: 'bad_response', status: 200 } });
  });

  test('a redirect is not followed (the key must not travel elsewhere)', async () => {
    const elsewhere = await stub((_, response) => response.writeHead(200).end('{"ok":true,"data":{}}'));
    const redirecting = await stub((_, response) =>
      response.writeHead(302, { Location: `${elsewhere.url}/v1/customers` }).end(),
    );
    const till = await tillFor(redirecting.url);
    const result = await till.call('searchCustomers', { search: 'x' });
    expect(result).toMatchObject({ ok: false, error: { kind: 'bad_response', status: 302 } });
    expect(elsewhere.requests).toHaveLength(0);
  });
});

describe('a real service whose error bodies differ from the sandbox', () => {
  test('Laravel-style validation errors arrive as fields', async () => {
    const laravel = await stub((_, response) => {
      response.writeHead(422, { 'Content-Type': 'application/json' }).end(
        JSON.stringify({
          message: 'The email has already been taken. (and 1 more error)',
          errors: {
            email: ['The email has already been taken.'],
            birthday: ['The birthday must be a date before today.'],
          },
        }),
      );
    });
    const till = await tillFor(laravel.url);
    const result = await till.call('registerCustomer', { name: 'A B', phone: '+966551110000', email: 'a@example.com' });
    expect(result).toEqual({
      ok: false,
      error: {
        kind: 'validation',
        status: 422,
        message: 'The email has already been taken. (and 1 more error)',
        fields: { email: 'The email has already been taken.', birthday: 'The birthday must be a date before today.' },
      },
    });
  });

  test('a 422 naming reward_unavailable in another shape is still reward_unavailable', async () => {
    const other = await stub((_, response) => {
      response
        .writeHead(422, { 'Content-Type': 'application/json' })
        .end('{"ok":false,"code":"reward_unavailable","message":"Already used"}');
    });
    const till = await tillFor(other.url);
    const result = await till.call('redeemReward', { reward_code: 'RW-X1', phone: layla.phone });
    expect(result).toMatchObject({ ok: false, error: { kind: 'reward_unavailable', message: 'Already used' } });
  });

  test('a bare-string 404 body becomes the message', async () => {
    const plain = await stub((_, response) =>
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('Customer not found'),
    );
    const till = await tillFor(plain.url);
    const result = await till.call('getCustomer', { id: layla.id });
    expect(result).toEqual({ ok: false, error: { kind: 'not_found', status: 404, message: 'Customer not found' } });
  });

  test('a 403 with an empty body is unauthorized with a plain message', async () => {
    const forbidden = await stub((_, response) => response.writeHead(403).end());
    const till = await tillFor(forbidden.url);
    const result = await till.call('getCustomer', { id: layla.id });
    expect(result).toMatchObject({ ok: false, error: { kind: 'unauthorized', status: 403 } });
    if (!result.ok) expect(result.error.message).toMatch(/API key/);
  });
});
