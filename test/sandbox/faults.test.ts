/**
 * The fault switches the till's offline and retry logic is tested with: each misbehaves
 * exactly as documented, and reset() brings the service back.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEMO_FIXTURES, startSandbox, type Sandbox } from '../../sandbox';
import { FaultSwitches } from '../../sandbox/faults';
import { byPhone, get, post } from './support/http';
import { expectError } from './support/shapes';

// Real HTTP on a shared machine: generous limits, so that load is not taken for a failure.
vi.setConfig({ testTimeout: 30_000, hookTimeout: 60_000 });

const { layla, omar } = DEMO_FIXTURES;
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterEach(() => {
  sandbox.faults.reset();
});
afterAll(async () => {
  await sandbox.close();
});

const countByPhone = async (phone: string) => (await get(sandbox, `/v1/customers?${byPhone(phone)}`)).body.meta.total;
const rewardStatusIn = async (target: Sandbox, code: string, phone: string) =>
  (await post(target, '/v1/rewards/check', { reward_code: code, phone })).body.data.status;
const rewardStatus = (code: string, phone: string) => rewardStatusIn(sandbox, code, phone);

describe('fault switches', () => {
  it('errorRate 1 answers 500 server_error to every request, and does nothing', async () => {
    sandbox.faults.set({ errorRate: 1 });
    expectError(
      await post(sandbox, '/v1/customers', { name: 'Never Made', phone: '+447400900401' }),
      500,
      'server_error',
    );
    expectError(
      await post(sandbox, '/v1/rewards/redeem', { reward_code: omar.reward, phone: omar.phone }),
      500,
      'server_error',
    );
    expectError(await get(sandbox, '/v1/customers'), 500, 'server_error');
    sandbox.faults.reset();
    expect(await countByPhone('+447400900401')).toBe(0);
    expect(await rewardStatus(omar.reward, omar.phone)).toBe('available');
    expect(sandbox.redemptions()).toEqual([]);
  });

  it('refuseRedeemRate 1 refuses every redemption with 422 validation_failed, does nothing, and answers the rest', async () => {
    sandbox.faults.set({ refuseRedeemRate: 1 });
    const refused = await post(sandbox, '/v1/rewards/redeem', { reward_code: omar.reward, phone: omar.phone });
    expectError(refused, 422, 'validation_failed');
    expect(refused.body.error.fields).toEqual({ reward_code: ['The reward code is not valid.'] });
    // A check is answered as usual: only the redemption is refused.
    expect(await rewardStatus(omar.reward, omar.phone)).toBe('available');
    sandbox.faults.reset();
    expect(sandbox.redemptions()).toEqual([]);
  });

  it('dropRate 1 drops the connection: the client sees a connection error, and nothing is done', async () => {
    sandbox.faults.set({ dropRate: 1 });
    await expect(post(sandbox, '/v1/customers', { name: 'Never Made', phone: '+447400900402' })).rejects.toThrow();
    await expect(
      post(sandbox, '/v1/rewards/redeem', { reward_code: omar.reward, phone: omar.phone }),
    ).rejects.toThrow();
    sandbox.faults.reset();
    expect(await countByPhone('+447400900402')).toBe(0);
    expect(await rewardStatus(omar.reward, omar.phone)).toBe('available');
    expect(sandbox.redemptions()).toEqual([]);
  });

  it('commitThenDropRate 1 on a redeem: the client sees a connection error, but the redemption happened', async () => {
    sandbox.faults.set({ commitThenDropRate: 1 });
    await expect(
      post(sandbox, '/v1/rewards/redeem', {
        reward_code: omar.reward,
        phone: omar.phone,
        order_reference: 'LOST-ANSWER-1',
      }),
    ).rejects.toThrow();
    expect(sandbox.redemptions()).toEqual([
      expect.objectContaining({ code: omar.reward, customer_id: omar.id, order_reference: 'LOST-ANSWER-1' }),
    ]);
    sandbox.faults.reset();
    // A retry of the same redemption is told the reward is gone: the till must treat that as done.
    expectError(
      await post(sandbox, '/v1/rewards/redeem', { reward_code: omar.reward, phone: omar.phone }),
      422,
      'reward_unavailable',
    );
    expect(await rewardStatus(omar.reward, omar.phone)).toBe('redeemed');
  });

  it('commitThenDropRate 1 on a registration: the client sees a connection error, but the customer exists', async () => {
    sandbox.faults.set({ commitThenDropRate: 1 });
    await expect(post(sandbox, '/v1/customers', { name: 'Half Heard', phone: '+447400900403' })).rejects.toThrow();
    sandbox.faults.reset();
    expect(await countByPhone('+447400900403')).toBe(1);
    // Registering again is safe: the same customer, 200.
    const again = await post(sandbox, '/v1/customers', { name: 'Half Heard', phone: '+447400900403' });
    expect(again.status).toBe(200);
  });

  it('rateLimitRate 1 answers 429 rate_limited with Retry-After, and does nothing', async () => {
    sandbox.faults.set({ rateLimitRate: 1, retryAfterSeconds: 7 });
    const reply = await post(sandbox, '/v1/customers', { name: 'Too Soon', phone: '+447400900404' });
    expectError(reply, 429, 'rate_limited');
    expect(reply.headers.get('retry-after')).toBe('7');
    const redeem = await post(sandbox, '/v1/rewards/redeem', {
      reward_code: layla.rewards.availableProduct,
      phone: layla.phone,
    });
    expectError(redeem, 429, 'rate_limited');
    sandbox.faults.reset();
    expect(await countByPhone('+447400900404')).toBe(0);
    expect(await rewardStatus(layla.rewards.availableProduct, layla.phone)).toBe('available');
  });

  it('retryAfterHeader is sent as Retry-After verbatim', async () => {
    sandbox.faults.set({ rateLimitRate: 1, retryAfterHeader: 'Fri, 31 Dec 9999 23:59:59 GMT' });
    const reply = await get(sandbox, '/v1/customers?per_page=1');
    expectError(reply, 429, 'rate_limited');
    expect(reply.headers.get('retry-after')).toBe('Fri, 31 Dec 9999 23:59:59 GMT');
  });

  it('resetOnConnectRate 1 resets every connection before the request is read, and does nothing', async () => {
    sandbox.faults.set({ resetOnConnectRate: 1 });
    const code = layla.rewards.availableProduct;
    await expect(post(sandbox, '/v1/rewards/redeem', { reward_code: code, phone: layla.phone })).rejects.toThrow();
    sandbox.faults.reset();
    expect(await rewardStatus(code, layla.phone)).toBe('available');
    expect(sandbox.redemptions().filter((r) => r.code === code)).toEqual([]);
  });

  it('without the switch there is never a 429', async () => {
    const replies = await Promise.all(Array.from({ length: 40 }, () => get(sandbox, '/v1/customers?per_page=1')));
    expect(replies.map((reply) => reply.status)).toEqual(Array(40).fill(200));
  });

  it('latencyMs holds every answer back by at least that long, and the answer is still right', async () => {
    sandbox.faults.set({ latencyMs: 300 });
    const started = performance.now();
    const reply = await get(sandbox, `/v1/customers?${byPhone(layla.phone)}`);
    const elapsed = performance.now() - started;
    expect(reply.status).toBe(200);
    expect(reply.body.data[0].id).toBe(layla.id);
    // A lower bound only (timers may fire a hair early): the delay is there. Speed is the benchmark's business.
    expect(elapsed).toBeGreaterThanOrEqual(290);
  });

  it('reset() turns every switch off at once', async () => {
    sandbox.faults.set({
      latencyMs: 5,
      errorRate: 0.5,
      dropRate: 0.2,
      commitThenDropRate: 0.2,
      commitThenErrorRate: 0.1,
      commitThenGarbleRate: 0.1,
      rateLimitRate: 0.1,
      retryAfterSeconds: 30,
      retryAfterHeader: 'Fri, 31 Dec 9999 23:59:59 GMT',
      resetOnConnectRate: 0.1,
      refuseRedeemRate: 0.5,
    });
    sandbox.faults.reset();
    expect(sandbox.faults.current()).toEqual({
      latencyMs: 0,
      errorRate: 0,
      dropRate: 0,
      commitThenDropRate: 0,
      commitThenErrorRate: 0,
      commitThenGarbleRate: 0,
      rateLimitRate: 0,
      retryAfterSeconds: 1,
      retryAfterHeader: null,
      resetOnConnectRate: 0,
      refuseRedeemRate: 0,
    });
    const replies = await Promise.all(Array.from({ length: 30 }, () => get(sandbox, '/v1/customers?per_page=1')));
    expect(replies.every((reply) => reply.status === 200)).toBe(true);
  });

  it('set() changes only the switches it names', async () => {
    sandbox.faults.set({ errorRate: 1 });
    sandbox.faults.set({ retryAfterSeconds: 9 });
    expect(sandbox.faults.current()).toMatchObject({ errorRate: 1, retryAfterSeconds: 9 });
    expectError(await get(sandbox, '/v1/customers'), 500, 'server_error');
  });

  it('partial rates: over many requests some fail and some succeed, and every answer is one of the documented ones', async () => {
    sandbox.faults.set({ errorRate: 0.3, rateLimitRate: 0.3 });
    const statuses = await Promise.all(
      Array.from({ length: 80 }, async () => (await get(sandbox, '/v1/customers?per_page=1')).status),
    );
    for (const status of statuses) expect([200, 429, 500]).toContain(status);
    // Success has p = 0.4 per request: all 80 answers alike has a chance below 10^-30.
    expect(new Set(statuses).size).toBeGreaterThan(1);
  });
});

// Each starts from a fresh demo, since the work these faults let through is a redemption.
describe('faults after the work: the work is done, only the answer is spoiled', () => {
  let fresh: Sandbox;
  beforeEach(async () => {
    fresh = await startSandbox();
  });
  afterEach(async () => {
    await fresh.close();
  });

  it('commitThenErrorRate 1 on a redeem: the redemption commits, and the answer is 503 server_error', async () => {
    const code = layla.rewards.availableProduct;
    fresh.faults.set({ commitThenErrorRate: 1 });
    const reply = await post(fresh, '/v1/rewards/redeem', {
      reward_code: code,
      phone: layla.phone,
      order_reference: 'ERROR-ANSWER-1',
    });
    expectError(reply, 503, 'server_error');
    expect(fresh.redemptions()).toContainEqual(
      expect.objectContaining({ code, customer_id: layla.id, order_reference: 'ERROR-ANSWER-1' }),
    );
    fresh.faults.reset();
    expect(await rewardStatusIn(fresh, code, layla.phone)).toBe('redeemed');
  });

  it('commitThenGarbleRate 1 on a redeem: the redemption commits, and the answer is a 200 that is not readable JSON', async () => {
    const code = layla.rewards.availablePoints;
    fresh.faults.set({ commitThenGarbleRate: 1 });
    const reply = await post(fresh, '/v1/rewards/redeem', {
      reward_code: code,
      phone: layla.phone,
      order_reference: 'GARBLED-ANSWER-1',
    });
    expect(reply.status).toBe(200);
    // It says JSON, starts like the real answer, and cannot be parsed: the first half of its text.
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    expect(reply.text).toMatch(/^\{"ok":true,"message":"Reward redeemed\.","data":\{"reward":/);
    expect(reply.body).toBeUndefined();
    expect(fresh.redemptions()).toContainEqual(
      expect.objectContaining({ code, customer_id: layla.id, order_reference: 'GARBLED-ANSWER-1' }),
    );
    fresh.faults.reset();
    expect(await rewardStatusIn(fresh, code, layla.phone)).toBe('redeemed');
  });

  it('commitThenGarbleRate 1 garbles a refusal too: a 200 whose body is the start of the error body', async () => {
    fresh.faults.set({ commitThenGarbleRate: 1 });
    const reply = await post(fresh, '/v1/rewards/redeem', {
      reward_code: layla.rewards.redeemed,
      phone: layla.phone,
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toBeUndefined();
    expect(reply.text).toMatch(/^\{"ok":false,"error":/);
  });
});

describe('the fault draw', () => {
  it('is one draw per request, the rates adding up: each decision owns its own slice of [0, 1)', () => {
    let draw = 0;
    const switches = new FaultSwitches(() => draw);
    switches.set({
      dropRate: 0.1,
      errorRate: 0.1,
      rateLimitRate: 0.1,
      commitThenDropRate: 0.1,
      commitThenErrorRate: 0.1,
      commitThenGarbleRate: 0.1,
    });
    const decisionAt = (value: number) => {
      draw = value;
      return switches.decide();
    };
    expect([0.05, 0.15, 0.25, 0.35, 0.45, 0.55, 0.65, 0.99].map(decisionAt)).toEqual([
      'drop',
      'error',
      'rate_limit',
      'commit_then_drop',
      'commit_then_error',
      'commit_then_garble',
      'none',
      'none',
    ]);
  });
});
