/**
 * POST /v1/rewards/check: shows a reward and its state, changes nothing, and does not let a
 * caller tell an unknown code from a code shown with the wrong phone.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_FIXTURES, startSandbox, type Sandbox } from '../../sandbox';
import { allCustomers, get, post } from './support/http';
import { expectError, expectFieldError, expectReward } from './support/shapes';

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

const check = (body: unknown) => post(sandbox, '/v1/rewards/check', body);

describe('checking a reward', () => {
  it('shows each reward with its state: available (product and points), redeemed, expired', async () => {
    const expected: Array<[string, string, string]> = [
      [layla.rewards.availableProduct, 'available', 'product'],
      [layla.rewards.availablePoints, 'available', 'points'],
      [layla.rewards.redeemed, 'redeemed', 'product'],
      [layla.rewards.expired, 'expired', 'product'],
    ];
    for (const [code, status, type] of expected) {
      const reply = await check({ reward_code: code, phone: layla.phone });
      expect(reply.status, code).toBe(200);
      expectReward(reply.body.data);
      expect(reply.body.data).toMatchObject({ code, status, type, customer_id: layla.id });
    }
    const points = await check({ reward_code: layla.rewards.availablePoints, phone: layla.phone });
    expect(points.body.data.price).toBe(50);
    const expired = await check({ reward_code: layla.rewards.expired, phone: layla.phone });
    expect(Date.parse(expired.body.data.expires_at)).toBeLessThan(Date.now());
    expect(expired.body.data.redeemed_at).toBeNull();
  });

  it('accepts the phone in local form with country_code, and the code in any case', async () => {
    const canonical = await check({ reward_code: layla.rewards.availableProduct, phone: layla.phone });
    for (const body of [
      { reward_code: layla.rewards.availableProduct, phone: '0501234567', country_code: '966' },
      { reward_code: layla.rewards.availableProduct, phone: layla.phoneShown },
      { reward_code: layla.rewards.availableProduct.toLowerCase(), phone: layla.phone },
      { reward_code: 'rW-lAyLa001', phone: layla.phone },
      { reward_code: ` ${layla.rewards.availableProduct} `, phone: layla.phone },
    ]) {
      const reply = await check(body);
      expect(reply.status, JSON.stringify(body)).toBe(200);
      expect(reply.body).toEqual(canonical.body);
    }
  });

  it('changes nothing: the customer, the reward and the redemptions are the same after many checks', async () => {
    const everyoneBefore = await allCustomers(sandbox);
    const laylaBefore = (await get(sandbox, `/v1/customers/${layla.id}`)).body.data;
    const rewardBefore = await check({ reward_code: layla.rewards.availablePoints, phone: layla.phone });

    for (let i = 0; i < 5; i++) {
      for (const code of Object.values(layla.rewards)) {
        expect((await check({ reward_code: code, phone: layla.phone })).status).toBe(200);
      }
    }

    expect((await get(sandbox, `/v1/customers/${layla.id}`)).body.data).toEqual(laylaBefore);
    expect((await check({ reward_code: layla.rewards.availablePoints, phone: layla.phone })).body).toEqual(
      rewardBefore.body,
    );
    expect(await allCustomers(sandbox)).toEqual(everyoneBefore);
    expect(sandbox.redemptions()).toEqual([]);
    // The reward can still be redeemed: checking did not use it up.
    const redeem = await post(sandbox, '/v1/rewards/redeem', {
      reward_code: layla.rewards.availablePoints,
      phone: layla.phone,
    });
    expect(redeem.status).toBe(200);
  });

  it('a wrong phone and an unknown code give byte-identical answers', async () => {
    const wrongPhone = await check({ reward_code: omar.reward, phone: layla.phone });
    const otherOwner = await check({ reward_code: layla.rewards.availableProduct, phone: omar.phone });
    const unknownCode = await check({ reward_code: 'RW-NOSUCH01', phone: layla.phone });
    const unknownBoth = await check({ reward_code: 'RW-NOSUCH02', phone: '+33612345678' });
    expectError(wrongPhone, 404, 'reward_not_found');
    for (const reply of [otherOwner, unknownCode, unknownBoth]) {
      expect(reply.status).toBe(wrongPhone.status);
      expect(reply.text).toBe(wrongPhone.text);
      expect(reply.headers.get('content-type')).toBe(wrongPhone.headers.get('content-type'));
    }
    // Nothing in the answer gives the owner or the code away.
    expect(wrongPhone.text).not.toContain(omar.reward);
    expect(wrongPhone.text).not.toContain(omar.id);
  });

  it('the same holds for redeem: a wrong phone and an unknown code look the same, and nothing is redeemed', async () => {
    const wrongPhone = await post(sandbox, '/v1/rewards/redeem', { reward_code: omar.reward, phone: layla.phone });
    const unknownCode = await post(sandbox, '/v1/rewards/redeem', { reward_code: 'RW-NOSUCH03', phone: layla.phone });
    expectError(wrongPhone, 404, 'reward_not_found');
    expect(unknownCode.status).toBe(wrongPhone.status);
    expect(unknownCode.text).toBe(wrongPhone.text);
    expect(sandbox.redemptions().some((entry) => entry.code === omar.reward)).toBe(false);
    expect((await check({ reward_code: omar.reward, phone: omar.phone })).body.data.status).toBe('available');
  });

  it('a malformed code, a missing field or an invalid phone is a 422 naming the field', async () => {
    for (const code of ['LAYLA001', 'RW-', 'RW-LAYLA 001', 'RW-LAYLA-001', 'RW-ÆØÅ1', `RW-${'A'.repeat(80)}`]) {
      expectFieldError(await check({ reward_code: code, phone: layla.phone }), 'reward_code');
    }
    expectFieldError(await check({ reward_code: 12345, phone: layla.phone }), 'reward_code');
    expectFieldError(await check({ phone: layla.phone }), 'reward_code');
    expectFieldError(await check({ reward_code: layla.rewards.availableProduct }), 'phone');
    expectFieldError(await check({ reward_code: layla.rewards.availableProduct, phone: 'nope' }), 'phone');
    expectFieldError(
      await check({ reward_code: layla.rewards.availableProduct, phone: layla.phone, branch_id: 'x' }),
      'branch_id',
    );
  });
});
