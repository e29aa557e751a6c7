/**
 * The laravel dialect: the same service answering as one built from the spec on Laravel
 * would, wherever the spec leaves the choice open. Each difference from the spec dialect is
 * asserted against a spec-dialect sandbox with the same data and clock, so that "the same
 * value, written differently" is checked, not just the form. Requests are read alike.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_FIXTURES, startSandbox, type Sandbox } from '../../sandbox';
import { byPhone, get, post, put, type Reply } from './support/http';
import { expectCustomer, expectError } from './support/shapes';

// Real HTTP on a shared machine: generous limits, so that load is not taken for a failure.
vi.setConfig({ testTimeout: 30_000, hookTimeout: 60_000 });

const { layla, omar, soren, lukasz } = DEMO_FIXTURES;
/** One clock for both sandboxes, so the same data carries the same instants. */
const NOW = new Date('2026-05-01T10:00:00Z');
/** Carbon's JSON form: microseconds and `Z`. */
const CARBON = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const DIGITS = /^\d+$/;
const LARAVEL_META = ['current_page', 'from', 'last_page', 'links', 'path', 'per_page', 'to', 'total'];

let laravel: Sandbox;
let spec: Sandbox;

beforeAll(async () => {
  [laravel, spec] = await Promise.all([
    startSandbox({ dialect: 'laravel', now: () => NOW }),
    startSandbox({ now: () => NOW }),
  ]);
});
afterAll(async () => {
  await Promise.all([laravel.close(), spec.close()]);
});

const customerIn = async (sandbox: Sandbox, id: string) => (await get(sandbox, `/v1/customers/${id}`)).body.data;
const sorted = (keys: string[]) => [...keys].sort();
/** The same instant, written as Carbon writes it. */
const expectCarbonOf = (value: unknown, specValue: string | null) => {
  if (specValue === null) return expect(value).toBeNull();
  expect(value).toMatch(CARBON);
  expect(Date.parse(value as string)).toBe(Date.parse(specValue));
};
/** A Laravel error body: exactly these keys, no `ok` wrapper. */
const expectLaravelError = (reply: Reply, status: number, body: Record<string, unknown>) => {
  expect(reply.status, reply.text).toBe(status);
  expect(reply.body).toEqual(body);
};

describe('the laravel dialect: error bodies', () => {
  it('401 is { message: "Unauthenticated." }, with WWW-Authenticate still sent', async () => {
    const reply = await get(laravel, '/v1/customers', { key: null });
    expectLaravelError(reply, 401, { message: 'Unauthenticated.' });
    expect(reply.headers.get('www-authenticate')).toBe('Bearer');
    expectLaravelError(await get(laravel, '/v1/customers', { key: 'not-a-key' }), 401, {
      message: 'Unauthenticated.',
    });
  });

  it('404 is { message } for an unknown customer, an unknown reward code and an unknown route', async () => {
    for (const reply of [
      await get(laravel, '/v1/customers/00000000-0000-4000-8000-000000000000'),
      await post(laravel, '/v1/rewards/check', { reward_code: 'RW-NOSUCH01', phone: layla.phone }),
      await get(laravel, '/v1/no-such-route'),
    ]) {
      expect(reply.status).toBe(404);
      expect(Object.keys(reply.body)).toEqual(['message']);
      expect(reply.body.message.length).toBeGreaterThan(0);
    }
  });

  it('422 validation is { message, errors }: the first message with a count of the rest, each field named', async () => {
    expectLaravelError(await post(laravel, '/v1/customers', {}), 422, {
      message: 'The name field is required. (and 1 more error)',
      errors: { name: ['The name field is required.'], phone: ['The phone field is required.'] },
    });
    expectLaravelError(await post(laravel, '/v1/rewards/check', { phone: layla.phone, colour: 'red' }), 422, {
      message: 'The reward code field is required. (and 1 more error)',
      errors: { reward_code: ['The reward code field is required.'], colour: ['This field is not accepted here.'] },
    });
    const threeFields = await post(laravel, '/v1/customers', { email: 'nope' });
    expect(threeFields.status).toBe(422);
    expect(threeFields.body.message).toBe('The name field is required. (and 2 more errors)');
    // One problem: its message alone.
    const one = await post(laravel, '/v1/customers', { name: 'Only Phone Wrong', phone: '+4412' });
    expect(one.status).toBe(422);
    expect(sorted(Object.keys(one.body))).toEqual(['errors', 'message']);
    expect(Object.keys(one.body.errors)).toEqual(['phone']);
    expect(one.body.message).toBe(one.body.errors.phone[0]);
  });

  it('422 reward_unavailable is { message, code }', async () => {
    const reply = await post(laravel, '/v1/rewards/redeem', {
      reward_code: layla.rewards.redeemed,
      phone: layla.phone,
    });
    expectLaravelError(reply, 422, { message: 'This reward has already been redeemed.', code: 'reward_unavailable' });
  });

  it('429 is { message: "Too Many Attempts." } with Retry-After, and 500 is { message: "Server Error" }', async () => {
    try {
      laravel.faults.set({ rateLimitRate: 1, retryAfterSeconds: 7 });
      const limited = await get(laravel, '/v1/customers');
      expectLaravelError(limited, 429, { message: 'Too Many Attempts.' });
      expect(limited.headers.get('retry-after')).toBe('7');
      laravel.faults.set({ rateLimitRate: 0, errorRate: 1 });
      expectLaravelError(await get(laravel, '/v1/customers'), 500, { message: 'Server Error' });
    } finally {
      laravel.faults.reset();
    }
  });
});

describe('the laravel dialect: resources', () => {
  it('a customer: Carbon timestamps, a date-time birthday, updated_at and deleted_at, and nothing else added', async () => {
    const [shown, plain] = [await customerIn(laravel, layla.id), await customerIn(spec, layla.id)];
    expect(sorted(Object.keys(shown))).toEqual(sorted([...Object.keys(plain), 'updated_at', 'deleted_at']));
    expect(shown.birthday).toBe('1990-04-12T00:00:00.000000Z');
    expectCarbonOf(shown.created_at, plain.created_at);
    expectCarbonOf(shown.last_visit_at, plain.last_visit_at);
    // Never corrected: updated when created.
    expect(shown.updated_at).toBe(shown.created_at);
    expect(shown.deleted_at).toBeNull();
    expect(shown).toMatchObject({ id: plain.id, name: plain.name, phone: plain.phone, email: plain.email });
    // An unset birthday stays null.
    expect((await customerIn(laravel, omar.id)).birthday).toBeNull();
  });

  it('a card: numbers as numeric strings, customer_id and created_at, and the programme with its slug', async () => {
    const [shown, plain] = [await customerIn(laravel, layla.id), await customerIn(spec, layla.id)];
    expect(shown.cards).toHaveLength(plain.cards.length);
    shown.cards.forEach((card: any, index: number) => {
      const specCard = plain.cards[index];
      expect(sorted(Object.keys(card))).toEqual(sorted([...Object.keys(specCard), 'customer_id', 'created_at']));
      for (const field of ['visits', 'points', 'spent']) {
        expect(card[field]).toMatch(DIGITS);
        expect(card[field]).toBe(String(specCard[field]));
      }
      expect(card.customer_id).toBe(layla.id);
      // The demo's cards were made with their customer.
      expectCarbonOf(card.created_at, plain.created_at);
      expect(card.program).toEqual({ ...specCard.program, slug: expect.any(String) });
    });
    expect(shown.cards.map((card: any) => card.program.slug)).toEqual(['coffee-club', 'bakery']);
  });

  it('a reward: a numeric id, card_id, Carbon timestamps, a decimal-string price and a string quantity', async () => {
    const [shown, plain] = [await customerIn(laravel, layla.id), await customerIn(spec, layla.id)];
    const coffeeCardId = shown.cards[0].id;
    expect(shown.rewards.map((reward: any) => reward.code)).toEqual(plain.rewards.map((reward: any) => reward.code));
    shown.rewards.forEach((reward: any, index: number) => {
      const specReward = plain.rewards[index];
      expect(sorted(Object.keys(reward))).toEqual(sorted([...Object.keys(specReward), 'id', 'card_id']));
      expect(Number.isInteger(reward.id) && reward.id > 0).toBe(true);
      expect(reward.card_id).toBe(coffeeCardId);
      expectCarbonOf(reward.earned_at, specReward.earned_at);
      expectCarbonOf(reward.expires_at, specReward.expires_at);
      expect(reward.redeemed_at).toBeNull();
      expect(reward.allowed_products).toEqual({
        ...specReward.allowed_products,
        quantity: String(specReward.allowed_products.quantity),
      });
    });
    const points = shown.rewards.find((reward: any) => reward.code === layla.rewards.availablePoints);
    expect(points.price).toBe('50.00');
    expect(points.expires_at).toBeNull();
    // Row numbers, as an auto-increment key: distinct, and the same on every answer.
    const check = await post(laravel, '/v1/rewards/check', { reward_code: points.code, phone: layla.phone });
    expect(check.body.data.id).toBe(points.id);
    expect(new Set(shown.rewards.map((reward: any) => reward.id)).size).toBe(shown.rewards.length);
  });

  it('a redemption: the reward and the card in the dialect, redeemed_at a Carbon timestamp, the points deducted', async () => {
    const before = (await customerIn(laravel, layla.id)).cards[0];
    const reply = await post(laravel, '/v1/rewards/redeem', {
      reward_code: layla.rewards.availablePoints,
      phone: layla.phone,
    });
    expect(reply.status).toBe(200);
    expect(sorted(Object.keys(reply.body))).toEqual(['data', 'message', 'ok']);
    const { reward, card } = reply.body.data;
    expect(reward).toMatchObject({ status: 'redeemed', price: '50.00', card_id: before.id });
    expectCarbonOf(reward.redeemed_at, NOW.toISOString());
    expect(card).toMatchObject({ id: before.id, customer_id: layla.id, points: String(Number(before.points) - 50) });
  });

  it('updated_at moves when a correction changes something, and only then', async () => {
    const first = await put(laravel, `/v1/customers/${soren.id}`, { birthday: '1979-02-03' });
    expect(first.status).toBe(200);
    expect(first.body.data.birthday).toBe('1979-02-03T00:00:00.000000Z');
    expectCarbonOf(first.body.data.updated_at, NOW.toISOString());
    expect(first.body.data.updated_at).not.toBe(first.body.data.created_at);
    const cleared = await put(laravel, `/v1/customers/${soren.id}`, { birthday: null });
    expect(cleared.body.data.birthday).toBeNull();
  });

  it('a registration answers the new customer and card in the dialect', async () => {
    const body = { name: 'Dialect Dana', phone: '+447400900701' };
    // Registered in both, so that both sandboxes still hold the same customers.
    const [reply, plain] = [await post(laravel, '/v1/customers', body), await post(spec, '/v1/customers', body)];
    expect(reply.status).toBe(201);
    expect(plain.status).toBe(201);
    const [card] = reply.body.data.cards;
    expect(card).toMatchObject({ customer_id: reply.body.data.id, visits: '0', points: '0', spent: '0' });
    expectCarbonOf(card.created_at, plain.body.data.created_at);
    expect(reply.body.data.updated_at).toBe(reply.body.data.created_at);
  });
});

describe('the laravel dialect: the search page', () => {
  it('keeps the spec envelope and meta integers, and adds the paginator links and meta keys', async () => {
    const [shown, plain] = [await get(laravel, '/v1/customers'), await get(spec, '/v1/customers')];
    expect(sorted(Object.keys(shown.body))).toEqual(['data', 'links', 'meta', 'ok']);
    expect(shown.body.ok).toBe(true);
    expect(sorted(Object.keys(shown.body.meta))).toEqual(LARAVEL_META);
    for (const field of ['current_page', 'last_page', 'per_page', 'total']) {
      expect(shown.body.meta[field]).toBe(plain.body.meta[field]);
      expect(Number.isInteger(shown.body.meta[field])).toBe(true);
    }
    const path = `${laravel.url}/v1/customers`;
    const last = shown.body.meta.last_page;
    expect(shown.body.links).toEqual({
      first: `${path}?page=1`,
      last: `${path}?page=${last}`,
      prev: null,
      next: `${path}?page=2`,
    });
    expect(shown.body.meta).toMatchObject({ from: 1, to: 20, path });
    expect(shown.body.data.map((customer: any) => customer.id)).toEqual(
      plain.body.data.map((customer: any) => customer.id),
    );
  });

  it('meta.links is UrlWindow: previous, the pages around the current one with "..." between, next', async () => {
    const reply = await get(laravel, '/v1/customers?page=8');
    const { meta } = reply.body;
    // The demo's 305 customers make 16 pages of 20; page 8 is in the middle, with the full slider.
    expect(meta.last_page).toBe(16);
    const labels = meta.links.map((link: any) => link.label);
    expect(labels).toEqual([
      '&laquo; Previous',
      '1',
      '2',
      '...',
      ...['5', '6', '7', '8', '9', '10', '11'],
      '...',
      '15',
      '16',
      'Next &raquo;',
    ]);
    const path = `${laravel.url}/v1/customers`;
    expect(meta.links[0]).toEqual({ url: `${path}?page=7`, label: '&laquo; Previous', active: false });
    expect(meta.links.find((link: any) => link.active)).toEqual({ url: `${path}?page=8`, label: '8', active: true });
    expect(meta.links.filter((link: any) => link.label === '...').every((link: any) => link.url === null)).toBe(true);
    expect(meta).toMatchObject({ from: 141, to: 160 });
  });

  it('links keep the query, and a page past the end has from and to null and no next page', async () => {
    const reply = await get(laravel, `/v1/customers?${byPhone(lukasz.phone)}&per_page=5&page=3`);
    expect(reply.status).toBe(200);
    expect(reply.body.data).toEqual([]);
    const path = `${laravel.url}/v1/customers`;
    const query = `phone=${encodeURIComponent(lukasz.phone)}&per_page=5`;
    expect(reply.body.links).toEqual({
      first: `${path}?${query}&page=1`,
      last: `${path}?${query}&page=1`,
      prev: `${path}?${query}&page=2`,
      next: null,
    });
    expect(reply.body.meta).toMatchObject({
      current_page: 3,
      last_page: 1,
      per_page: 5,
      total: 1,
      from: null,
      to: null,
    });
  });
});

describe('faults after the work, in the laravel dialect', () => {
  it('commitThenErrorRate 1: the redemption commits, and the answer is 503 { message: "Server Error" }', async () => {
    try {
      laravel.faults.set({ commitThenErrorRate: 1 });
      const reply = await post(laravel, '/v1/rewards/redeem', { reward_code: omar.reward, phone: omar.phone });
      expectLaravelError(reply, 503, { message: 'Server Error' });
    } finally {
      laravel.faults.reset();
    }
    expect(laravel.redemptions()).toContainEqual(expect.objectContaining({ code: omar.reward, customer_id: omar.id }));
  });
});

describe('the spec dialect', () => {
  it('is the default, and answers as it always has', async () => {
    const [byDefault, explicit] = await Promise.all([
      startSandbox({ now: () => NOW }),
      startSandbox({ dialect: 'spec', now: () => NOW }),
    ]);
    try {
      for (const path of ['/v1/customers?per_page=3', `/v1/customers/${lukasz.id}`, '/v1/customers/not-a-uuid']) {
        const [a, b] = [await get(byDefault, path), await get(explicit, path)];
        expect(b.status).toBe(a.status);
        expect(b.text).toBe(a.text);
      }
      const page = await get(explicit, '/v1/customers');
      expect(sorted(Object.keys(page.body))).toEqual(['data', 'meta', 'ok']);
      expectCustomer(page.body.data[0], { withRewards: false });
      expectCustomer(await customerIn(explicit, layla.id), { withRewards: true });
      expect((await customerIn(explicit, layla.id)).birthday).toBe('1990-04-12');
      expect((await get(explicit, '/v1/customers', { key: null })).text).toBe(
        '{"ok":false,"error":{"code":"unauthorized","message":"A valid API key is required."}}',
      );
      expectError(
        await post(explicit, '/v1/rewards/redeem', { reward_code: layla.rewards.redeemed, phone: layla.phone }),
        422,
        'reward_unavailable',
      );
    } finally {
      await Promise.all([byDefault.close(), explicit.close()]);
    }
  });

  it('an unknown dialect is refused at start', async () => {
    await expect(startSandbox({ dialect: 'symfony' as 'spec' })).rejects.toThrow(/dialect "symfony"/);
  });
});
