/**
 * Bad input gets a clear 4xx in the documented error body, never crashes the service and
 * never corrupts its data file.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_FIXTURES, startSandbox, type Sandbox } from '../../sandbox';
import { allCustomers, byPhone, get, post, rawRequest, type RawReply } from './support/http';
import { expectError, expectFieldError } from './support/shapes';

// Real HTTP on a shared machine: generous limits, so that load is not taken for a failure.
vi.setConfig({ testTimeout: 30_000, hookTimeout: 60_000 });

const { layla, omar } = DEMO_FIXTURES;
const JSON_TYPE = { 'content-type': 'application/json' };

/** A request the service must refuse, the status and code it must answer with. */
interface BadRequest {
  what: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  status: number;
  code: string;
  field?: string;
}

const oversized = JSON.stringify({ name: 'x'.repeat(17 * 1024), phone: '+447400900999' });

const BAD_REQUESTS: BadRequest[] = [
  {
    what: 'malformed JSON',
    method: 'POST',
    path: '/v1/customers',
    headers: JSON_TYPE,
    body: '{"name": "A", "phone": ',
    status: 400,
    code: 'malformed_json',
  },
  {
    what: 'JSON with a trailing comma',
    method: 'POST',
    path: '/v1/rewards/redeem',
    headers: JSON_TYPE,
    body: `{"reward_code":"${omar.reward}","phone":"${omar.phone}",}`,
    status: 400,
    code: 'malformed_json',
  },
  {
    what: 'an empty JSON body',
    method: 'POST',
    path: '/v1/customers',
    headers: JSON_TYPE,
    body: '',
    status: 400,
    code: 'malformed_json',
  },
  {
    what: 'a JSON array body',
    method: 'POST',
    path: '/v1/customers',
    headers: JSON_TYPE,
    body: '[{"name":"A","phone":"+447400900999"}]',
    status: 422,
    code: 'validation_failed',
    field: 'body',
  },
  {
    what: 'a JSON string body',
    method: 'POST',
    path: '/v1/customers',
    headers: JSON_TYPE,
    body: '"+447400900999"',
    status: 422,
    code: 'validation_failed',
    field: 'body',
  },
  {
    what: 'a JSON number body',
    method: 'PUT',
    path: `/v1/customers/${layla.id}`,
    headers: JSON_TYPE,
    body: '42',
    status: 422,
    code: 'validation_failed',
    field: 'body',
  },
  {
    what: 'JSON null',
    method: 'POST',
    path: '/v1/rewards/redeem',
    headers: JSON_TYPE,
    body: 'null',
    status: 422,
    code: 'validation_failed',
  },
  {
    what: 'a number for the name',
    method: 'POST',
    path: '/v1/customers',
    headers: JSON_TYPE,
    body: '{"name": 12, "phone": "+447400900999"}',
    status: 422,
    code: 'validation_failed',
    field: 'name',
  },
  {
    what: 'an object for the phone',
    method: 'POST',
    path: '/v1/rewards/redeem',
    headers: JSON_TYPE,
    body: `{"reward_code":"${omar.reward}","phone":{"e164":"${omar.phone}"}}`,
    status: 422,
    code: 'validation_failed',
    field: 'phone',
  },
  {
    what: 'a prototype-pollution attempt',
    method: 'POST',
    path: '/v1/customers',
    headers: JSON_TYPE,
    body: '{"name":"A","phone":"+447400900999","__proto__":{"admin":true}}',
    status: 400,
    code: 'malformed_json',
  },
  {
    what: 'a body over 16 KiB',
    method: 'POST',
    path: '/v1/customers',
    headers: JSON_TYPE,
    body: oversized,
    status: 413,
    code: 'payload_too_large',
  },
  {
    what: 'a text/plain body',
    method: 'POST',
    path: '/v1/customers',
    headers: { 'content-type': 'text/plain' },
    body: '{"name":"A","phone":"+447400900999"}',
    status: 415,
    code: 'unsupported_media_type',
  },
  {
    what: 'a form body',
    method: 'POST',
    path: '/v1/rewards/redeem',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `reward_code=${omar.reward}&phone=${encodeURIComponent(omar.phone)}`,
    status: 415,
    code: 'unsupported_media_type',
  },
  { what: 'an unknown route', method: 'GET', path: '/v1/orders', status: 404, code: 'not_found' },
  { what: 'an unknown version', method: 'GET', path: '/v2/customers', status: 404, code: 'not_found' },
  {
    what: 'an unsupported method on a known path',
    method: 'DELETE',
    path: `/v1/customers/${layla.id}`,
    status: 404,
    code: 'not_found',
  },
  {
    what: 'a malformed customer id',
    method: 'GET',
    path: '/v1/customers/..%2F..%2Fetc%2Fpasswd',
    status: 422,
    code: 'validation_failed',
    field: 'id',
  },
];

function expectRefused(reply: RawReply, bad: BadRequest): void {
  expect(reply.headers['content-type'], bad.what).toMatch(/^application\/json/);
  expectError(reply, bad.status, bad.code);
  if (bad.field) expectFieldError(reply, bad.field);
}

describe('bad input', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox();
  });
  afterAll(async () => {
    await sandbox.close();
  });

  for (const bad of BAD_REQUESTS) {
    it(`${bad.what} -> ${bad.status} ${bad.code}, and the service still answers`, async () => {
      expectRefused(await rawRequest(sandbox, bad), bad);
      const alive = await get(sandbox, `/v1/customers?${byPhone(layla.phone)}`);
      expect(alive.status).toBe(200);
      expect(alive.body.data[0].id).toBe(layla.id);
    });
  }

  it('an unknown field named like a built-in of JavaScript objects is a 422 naming it, not a crash', async () => {
    for (const name of ['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__']) {
      const query = await get(sandbox, `/v1/customers?${name}=1`);
      expectFieldError(query, name);
      if (name !== '__proto__') {
        // (A body's "__proto__" is refused earlier, as malformed JSON: see above.)
        const body = `{"name":"A","phone":"+447400900999","${name}":1}`;
        expectFieldError(
          await rawRequest(sandbox, { method: 'POST', path: '/v1/customers', headers: JSON_TYPE, body }),
          name,
        );
        const update = `{"${name}":"x"}`;
        expectFieldError(
          await rawRequest(sandbox, {
            method: 'PUT',
            path: `/v1/customers/${layla.id}`,
            headers: JSON_TYPE,
            body: update,
          }),
          name,
        );
      }
    }
  });

  it('an oversized body sent in chunks, without a Content-Length, is 413 too', async () => {
    const reply = await new Promise<RawReply>((resolve, reject) => {
      const url = new URL(sandbox.url);
      const req = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: '/v1/customers',
          method: 'POST',
          agent: false,
          headers: { ...JSON_TYPE, authorization: 'Bearer demo-key', 'transfer-encoding': 'chunked' },
        },
        (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: JSON.parse(text) }),
          );
        },
      );
      req.on('error', reject);
      for (let i = 0; i < 20; i++) req.write(`${i === 0 ? '{"name":"' : ''}${'x'.repeat(1024)}`);
      req.end('","phone":"+447400900999"}');
    });
    expectError(reply, 413, 'payload_too_large');
  });

  it('a body just under the limit is read (and judged on its fields, not refused for its size)', async () => {
    const body = JSON.stringify({ name: 'x'.repeat(15 * 1024), phone: '+447400900999' });
    expectFieldError(
      await rawRequest(sandbox, { method: 'POST', path: '/v1/customers', headers: JSON_TYPE, body }),
      'name',
    );
  });

  it('none of the bad requests did anything', async () => {
    expect((await get(sandbox, `/v1/customers?${byPhone('+447400900999')}`)).body.meta.total).toBe(0);
    expect(sandbox.redemptions()).toEqual([]);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });
});

describe('bad input and the data file', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sandbox-bad-input-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('after a barrage of bad requests and a few good ones the file parses, and a new sandbox on it sees the good changes and nothing else', async () => {
    const dataFile = join(dir, 'data.json');
    const first = await startSandbox({ dataFile });
    const everyoneBefore = await allCustomers(first);
    const laylaBefore = (await get(first, `/v1/customers/${layla.id}`)).body.data;
    const diskBefore = JSON.parse(await readFile(dataFile, 'utf8'));

    // Bad requests, interleaved and concurrent, and good ones among them.
    const barrage = BAD_REQUESTS.flatMap((bad) => [rawRequest(first, bad), rawRequest(first, bad)]);
    const register = post(first, '/v1/customers', {
      name: 'Nadia Kowalczyk',
      phone: '+48601234567',
      email: 'nadia@example.pl',
    });
    const redeem = post(first, '/v1/rewards/redeem', {
      reward_code: omar.reward,
      phone: omar.phone,
      order_reference: 'GOOD-1',
    });
    const refused = [
      post(first, '/v1/customers', { name: 'Bad Birthday', phone: '+48601234568', birthday: '2023-02-30' }),
      post(first, '/v1/rewards/redeem', { reward_code: layla.rewards.expired, phone: layla.phone }),
      post(first, '/v1/rewards/redeem', { reward_code: layla.rewards.availableProduct, phone: omar.phone }),
      call(first, 'PUT', `/v1/customers/${layla.id}`, { name: 'Changed', phone: '+966509999999' }),
    ];
    const results = await Promise.all([...barrage, register, redeem, ...refused]);
    expect(results.every((reply) => reply.status >= 200 && reply.status < 500)).toBe(true);
    const registered = (await register).body.data;
    expect((await register).status).toBe(201);
    expect((await redeem).status).toBe(200);
    await first.close();

    // The file is whole, valid JSON.
    const onDisk = JSON.parse(await readFile(dataFile, 'utf8'));
    expect(onDisk.customers.filter((c: any) => c.phone === '+48601234567')).toHaveLength(1);

    const second = await startSandbox({ dataFile });
    try {
      const everyoneAfter = await allCustomers(second);
      // The good changes: one new customer, last in the oldest-first order ...
      expect(everyoneAfter).toHaveLength(everyoneBefore.length + 1);
      expect(everyoneAfter.at(-1)).toEqual(registered);
      // ... and nothing else: every other customer is exactly as before.
      expect(everyoneAfter.slice(0, -1)).toEqual(everyoneBefore);
      expect((await get(second, `/v1/customers/${layla.id}`)).body.data).toEqual(laylaBefore);
      // The redemption survived the restart: the reward is redeemed and cannot be redeemed again.
      const omarReward = await post(second, '/v1/rewards/check', { reward_code: omar.reward, phone: omar.phone });
      expect(omarReward.body.data.status).toBe('redeemed');
      expectError(
        await post(second, '/v1/rewards/redeem', { reward_code: omar.reward, phone: omar.phone }),
        422,
        'reward_unavailable',
      );
      // On disk, only that one reward changed, and it carries the order reference.
      const changedRewards = onDisk.rewards
        .filter((reward: any, i: number) => JSON.stringify(reward) !== JSON.stringify(diskBefore.rewards[i]))
        .map((reward: any) => reward.code);
      expect(onDisk.rewards).toHaveLength(diskBefore.rewards.length);
      expect(changedRewards).toEqual([omar.reward]);
      expect(onDisk.rewards.find((r: any) => r.code === omar.reward)).toMatchObject({ order_reference: 'GOOD-1' });
      // The only new card is the new customer's.
      expect(onDisk.cards.slice(0, diskBefore.cards.length)).toEqual(diskBefore.cards);
      expect(onDisk.cards.slice(diskBefore.cards.length).map((c: any) => c.customer_id)).toEqual([registered.id]);
    } finally {
      await second.close();
    }
  });
});

function call(target: Pick<Sandbox, 'url'>, method: string, path: string, json: unknown) {
  return rawRequest(target, { method, path, headers: JSON_TYPE, body: JSON.stringify(json) });
}
