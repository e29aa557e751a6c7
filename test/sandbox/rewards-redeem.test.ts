/**
 * POST /v1/rewards/redeem: redeems once and only once, even under concurrent calls; stores
 * the branch and order reference; deducts a points reward's price from the card.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEMO_FIXTURES, startSandbox, type Sandbox } from '../../sandbox';
import { get, post } from './support/http';
import { expectCard, expectError, expectFieldError, expectReward, expectTimestamp } from './support/shapes';

// Real HTTP on a shared machine: generous limits, so that load is not taken for a failure.
vi.setConfig({ testTimeout: 30_000, hookTimeout: 60_000 });

const { layla, omar } = DEMO_FIXTURES;
const BRANCH = '9a7b6c5d-4e3f-4a1b-8c2d-3e4f5a6b7c8d';
let sandbox: Sandbox;

// Every test starts from the same fresh demo: redemptions are one-way.
beforeEach(async () => {
  sandbox = await startSandbox();
});
afterEach(async () => {
  await sandbox.close();
});

const redeem = (body: unknown, target: Pick<Sandbox, 'url'> = sandbox) => post(target, '/v1/rewards/redeem', body);
const check = (code: string, phone: string) => post(sandbox, '/v1/rewards/check', { reward_code: code, phone });
const laylaNow = async () => (await get(sandbox, `/v1/customers/${layla.id}`)).body.data;
const coffeeCard = (customer: any) => customer.cards.find((card: any) => card.program.name === 'Coffee Club');

describe('redeeming a reward', () => {
  it('answers { reward, card } with the reward redeemed, and stores branch_id and order_reference', async () => {
    const before = await laylaNow();
    const started = Date.now();
    const reply = await redeem({
      reward_code: layla.rewards.availableProduct,
      phone: layla.phone,
      branch_id: BRANCH,
      order_reference: 'POS-2024-000123',
    });
    expect(reply.status).toBe(200);
    expect(typeof reply.body.message).toBe('string');
    const { reward, card } = reply.body.data;
    expectReward(reward);
    expect(reward).toMatchObject({ code: layla.rewards.availableProduct, status: 'redeemed', customer_id: layla.id });
    expectTimestamp(reward.redeemed_at);
    // To the second, so allow the second it started in.
    expect(Date.parse(reward.redeemed_at)).toBeGreaterThanOrEqual(Math.floor(started / 1000) * 1000);
    expectCard(card);
    // A product reward costs no points: the card is as it was.
    expect(card).toEqual(coffeeCard(before));

    expect(sandbox.redemptions()).toEqual([
      {
        code: layla.rewards.availableProduct,
        customer_id: layla.id,
        branch_id: BRANCH,
        order_reference: 'POS-2024-000123',
        redeemed_at: reward.redeemed_at,
      },
    ]);

    // The reward is now redeemed everywhere, and no longer awaits redemption on the customer.
    const checked = await check(layla.rewards.availableProduct, layla.phone);
    expect(checked.body.data).toEqual(reward);
    const after = await laylaNow();
    expect(after.rewards.map((r: any) => r.code)).not.toContain(layla.rewards.availableProduct);
    expect(after.rewards.map((r: any) => r.code)).toContain(layla.rewards.availablePoints);
  });

  it('accepts the phone in local form with country_code, and the code in any case', async () => {
    const reply = await redeem({ reward_code: omar.reward.toLowerCase(), phone: '050 123 4567', country_code: '971' });
    expect(reply.status).toBe(200);
    expect(reply.body.data.reward.code).toBe(omar.reward);
    expect(sandbox.redemptions().map((entry) => entry.code)).toEqual([omar.reward]);
  });

  it('without branch_id and order_reference stores them as null', async () => {
    const reply = await redeem({ reward_code: omar.reward, phone: omar.phone });
    expect(reply.status).toBe(200);
    expect(sandbox.redemptions()).toEqual([
      expect.objectContaining({ code: omar.reward, customer_id: omar.id, branch_id: null, order_reference: null }),
    ]);
  });

  it('a points reward deducts its price from the card, in the answer and afterwards', async () => {
    const bakery = (customer: any) => customer.cards.find((card: any) => card.program.name === 'Bakery Points');
    const customerBefore = await laylaNow();
    const before = coffeeCard(customerBefore);
    const price = (await check(layla.rewards.availablePoints, layla.phone)).body.data.price;
    expect(price).toBe(50);
    expect(before.points).toBeGreaterThanOrEqual(price);

    const reply = await redeem({ reward_code: layla.rewards.availablePoints, phone: layla.phone });
    expect(reply.status).toBe(200);
    expect(reply.body.data.card).toEqual({ ...before, points: before.points - price });
    expect(coffeeCard(await laylaNow())).toEqual({ ...before, points: before.points - price });
    // The reward's own card pays; the customer's other card is untouched.
    expect(bakery(customerBefore)).toBeDefined();
    expect(bakery(await laylaNow())).toEqual(bakery(customerBefore));
  });

  it('a second redeem is 422 reward_unavailable and changes nothing', async () => {
    const first = await redeem({
      reward_code: layla.rewards.availablePoints,
      phone: layla.phone,
      order_reference: 'A-1',
    });
    expect(first.status).toBe(200);
    const cardAfterFirst = coffeeCard(await laylaNow());

    const second = await redeem({
      reward_code: layla.rewards.availablePoints,
      phone: layla.phone,
      order_reference: 'A-2',
    });
    expectError(second, 422, 'reward_unavailable');
    // In any case of the code, too.
    expectError(
      await redeem({ reward_code: layla.rewards.availablePoints.toLowerCase(), phone: layla.phone }),
      422,
      'reward_unavailable',
    );

    expect(coffeeCard(await laylaNow())).toEqual(cardAfterFirst);
    expect(sandbox.redemptions()).toHaveLength(1);
    expect(sandbox.redemptions()[0]?.order_reference).toBe('A-1');
    expect((await check(layla.rewards.availablePoints, layla.phone)).body.data).toEqual(first.body.data.reward);
  });

  it('a reward redeemed before (a demo fixture) and an expired reward are 422 reward_unavailable', async () => {
    const before = await laylaNow();
    expectError(await redeem({ reward_code: layla.rewards.redeemed, phone: layla.phone }), 422, 'reward_unavailable');
    expectError(await redeem({ reward_code: layla.rewards.expired, phone: layla.phone }), 422, 'reward_unavailable');
    expect((await check(layla.rewards.expired, layla.phone)).body.data.status).toBe('expired');
    expect(await laylaNow()).toEqual(before);
    expect(sandbox.redemptions()).toEqual([]);
  });

  it('of 50 concurrent redeems of one code exactly one succeeds, and 49 are 422 reward_unavailable', async () => {
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        redeem({ reward_code: layla.rewards.availablePoints, phone: layla.phone, order_reference: `RACE-${i}` }),
      ),
    );
    const won = replies.filter((reply) => reply.status === 200);
    const lost = replies.filter((reply) => reply.status !== 200);
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(49);
    for (const reply of lost) expectError(reply, 422, 'reward_unavailable');

    const entries = sandbox.redemptions().filter((entry) => entry.code === layla.rewards.availablePoints);
    expect(entries).toHaveLength(1);
    expect(entries[0]?.order_reference).toMatch(/^RACE-\d+$/);
    expect(entries[0]?.redeemed_at).toBe(won[0]?.body.data.reward.redeemed_at);
    // The price was deducted once, not 50 times.
    expect(won[0]?.body.data.card.points).toBe(180 - 50);
    expect(coffeeCard(await laylaNow()).points).toBe(180 - 50);
  });

  it('a redeemed reward is no longer among the customer\u2019s rewards', async () => {
    const before = (await get(sandbox, `/v1/customers/${omar.id}`)).body.data.rewards.map((r: any) => r.code);
    expect(before).toContain(omar.reward);
    await redeem({ reward_code: omar.reward, phone: omar.phone });
    const after = (await get(sandbox, `/v1/customers/${omar.id}`)).body.data.rewards.map((r: any) => r.code);
    expect(after).not.toContain(omar.reward);
    expect(after).toEqual(before.filter((code: string) => code !== omar.reward));
  });

  it('invalid fields are 422 naming them, and redeem nothing', async () => {
    const base = { reward_code: omar.reward, phone: omar.phone };
    expectFieldError(await redeem({ ...base, branch_id: 'branch-7' }), 'branch_id');
    expectFieldError(await redeem({ ...base, order_reference: '' }), 'order_reference');
    expectFieldError(await redeem({ ...base, order_reference: 'x'.repeat(101) }), 'order_reference');
    expectFieldError(await redeem({ ...base, order_reference: 42 }), 'order_reference');
    expectFieldError(await redeem({ ...base, points: 5 }), 'points');
    expectFieldError(await redeem({ ...base, reward_code: 'OMAR0001' }), 'reward_code');
    expectFieldError(await redeem({ reward_code: omar.reward }), 'phone');
    expect(sandbox.redemptions()).toEqual([]);
    expect((await check(omar.reward, omar.phone)).body.data.status).toBe('available');
  });
});

describe('rewards in time and points', () => {
  it('an available reward past its expires_at becomes expired: shown so by check, unavailable to redeem, gone from the customer', async () => {
    let clock = new Date();
    const timed = await startSandbox({ now: () => clock });
    try {
      const checkIn = () =>
        post(timed, '/v1/rewards/check', { reward_code: layla.rewards.availableProduct, phone: layla.phone });
      const before = await checkIn();
      expect(before.body.data.status).toBe('available');
      clock = new Date(Date.parse(before.body.data.expires_at) + 1000);

      expect((await checkIn()).body.data.status).toBe('expired');
      expectError(
        await redeem({ reward_code: layla.rewards.availableProduct, phone: layla.phone }, timed),
        422,
        'reward_unavailable',
      );
      const customer = (await get(timed, `/v1/customers/${layla.id}`)).body.data;
      expect(customer.rewards.map((r: any) => r.code)).not.toContain(layla.rewards.availableProduct);
      // A reward without an expiry is still available.
      expect(customer.rewards.map((r: any) => r.code)).toContain(layla.rewards.availablePoints);
      expect(timed.redemptions()).toEqual([]);
    } finally {
      await timed.close();
    }
  });

  it('a points reward the card cannot pay for is 422 reward_unavailable and deducts nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sandbox-points-'));
    const dataFile = join(dir, 'data.json');
    try {
      // Make a data file, then lower Layla's Coffee Club balance below the reward's price.
      await (await startSandbox({ dataFile })).close();
      const data = JSON.parse(await readFile(dataFile, 'utf8'));
      const card = data.cards.find((c: any) => c.customer_id === layla.id && c.serial_number.startsWith('CC-'));
      card.points = 20;
      await writeFile(dataFile, JSON.stringify(data));

      const poor = await startSandbox({ dataFile });
      try {
        const reply = await redeem({ reward_code: layla.rewards.availablePoints, phone: layla.phone }, poor);
        expectError(reply, 422, 'reward_unavailable');
        const customer = (await get(poor, `/v1/customers/${layla.id}`)).body.data;
        expect(coffeeCard(customer).points).toBe(20);
        expect(customer.rewards.map((r: any) => r.code)).toContain(layla.rewards.availablePoints);
        expect(poor.redemptions()).toEqual([]);
      } finally {
        await poor.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
