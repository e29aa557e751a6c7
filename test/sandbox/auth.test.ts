/**
 * Authentication (`Authorization: Bearer <key>`) and the rule that a key earns on one
 * programme: customers registered with it get a card in that programme.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_FIXTURES, startSandbox, type Sandbox } from '../../sandbox';
import { byPhone, call, get, post } from './support/http';
import { expectCustomer, expectError } from './support/shapes';

// Real HTTP on a shared machine: generous limits, so that load is not taken for a failure.
vi.setConfig({ testTimeout: 30_000, hookTimeout: 60_000 });

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ keys: { a: 'coffee-club', b: 'bakery' } });
});
afterAll(async () => {
  await sandbox.close();
});

function expectUnauthorized(reply: { status: number; body: any; headers: Headers }) {
  expectError(reply, 401, 'unauthorized');
  expect(reply.headers.get('www-authenticate')).toMatch(/^Bearer/);
}

describe('authentication', () => {
  const attempts: Array<[string, Record<string, string>]> = [
    ['no Authorization header', {}],
    ['the Basic scheme', { authorization: `Basic ${Buffer.from('a:').toString('base64')}` }],
    ['the key without a scheme', { authorization: 'a' }],
    ['an empty bearer token', { authorization: 'Bearer ' }],
    ['an unknown key', { authorization: 'Bearer not-a-key' }],
    ['a key of another sandbox (the default demo key)', { authorization: 'Bearer demo-key' }],
  ];

  for (const [what, headers] of attempts) {
    it(`refuses ${what} with 401, WWW-Authenticate: Bearer and the error body`, async () => {
      for (const [method, path, json] of [
        ['GET', '/v1/customers', undefined],
        ['GET', `/v1/customers/${DEMO_FIXTURES.layla.id}`, undefined],
        ['POST', '/v1/customers', { name: 'Intruder', phone: '+447400900222' }],
        ['POST', '/v1/rewards/redeem', { reward_code: DEMO_FIXTURES.omar.reward, phone: DEMO_FIXTURES.omar.phone }],
      ] as const) {
        const reply = await call(sandbox, method, path, { key: null, headers, json });
        expectUnauthorized(reply);
      }
    });
  }

  it('does nothing for a refused request', async () => {
    await post(sandbox, '/v1/customers', { name: 'Intruder', phone: '+447400900222' }, { key: 'wrong' });
    await post(
      sandbox,
      '/v1/rewards/redeem',
      { reward_code: DEMO_FIXTURES.omar.reward, phone: DEMO_FIXTURES.omar.phone },
      { key: 'wrong' },
    );
    const search = await get(sandbox, `/v1/customers?${byPhone('+447400900222')}`, { key: 'a' });
    expect(search.body.meta.total).toBe(0);
    expect(sandbox.redemptions()).toEqual([]);
  });

  it('never echoes the key it was given', async () => {
    const reply = await get(sandbox, '/v1/customers', { key: 'secret-key-1234567890' });
    expect(reply.status).toBe(401);
    expect(reply.text).not.toContain('secret-key-1234567890');
  });

  it('accepts the scheme in any case, as RFC 7235 asks', async () => {
    const reply = await call(sandbox, 'GET', '/v1/customers', { key: null, headers: { authorization: 'bearer a' } });
    expect(reply.status).toBe(200);
  });

  it('answers 401 before 404 on an unknown route, so the routes are not revealed to a caller without a key', async () => {
    expectUnauthorized(await get(sandbox, '/v1/no-such-thing', { key: null }));
  });
});

describe('a key earns on one programme', () => {
  const cardNames = (customer: any) => customer.cards.map((card: any) => card.program.name).sort();

  it('registering with the bakery key gives a Bakery Points card, with the coffee key a Coffee Club card', async () => {
    const bakery = await post(sandbox, '/v1/customers', { name: 'Bread Lover', phone: '+447400900301' }, { key: 'b' });
    expect(bakery.status).toBe(201);
    expectCustomer(bakery.body.data, { withRewards: false });
    expect(cardNames(bakery.body.data)).toEqual(['Bakery Points']);
    expect(bakery.body.data.cards[0]).toMatchObject({ visits: 0, points: 0, spent: 0, status: 'active' });

    const coffee = await post(sandbox, '/v1/customers', { name: 'Coffee Lover', phone: '+447400900302' }, { key: 'a' });
    expect(coffee.status).toBe(201);
    expect(cardNames(coffee.body.data)).toEqual(['Coffee Club']);
  });

  it('an existing customer without a card in the key\u2019s programme gets one, and only one on repeat', async () => {
    const { soren } = DEMO_FIXTURES;
    const before = await get(sandbox, `/v1/customers/${soren.id}`, { key: 'a' });
    expect(cardNames(before.body.data)).toEqual(['Coffee Club']);

    const first = await post(sandbox, '/v1/customers', { name: soren.name, phone: soren.phone }, { key: 'b' });
    expect(first.status).toBe(200);
    expect(first.body.data.id).toBe(soren.id);
    expect(cardNames(first.body.data)).toEqual(['Bakery Points', 'Coffee Club']);
    // The card that was there is untouched.
    const coffeeBefore = before.body.data.cards[0];
    expect(first.body.data.cards.find((card: any) => card.id === coffeeBefore.id)).toEqual(coffeeBefore);

    const second = await post(sandbox, '/v1/customers', { name: soren.name, phone: soren.phone }, { key: 'b' });
    expect(second.status).toBe(200);
    expect(cardNames(second.body.data)).toEqual(['Bakery Points', 'Coffee Club']);
    expect(second.body.data.cards).toEqual(first.body.data.cards);

    const after = await get(sandbox, `/v1/customers/${soren.id}`, { key: 'a' });
    expect(after.body.data.cards).toEqual(first.body.data.cards);
  });

  it('a customer who already has a card in the programme gets no new one', async () => {
    const { layla } = DEMO_FIXTURES;
    const before = await get(sandbox, `/v1/customers/${layla.id}`, { key: 'b' });
    const reply = await post(sandbox, '/v1/customers', { name: layla.name, phone: layla.phone }, { key: 'b' });
    expect(reply.status).toBe(200);
    expect(reply.body.data.cards).toEqual(before.body.data.cards);
  });

  it('card serial numbers stay unique as cards are added', async () => {
    const serials: string[] = [];
    for (let page = 1; ; page++) {
      const reply = await get(sandbox, `/v1/customers?per_page=100&page=${page}`, { key: 'a' });
      serials.push(...reply.body.data.flatMap((c: any) => c.cards.map((card: any) => card.serial_number)));
      if (page >= reply.body.meta.last_page) break;
    }
    expect(new Set(serials).size).toBe(serials.length);
  });
});
