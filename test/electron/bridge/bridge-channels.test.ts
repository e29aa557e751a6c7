import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSandbox, DEMO_FIXTURES, DIALECTS, type Sandbox } from '../../../sandbox';
import { CHANNELS, type Customer } from '../../../common/contract';
import { configureService, createCoreFixture, type CoreFixture } from '../../support/app-core-fixture';

// Every bridge channel, end to end: handler table -> API client -> real HTTP -> sandbox, once
// for each dialect the sandbox speaks: the spec's own choices, and another service's legal ones.

const API_KEY = 'channels-test-key-0001';
const BRANCH = '7c0e5d1a-2b3c-4d5e-8f90-0123456789ab';
const { layla, soren, lukasz } = DEMO_FIXTURES;

describe.each(DIALECTS)('against the %s dialect', (dialect) => {
  let sandbox: Sandbox;
  let till: CoreFixture;

  beforeAll(async () => {
    sandbox = await startSandbox({ keys: { [API_KEY]: 'coffee-club' }, dialect });
    till = await createCoreFixture();
    await configureService(till, sandbox.url, API_KEY);
  });

  afterAll(async () => {
    await till?.dispose();
    await sandbox?.close();
  });

  test('every channel of the contract has a handler, and no other handler exists', () => {
    expect(Object.keys(till.core.handlers).sort()).toEqual(Object.values(CHANNELS).sort());
  });

  describe('customerPage', () => {
    test('hands back the page with its entity tag; the tag sent back is a 304 "not modified"; a bad tag never leaves the till', async () => {
      const first = await till.call('customerPage', { page: 1, per_page: 100 });
      expect(first.ok && !first.notModified).toBe(true);
      if (!first.ok || first.notModified) return;
      expect(first.data).toHaveLength(100);
      expect(first.meta).toMatchObject({ current_page: 1, per_page: 100 });
      expect(first.etag).toMatch(/^"[^"]+"$/);

      const again = await till.call('customerPage', { page: 1, per_page: 100, if_none_match: first.etag! });
      expect(again).toEqual({ ok: true, notModified: true, data: null, status: 304, etag: first.etag });

      const otherTag = await till.call('customerPage', { page: 2, per_page: 100, if_none_match: first.etag! });
      expect(otherTag.ok && !otherTag.notModified && otherTag.data.length).toBeGreaterThan(0);

      for (const if_none_match of ['no quotes', '"a"\r\nX-Injected: 1', '"' + 'x'.repeat(300) + '"']) {
        const refused = await till.call('customerPage', { page: 1, per_page: 100, if_none_match });
        expect(refused).toMatchObject({ ok: false, error: { kind: 'validation' } });
      }
      expect(await till.call('customerPage', { page: 1, per_page: 101 })).toMatchObject({
        ok: false,
        error: { kind: 'validation' },
      });
    });
  });

  describe('searchCustomers', () => {
    test('finds a customer by international phone, with the service pagination', async () => {
      const result = await till.call('searchCustomers', { phone: layla.phone });
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      expect(result.data.map((c) => c.name)).toEqual([layla.name]);
      expect(result.data[0]!.phone).toBe(layla.phoneShown);
      expect(result.meta).toMatchObject({ current_page: 1, total: 1 });
    });

    test('a local phone must come with its country code: the renderer reads phones, the bridge does not guess', async () => {
      for (const operation of ['searchCustomers', 'registerCustomer', 'checkReward', 'redeemReward'] as const) {
        const payload = { name: 'Layla', reward_code: layla.rewards.availableProduct, phone: '050 123 4567' };
        const { name, reward_code, phone } = payload;
        const body =
          operation === 'searchCustomers'
            ? { phone }
            : operation === 'registerCustomer'
              ? { name, phone }
              : { reward_code, phone };
        const result = await till.call(operation, body);
        expect(!result.ok && result.error.fields?.phone, operation).toMatch(/international form/);
      }
      expect(sandbox.redemptions()).toHaveLength(0);
    });

    test('an explicit country code wins over the default country', async () => {
      const result = await till.call('searchCustomers', { phone: '501234567', country_code: '48' });
      expect(result.ok && result.data.map((c) => c.id)).toEqual([lukasz.id]);
    });

    test('searches by part of a name, with letters beyond ASCII', async () => {
      const result = await till.call('searchCustomers', { search: 'Østergaard' });
      expect(result.ok && result.data.map((c) => c.id)).toContain(soren.id);
    });

    test('pages through the list', async () => {
      const first = await till.call('searchCustomers', { page: 1, per_page: 3 });
      const second = await till.call('searchCustomers', { page: 2, per_page: 3 });
      if (!first.ok || !second.ok) throw new Error('search failed');
      expect(first.meta).toMatchObject({ current_page: 1, per_page: 3 });
      expect(second.meta).toMatchObject({ current_page: 2, per_page: 3 });
      expect(first.meta.total).toBeGreaterThan(100);
      const ids = new Set([...first.data, ...second.data].map((c) => c.id));
      expect(ids.size).toBe(6);
    });
  });

  describe('getCustomer', () => {
    test('returns the customer with the rewards awaiting redemption', async () => {
      const result = await till.call('getCustomer', { id: layla.id });
      if (!result.ok) throw new Error(result.error.message);
      expect(result.data.name).toBe(layla.name);
      const codes = result.data.rewards?.map((r) => r.code) ?? [];
      expect(codes).toEqual(expect.arrayContaining([layla.rewards.availableProduct, layla.rewards.availablePoints]));
      expect(codes).not.toContain(layla.rewards.redeemed);
    });

    test('an unknown id is not_found', async () => {
      const result = await till.call('getCustomer', { id: '00000000-0000-4000-8000-000000000000' });
      expect(result).toMatchObject({ ok: false, error: { kind: 'not_found', status: 404 } });
    });
  });

  describe('registerCustomer and updateCustomer', () => {
    let created: Customer;

    test('a new phone is created (201), the same phone again returns the existing customer (200)', async () => {
      const first = await till.call('registerCustomer', {
        name: 'Nadia Test',
        phone: '+966551112233',
        email: 'nadia@example.com',
      });
      if (!first.ok) throw new Error(first.error.message);
      expect(first.data.created).toBe(true);
      expect(first.status).toBe(201);
      created = first.data.customer;

      const again = await till.call('registerCustomer', {
        name: 'Nadia Again',
        phone: '55 111 2233',
        country_code: '966',
      });
      if (!again.ok) throw new Error(again.error.message);
      expect(again.data.created).toBe(false);
      expect(again.data.customer.id).toBe(created.id);
    });

    test('corrects name, email and birthday', async () => {
      const result = await till.call('updateCustomer', {
        id: created.id,
        name: 'Nadia Corrected',
        birthday: '1991-02-03',
      });
      if (!result.ok) throw new Error(result.error.message);
      expect(result.data).toMatchObject({ id: created.id, name: 'Nadia Corrected', birthday: '1991-02-03' });
      const reread = await till.call('getCustomer', { id: created.id });
      expect(reread.ok && reread.data.name).toBe('Nadia Corrected');
    });

    test("the service's own validation comes back as validation with fields", async () => {
      const result = await till.call('registerCustomer', { name: 'Too Short', phone: '+1234' });
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error).toMatchObject({ kind: 'validation', status: 422 });
      expect(Object.keys(result.error.fields ?? {})).toContain('phone');
    });
  });

  describe('checkReward and redeemReward', () => {
    test('check shows the reward and changes nothing', async () => {
      const result = await till.call('checkReward', {
        reward_code: layla.rewards.availableProduct,
        phone: layla.phone,
      });
      expect(result).toMatchObject({ ok: true, data: { code: layla.rewards.availableProduct, status: 'available' } });
      expect(sandbox.redemptions()).toHaveLength(0);
    });

    test('a code is only valid with its own customer phone', async () => {
      const result = await till.call('checkReward', {
        reward_code: layla.rewards.availableProduct,
        phone: soren.phone,
      });
      expect(result).toMatchObject({ ok: false, error: { kind: 'not_found', status: 404 } });
    });

    test("redeem deducts a points reward's price, stores the till's branch and the order, and refuses a second time", async () => {
      await till.call('updateSettings', { branchId: BRANCH });
      const before = await till.call('getCustomer', { id: layla.id });
      if (!before.ok) throw new Error(before.error.message);
      const pointsBefore = before.data.cards[0]!.points;

      const redeemed = await till.call('redeemReward', {
        reward_code: ` ${layla.rewards.availablePoints.toLowerCase()} `,
        phone: layla.phone,
        order_reference: 'ORDER-1001',
      });
      if (!redeemed.ok) throw new Error(redeemed.error.message);
      expect(redeemed.data.reward).toMatchObject({ code: layla.rewards.availablePoints, status: 'redeemed' });
      expect(redeemed.data.reward?.redeemed_at).toBeTruthy();
      expect(redeemed.data.card?.points).toBe(pointsBefore - 50);
      expect(sandbox.redemptions()).toEqual([
        expect.objectContaining({
          code: layla.rewards.availablePoints,
          branch_id: BRANCH,
          order_reference: 'ORDER-1001',
        }),
      ]);

      const again = await till.call('redeemReward', { reward_code: layla.rewards.availablePoints, phone: layla.phone });
      expect(again).toMatchObject({
        ok: false,
        error: { kind: 'reward_unavailable', status: 422, code: 'reward_unavailable' },
      });
      expect(sandbox.redemptions()).toHaveLength(1);
    });

    test('an expired reward cannot be redeemed', async () => {
      const result = await till.call('redeemReward', { reward_code: layla.rewards.expired, phone: layla.phone });
      expect(result).toMatchObject({ ok: false, error: { kind: 'reward_unavailable' } });
    });
  });

  describe('state, settings, key and connection', () => {
    test('getState tells the renderer the settings, that a key is set and its last four, never the key', async () => {
      const result = await till.call('getState');
      if (!result.ok) throw new Error(result.error.message);
      expect(result.data.mode).toBe('service');
      expect(result.data.settings.baseUrl).toBe(sandbox.url);
      expect(result.data.key).toEqual({ set: true, lastFour: '0001', protection: 'os' });
      expect(JSON.stringify(result)).not.toContain(API_KEY);
    });

    test('connectionStatus probes the service', async () => {
      const result = await till.call('connectionStatus');
      if (!result.ok) throw new Error('status failed');
      expect(result.data).toMatchObject({ mode: 'service', baseUrl: sandbox.url, reachable: true });
      expect(result.data.error).toBeUndefined();
      expect(Number.isNaN(Date.parse(result.data.checkedAt))).toBe(false);
    });

    test('logError writes the renderer error into the main log', async () => {
      const result = await till.call('logError', {
        message: 'Cannot read x of undefined',
        source: 'rewards store',
        stack: 'at a\nat b',
      });
      expect(result).toEqual({ ok: true, data: null });
      expect(till.log.text()).toContain('Renderer error in rewards store: Cannot read x of undefined');
      expect(till.log.text()).toContain('    at b');
    });

    test('clearApiKey forgets the key; data calls then say the till is not configured', async () => {
      const cleared = await till.call('clearApiKey');
      expect(cleared.ok && cleared.data.key).toEqual({ set: false, lastFour: null, protection: 'os' });
      expect(cleared.ok && cleared.data.mode).toBe('unconfigured');
      const search = await till.call('searchCustomers', { search: 'layla' });
      expect(search).toMatchObject({ ok: false, error: { kind: 'unauthorized', code: 'not_configured' } });
      const status = await till.call('connectionStatus');
      expect(status.ok && status.data).toMatchObject({ mode: 'unconfigured', reachable: null });

      const restored = await till.call('setApiKey', { apiKey: API_KEY });
      expect(restored.ok && restored.data.mode).toBe('service');
    });
  });
});
