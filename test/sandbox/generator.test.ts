/**
 * The generator of large data sets for load tests and the benchmark: the count is right,
 * every phone is a valid number and no two are the same, and the generated customers are
 * as well-formed as the demo's.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_FIXTURES, startSandbox, type Sandbox } from '../../sandbox';
import { allCustomers, byPhone, get, post } from './support/http';
import { expectCustomer } from './support/shapes';

// Real HTTP on a shared machine: generous limits, so that load is not taken for a failure.
vi.setConfig({ testTimeout: 30_000, hookTimeout: 60_000 });

const EXTRA = 5000;
let large: Sandbox;
let customers: any[];
let demoTotal: number;

beforeAll(async () => {
  const demo = await startSandbox();
  demoTotal = (await get(demo, '/v1/customers')).body.meta.total;
  await demo.close();
  large = await startSandbox({ customers: EXTRA });
  customers = await allCustomers(large);
}, 120_000);
afterAll(async () => {
  await large.close();
});

describe('startSandbox({ customers: 5000 })', () => {
  it('has the demo and 5000 more customers, and meta.total says so', async () => {
    const first = await get(large, '/v1/customers');
    expect(first.body.meta.total).toBe(demoTotal + EXTRA);
    expect(first.body.meta.last_page).toBe(Math.ceil((demoTotal + EXTRA) / 20));
    expect(customers).toHaveLength(demoTotal + EXTRA);
    expect(new Set(customers.map((c) => c.id)).size).toBe(customers.length);
  });

  it('every phone is a valid number, and no two customers share one', () => {
    const e164 = customers.map((customer) => {
      const parsed = parsePhoneNumberFromString(customer.phone);
      expect(parsed?.isValid(), customer.phone).toBe(true);
      return parsed?.number;
    });
    expect(new Set(e164).size).toBe(customers.length);
  }, 60_000);

  it('every generated customer has the Customer fields, typed as the spec says', () => {
    for (const customer of customers) expectCustomer(customer, { withRewards: false });
  }, 60_000);

  it('keeps the demo fixtures, findable as before', async () => {
    const { layla } = DEMO_FIXTURES;
    const found = await get(large, `/v1/customers?${byPhone(layla.phone)}`);
    expect(found.body.data.map((c: any) => c.id)).toEqual([layla.id]);
    const reward = await post(large, '/v1/rewards/check', {
      reward_code: layla.rewards.availableProduct,
      phone: layla.phone,
    });
    expect(reward.body.data.status).toBe('available');
  });

  it('a generated customer can be found by phone and by name, and registering them again is a 200', async () => {
    const sample = customers[customers.length - 123];
    const byExactPhone = await get(large, `/v1/customers?${byPhone(sample.phone)}`);
    expect(byExactPhone.body.data).toEqual([sample]);
    const again = await post(large, '/v1/customers', { name: sample.name, phone: sample.phone });
    expect(again.status).toBe(200);
    expect(again.body.data.id).toBe(sample.id);
    const byName = await get(large, `/v1/customers?search=${encodeURIComponent(sample.name)}&per_page=100`);
    expect(byName.body.meta.total).toBeGreaterThan(0);
    expect(
      byName.body.data.every((c: any) => c.name.toLowerCase().includes(sample.name.split(' ')[0].toLowerCase())),
    ).toBe(true);
  });

  it('is deterministic for a seed: two sandboxes with the same seed list the same ids in the same order', async () => {
    const a = await startSandbox({ customers: 200, seed: 42 });
    const b = await startSandbox({ customers: 200, seed: 42 });
    try {
      const idsA = (await allCustomers(a)).map((c) => c.id);
      const idsB = (await allCustomers(b)).map((c) => c.id);
      expect(idsA).toHaveLength(demoTotal + 200);
      expect(idsB).toEqual(idsA);
    } finally {
      await a.close();
      await b.close();
    }
  }, 60_000);
});
