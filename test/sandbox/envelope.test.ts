/**
 * The response envelope and every resource's fields, exactly as loyalty-api.md lists them.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_FIXTURES, startSandbox, type Sandbox } from '../../sandbox';
import { allCustomers, byPhone, get, post, put } from './support/http';
import { expectCard, expectCustomer, expectReward, expectTimestamp } from './support/shapes';

// Real HTTP on a shared machine: generous limits, so that load is not taken for a failure.
vi.setConfig({ testTimeout: 30_000, hookTimeout: 60_000 });

const { layla, omar } = DEMO_FIXTURES;
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox.close();
});

describe('the envelope', () => {
  it('search answers ok, data (an array) and meta, and no message', async () => {
    const reply = await get(sandbox, '/v1/customers');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Object.keys(reply.body).sort()).toEqual(['data', 'meta', 'ok']);
    expect(reply.body.ok).toBe(true);
    expect(Array.isArray(reply.body.data)).toBe(true);
    expect(Object.keys(reply.body.meta).sort()).toEqual(['current_page', 'last_page', 'per_page', 'total']);
    for (const value of Object.values(reply.body.meta)) expect(Number.isInteger(value)).toBe(true);
  });

  it('get-one answers ok and data (an object with rewards), and no message or meta', async () => {
    const reply = await get(sandbox, `/v1/customers/${layla.id}`);
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body).sort()).toEqual(['data', 'ok']);
    expect(reply.body.ok).toBe(true);
    expectCustomer(reply.body.data, { withRewards: true });
  });

  it('create answers ok, message and data (a customer without rewards), and no meta', async () => {
    const reply = await post(sandbox, '/v1/customers', { name: 'Envelope Test', phone: '+447400900111' });
    expect(reply.status).toBe(201);
    expect(Object.keys(reply.body).sort()).toEqual(['data', 'message', 'ok']);
    expect(reply.body.ok).toBe(true);
    expect(typeof reply.body.message).toBe('string');
    expect(reply.body.message.length).toBeGreaterThan(0);
    expectCustomer(reply.body.data, { withRewards: false });

    const again = await post(sandbox, '/v1/customers', { name: 'Envelope Test', phone: '+447400900111' });
    expect(again.status).toBe(200);
    expect(Object.keys(again.body).sort()).toEqual(['data', 'message', 'ok']);
    expectCustomer(again.body.data, { withRewards: false });
  });

  it('update answers ok, message and data (a customer without rewards), and no meta', async () => {
    const reply = await put(sandbox, `/v1/customers/${omar.id}`, { birthday: '1985-06-01' });
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body).sort()).toEqual(['data', 'message', 'ok']);
    expect(typeof reply.body.message).toBe('string');
    expectCustomer(reply.body.data, { withRewards: false });
  });

  it('check answers ok and data (a reward), and no message or meta', async () => {
    const reply = await post(sandbox, '/v1/rewards/check', {
      reward_code: layla.rewards.availableProduct,
      phone: layla.phone,
    });
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body).sort()).toEqual(['data', 'ok']);
    expectReward(reply.body.data);
  });

  it('redeem answers ok, message and data { reward, card }, and no meta', async () => {
    const reply = await post(sandbox, '/v1/rewards/redeem', {
      reward_code: layla.rewards.availableProduct,
      phone: layla.phone,
    });
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body).sort()).toEqual(['data', 'message', 'ok']);
    expect(typeof reply.body.message).toBe('string');
    expect(Object.keys(reply.body.data).sort()).toEqual(['card', 'reward']);
    expectReward(reply.body.data.reward);
    expect(reply.body.data.reward.status).toBe('redeemed');
    expectTimestamp(reply.body.data.reward.redeemed_at);
    expectCard(reply.body.data.card);
  });
});

describe('the resources', () => {
  it('every customer in the demo has exactly the Customer fields, typed as the spec says, and no rewards in a search', async () => {
    const customers = await allCustomers(sandbox);
    expect(customers.length).toBeGreaterThan(200);
    for (const customer of customers) expectCustomer(customer, { withRewards: false });
    // Ids and phones are identities: no two customers share one.
    expect(new Set(customers.map((c) => c.id)).size).toBe(customers.length);
    expect(new Set(customers.map((c) => c.phone)).size).toBe(customers.length);
  });

  it('the demo spans several countries, and has cards in both programmes', async () => {
    const customers = await allCustomers(sandbox);
    const countries = new Set(customers.map((c) => c.phone.split(' ')[0]));
    expect(countries.size).toBeGreaterThanOrEqual(5);
    const programmes = new Set(customers.flatMap((c) => c.cards.map((card: any) => card.program.name)));
    expect([...programmes].sort()).toEqual(['Bakery Points', 'Coffee Club']);
  });

  it('phones come back in international grouped form', async () => {
    const reply = await get(sandbox, `/v1/customers?${byPhone(layla.phone)}`);
    expect(reply.body.data).toHaveLength(1);
    expect(reply.body.data[0].phone).toBe('+966 50 123 4567');
    expect(reply.body.data[0].phone).toBe(layla.phoneShown);
  });

  it('rewards appear only on single-customer retrieval, and there only those awaiting redemption', async () => {
    const one = await get(sandbox, `/v1/customers/${DEMO_FIXTURES.layla.id}`);
    const codes = one.body.data.rewards.map((reward: any) => reward.code);
    expect(codes).toContain(layla.rewards.availablePoints);
    expect(codes).not.toContain(layla.rewards.redeemed);
    expect(codes).not.toContain(layla.rewards.expired);
    const points = one.body.data.rewards.find((reward: any) => reward.code === layla.rewards.availablePoints);
    expect(points.type).toBe('points');
    expect(points.price).toBe(50);

    const search = await get(sandbox, `/v1/customers?${byPhone(layla.phone)}`);
    expect(search.body.data[0]).not.toHaveProperty('rewards');
  });
});
