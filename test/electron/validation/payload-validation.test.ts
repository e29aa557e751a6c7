import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSandbox, DEMO_FIXTURES, type Sandbox } from '../../../sandbox';
import { CHANNELS, type Operation } from '../../../common/contract';
import { configureService, createCoreFixture, type CoreFixture } from '../../support/app-core-fixture';
import { startCountingProxy, type StubServer } from '../../support/stub-servers';

// The renderer is not trusted: bad payloads are refused with a clear `validation` failure,
// before anything reaches the service (the counting proxy proves nothing was sent).

const API_KEY = 'validation-test-key-42';
const { layla } = DEMO_FIXTURES;

let sandbox: Sandbox;
let proxy: StubServer;
let till: CoreFixture;

beforeAll(async () => {
  sandbox = await startSandbox({ keys: { [API_KEY]: 'coffee-club' } });
  proxy = await startCountingProxy(sandbox.url);
  till = await createCoreFixture();
  await configureService(till, proxy.url, API_KEY);
});

afterAll(async () => {
  await till?.dispose();
  await proxy?.close();
  await sandbox?.close();
});

const BAD_PAYLOADS: Array<[Operation, unknown, string]> = [
  ['searchCustomers', { per_page: 0 }, 'per_page'],
  ['searchCustomers', { per_page: 101 }, 'per_page'],
  ['searchCustomers', { per_page: 2.5 }, 'per_page'],
  ['searchCustomers', { page: 0 }, 'page'],
  ['searchCustomers', { page: '2' }, 'page'],
  ['searchCustomers', { phone: 'DROP TABLE' }, 'phone'],
  ['searchCustomers', { search: 'x'.repeat(101) }, 'search'],
  ['searchCustomers', { search: 'layla', limit: 5 }, 'limit'],
  ['searchCustomers', { country_code: '966' }, 'country_code'],
  ['searchCustomers', 'layla', '_'],
  ['getCustomer', { id: 'not-a-uuid' }, 'id'],
  ['getCustomer', { id: '../../v1/rewards/redeem' }, 'id'],
  ['getCustomer', {}, 'id'],
  ['getCustomer', null, '_'],
  ['registerCustomer', { name: '', phone: layla.phone }, 'name'],
  ['registerCustomer', { name: 'N'.repeat(201), phone: layla.phone }, 'name'],
  ['registerCustomer', { name: 'Nadia', phone: layla.phone, email: 'not-an-email' }, 'email'],
  ['registerCustomer', { name: 'Nadia', phone: layla.phone, birthday: '31/12/1990' }, 'birthday'],
  ['registerCustomer', { name: 'Nadia', phone: layla.phone, birthday: '2999-01-01' }, 'birthday'],
  ['registerCustomer', { name: 'Nadia', phone: layla.phone, country_code: '+966' }, 'country_code'],
  ['registerCustomer', { name: 'Nadia' }, 'phone'],
  ['updateCustomer', { id: layla.id, phone: '+966500000000' }, 'phone'],
  ['updateCustomer', { id: layla.id }, '_'],
  ['updateCustomer', { id: 42, name: 'X' }, 'id'],
  ['updateCustomer', { id: layla.id, email: '' }, 'email'],
  ['updateCustomer', { id: layla.id, birthday: '' }, 'birthday'],
  ['checkReward', { reward_code: 'LAYLA001', phone: layla.phone }, 'reward_code'],
  ['checkReward', { reward_code: 'RW-LAY LA', phone: layla.phone }, 'reward_code'],
  ['checkReward', { reward_code: 'RW-', phone: layla.phone }, 'reward_code'],
  ['checkReward', { reward_code: `RW-${'A'.repeat(70)}`, phone: layla.phone }, 'reward_code'],
  ['checkReward', { reward_code: 'RW-LAYLA001' }, 'phone'],
  ['redeemReward', { reward_code: 'RW-LAYLA001', phone: layla.phone, branch_id: 'branch-1' }, 'branch_id'],
  [
    'redeemReward',
    { reward_code: 'RW-LAYLA001', phone: layla.phone, order_reference: 'o'.repeat(101) },
    'order_reference',
  ],
  ['redeemReward', { reward_code: 'RW-LAYLA001', phone: layla.phone, points: 1000 }, 'points'],
  ['setApiKey', { apiKey: 'short' }, 'apiKey'],
  ['setApiKey', { apiKey: 'has spaces in the middle' }, 'apiKey'],
  ['setApiKey', {}, 'apiKey'],
  ['updateSettings', { baseUrl: 'http://loyalty.example.com' }, 'baseUrl'],
  ['getState', { anything: true }, '_'],
  ['logError', { stack: 'no message' }, 'message'],
];

describe('refused payloads', () => {
  test.each(BAD_PAYLOADS)('%s %j is a validation failure on %s', async (operation, payload, field) => {
    const before = proxy.requests.length;
    const result = await till.call(operation, payload);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.kind).toBe('validation');
    expect(result.error.fields?.[field]).toEqual(expect.any(String));
    expect(result.error.message.length).toBeGreaterThan(0);
    expect(proxy.requests.length).toBe(before);
  });

  test('none of the refused payloads reached the service', () => {
    expect(proxy.requests).toHaveLength(0);
  });

  test('field messages are plain words a cashier can act on', async () => {
    const result = await till.call('checkReward', { reward_code: 'LAYLA001', phone: layla.phone });
    expect(!result.ok && result.error).toMatchObject({
      message: 'Please check: reward_code.',
      fields: { reward_code: 'A reward code looks like RW- followed by letters and digits.' },
    });
  });

  test('a refused redeem changes nothing at the service', () => {
    expect(sandbox.redemptions()).toHaveLength(0);
  });
});

describe('accepted payloads are tidied, not refused', () => {
  test('a reward code with spaces around it and a lower-case prefix is read as the code', async () => {
    const result = await till.call('checkReward', { reward_code: '  rw-LAYLA001\n', phone: ` ${layla.phone} ` });
    expect(result).toMatchObject({ ok: true, data: { code: 'RW-LAYLA001' } });
    expect(proxy.requests.at(-1)).toMatchObject({ method: 'POST', url: '/v1/rewards/check' });
  });

  test('an over-long renderer error report is truncated, not refused', async () => {
    const result = await till.call('logError', { message: 'm'.repeat(5000) });
    expect(result).toEqual({ ok: true, data: null });
    const line = till.log.lines.at(-1) ?? '';
    expect(line.length).toBeLessThan(2200);
    expect(line).toContain('[3000 more characters]');
  });
});

describe('the sender must be the app itself', () => {
  const strangers: Array<[string, { url: string } | null | undefined]> = [
    ['no sender', undefined],
    ['a null sender', null],
    ['an empty URL', { url: '' }],
    ['another custom scheme', { url: 'evil://till/index.html' }],
    ['another host on the app scheme', { url: 'app://elsewhere/index.html' }],
    ['a web page', { url: 'https://example.com/' }],
    ['a file page', { url: 'file:///tmp/index.html' }],
    ['about:blank', { url: 'about:blank' }],
  ];

  test.each(strangers)('%s is refused on every channel, without calling the service', async (_, sender) => {
    for (const channel of Object.values(CHANNELS)) {
      const result = (await till.core.handlers[channel](sender, { id: layla.id })) as {
        ok: boolean;
        error?: { kind: string; code?: string };
      };
      expect(result).toMatchObject({ ok: false, error: { kind: 'unauthorized', code: 'forbidden_sender' } });
    }
    expect(proxy.requests.filter((r) => r.url.startsWith('/v1/customers/'))).toHaveLength(0);
  });

  test('the app page itself is served', async () => {
    const result = await till.core.handlers[CHANNELS.getCustomer](
      { url: 'app://till/index.html#/customers' },
      { id: layla.id },
    );
    expect(result).toMatchObject({ ok: true, data: { id: layla.id } });
  });
});

// Last: it changes Layla at the service, and the tests above count requests for customers.
describe('a correction that removes details', () => {
  test('a correction may remove the email and birthday with null; the service then shows them unset', async () => {
    const before = proxy.requests.length;
    const result = await till.call('updateCustomer', { id: layla.id, email: null, birthday: null });
    expect(result).toMatchObject({ ok: true, data: { id: layla.id, name: layla.name, email: null, birthday: null } });
    expect(proxy.requests.slice(before)).toMatchObject([{ method: 'PUT', url: `/v1/customers/${layla.id}` }]);
    const reread = await till.call('getCustomer', { id: layla.id });
    expect(reread.ok && { email: reread.data.email, birthday: reread.data.birthday }).toEqual({
      email: null,
      birthday: null,
    });
  });
});
