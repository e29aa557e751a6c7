import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSandbox, DEMO_FIXTURES, type Sandbox } from '../../../sandbox';
import type { Operation } from '../../../common/contract';
import { CONTROL_CHARACTER_MESSAGE } from '../../../electron/validation/control-characters';
import { RESPONSE_LIMITS } from '../../../electron/service/response-schemas';
import { ResultTooDeepError, scrubSecrets } from '../../../electron/log/scrub-secrets';
import { configureService, createCoreFixture, type CoreFixture } from '../../support/app-core-fixture';
import { CARD, CUSTOMER, REWARD } from '../../support/answer-shapes';
import { startCountingProxy, startStubServer, type StubServer } from '../../support/stub-servers';

// The last holes: secrets in property names, control characters, markup in service
// messages, prototype-named fields, hostile nesting, and answers of the wrong shape.

const KEY = 'KESTREL-harden-271828-secret';
const { layla } = DEMO_FIXTURES;

let sandbox: Sandbox;
let proxy: StubServer;
let till: CoreFixture;
const servers: StubServer[] = [];
const fixtures: CoreFixture[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ keys: { [KEY]: 'coffee-club' } });
  proxy = await startCountingProxy(sandbox.url);
  till = await createCoreFixture();
  fixtures.push(till);
  await configureService(till, proxy.url, KEY);
});

afterAll(async () => {
  for (const fixture of fixtures) await fixture.dispose();
  for (const server of servers) await server.close();
  await proxy?.close();
  await sandbox?.close();
});

/** A till talking to a stub that answers every request with `status` and `body` (a string is sent as is). */
async function tillAnswered(status: number, body: unknown | ((auth: string) => unknown)): Promise<CoreFixture> {
  const server = await startStubServer((request, response) => {
    const value =
      typeof body === 'function' ? (body as (auth: string) => unknown)(request.headers.authorization ?? '') : body;
    response
      .writeHead(status, { 'Content-Type': 'application/json' })
      .end(typeof value === 'string' ? value : JSON.stringify(value));
  });
  servers.push(server);
  const fixture = await createCoreFixture();
  fixtures.push(fixture);
  await configureService(fixture, server.url, KEY);
  return fixture;
}

describe('the key in property names', () => {
  test('scrubSecrets scrubs keys as well as values', () => {
    const scrubbed = scrubSecrets({ [`Bearer ${KEY}`]: ['bad'], nested: [{ [KEY]: KEY }] }, [KEY]);
    expect(JSON.stringify(scrubbed)).not.toContain(KEY);
    expect(Object.keys(scrubbed)).toContain('Bearer [redacted]');
  });

  test('a 422 naming a field after the Authorization header does not carry the key to the renderer', async () => {
    const echo = await tillAnswered(422, (auth: string) => ({
      message: 'Invalid.',
      fields: { [auth]: ['bad'], name: ['Too short.'] },
    }));
    const result = await echo.call('registerCustomer', { name: 'Nadia', phone: '+966551112233' });
    expect(result).toMatchObject({ ok: false, error: { kind: 'validation', fields: { name: 'Too short.' } } });
    expect(JSON.stringify(result)).not.toContain(KEY);
    expect(JSON.stringify(echo.log.lines)).not.toContain(KEY);
  });

  test('field names longer than 64 characters are not copied from the service', async () => {
    const long = 'f'.repeat(65);
    const stub = await tillAnswered(422, { errors: { [long]: ['bad'], phone: ['Not a phone.'] } });
    const result = await stub.call('registerCustomer', { name: 'Nadia', phone: '+966551112233' });
    expect(!result.ok && result.error.fields).toEqual({ phone: 'Not a phone.' });
  });
});

describe('control characters are refused at the bridge', () => {
  const controls: Array<[string, string]> = [
    ['NUL', '\u0000'],
    ['ESC', '\u001b'],
    ['a line break', '\n'],
    ['DEL', '\u007f'],
    ['C1 NEL', '\u0085'],
    ['RIGHT-TO-LEFT OVERRIDE', '\u202e'],
    ['LEFT-TO-RIGHT EMBEDDING', '\u202a'],
    ['FIRST STRONG ISOLATE', '\u2068'],
    ['POP DIRECTIONAL ISOLATE', '\u2069'],
  ];
  const fields: Array<[Operation, (bad: string) => unknown, string]> = [
    ['registerCustomer', (bad) => ({ name: `Nadia${bad}Test`, phone: '+966551112233' }), 'name'],
    [
      'registerCustomer',
      (bad) => ({ name: 'Nadia', phone: '+966551112233', email: `nadia${bad}@example.com` }),
      'email',
    ],
    ['registerCustomer', (bad) => ({ name: 'Nadia', phone: `+96655${bad}1112233` }), 'phone'],
    ['updateCustomer', (bad) => ({ id: layla.id, name: `La${bad}yla` }), 'name'],
    ['searchCustomers', (bad) => ({ search: `Lay${bad}la` }), 'search'],
    ['checkReward', (bad) => ({ reward_code: `RW-LAY${bad}LA001`, phone: layla.phone }), 'reward_code'],
    [
      'redeemReward',
      (bad) => ({ reward_code: 'RW-LAYLA001', phone: layla.phone, order_reference: `A-1${bad}7` }),
      'order_reference',
    ],
    [
      'redeemReward',
      (bad) => ({
        reward_code: 'RW-LAYLA001',
        phone: layla.phone,
        branch_id: `7c0e5d1a-2b3c-4d5e-${bad}8f90-0123456789ab`,
      }),
      'branch_id',
    ],
    ['updateSettings', (bad) => ({ tillName: `Till${bad}1` }), 'tillName'],
    ['updateSettings', (bad) => ({ baseUrl: `https://loyalty.exa${bad}mple.com/` }), 'baseUrl'],
    ['updateSettings', (bad) => ({ defaultCountry: `S${bad}A` }), 'defaultCountry'],
    ['setApiKey', (bad) => ({ apiKey: `abcdefgh${bad}ijkl` }), 'apiKey'],
  ];

  test.each(controls)(
    '%s in any text field is a validation failure on that field, sent nowhere, saved nowhere',
    async (_, bad) => {
      const before = proxy.requests.length;
      for (const [operation, payload, field] of fields) {
        const result = await till.call(operation, payload(bad));
        expect(result.ok, `${operation}.${field}`).toBe(false);
        if (result.ok) continue;
        expect(result.error.kind, `${operation}.${field}`).toBe('validation');
        expect(result.error.fields?.[field], `${operation}.${field}`).toEqual(expect.any(String));
      }
      expect(proxy.requests.length).toBe(before);
      const saved = await readFile(join(till.userDataDir, 'settings.json'), 'utf8');
      // eslint-disable-next-line no-control-regex -- the test looks for control characters
      expect(saved).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    },
  );

  test("surrounding line breaks and tabs (a scanner's Enter) are trimmed away, not refused", async () => {
    const result = await till.call('checkReward', { reward_code: '\tRW-LAYLA001\r\n', phone: `${layla.phone}\n` });
    expect(result).toMatchObject({ ok: true, data: { code: 'RW-LAYLA001' } });
  });

  test('the field message says what is wrong', async () => {
    const result = await till.call('registerCustomer', { name: 'Layla\u202e1234', phone: '+966551112233' });
    expect(!result.ok && result.error).toMatchObject({
      message: 'Please check: name.',
      fields: { name: CONTROL_CHARACTER_MESSAGE },
    });
  });

  test('every script and emoji still goes through, with the ordinary direction marks', async () => {
    for (const name of ['ليلى الحربي \u200f🌟', 'Søren Østergaard', '张伟', 'Łukasz Wiśniewski', 'Ἀθηνᾶ 👩‍🍳']) {
      const result = await till.call('searchCustomers', { search: name });
      expect(result.ok, name).toBe(true);
    }
    const settings = await till.call('updateSettings', { tillName: 'صندوق ١ ☕' });
    expect(settings.ok && settings.data.settings.tillName).toBe('صندوق ١ ☕');
  });

  test('a renderer error report is kept, with its control characters made visible', async () => {
    const result = await till.call('logError', { message: 'boom\u001b[31m\u202e', stack: 'at a\nat b\u0000' });
    expect(result).toEqual({ ok: true, data: null });
    const line = till.log.lines.at(-1) ?? '';
    // eslint-disable-next-line no-control-regex -- the test looks for control characters
    expect(line).not.toMatch(/[\u0000\u001b\u202e]/);
    expect(line).toContain('boom\ufffd[31m\ufffd');
  });
});

describe("the service's messages are shown as plain text", () => {
  test('markup and control characters are stripped from an error and its fields; markup alone gives the app its own words', async () => {
    const stub = await tillAnswered(422, {
      message: '<img src=x onerror=alert(1)>',
      errors: { name: ['<b>Too\u202e short</b>\u0000'], email: ['<script>steal()</script>'] },
    });
    const result = await stub.call('registerCustomer', { name: 'Nadia', phone: '+966551112233' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.message).toBe('The loyalty service did not accept the request.');
    expect(result.error.fields).toEqual({ name: 'Too short' });
  });

  test("a success message is plain and short; its text is the service's", async () => {
    const stub = await tillAnswered(201, {
      ok: true,
      message: `<p>Customer\u001b[31m <i>created</i>\u0000</p>${'!'.repeat(1000)}`,
      data: CUSTOMER,
    });
    const result = await stub.call('registerCustomer', { name: 'Nadia', phone: '+966551112233' });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.message).toMatch(/^Customer \[31m created !+…$/);
    expect(result.message!.length).toBeLessThanOrEqual(300);
  });

  test('a message with nothing readable left is dropped', async () => {
    const stub = await tillAnswered(201, { ok: true, message: '<img src=x onerror=alert(1)>\u202e', data: CUSTOMER });
    const result = await stub.call('registerCustomer', { name: 'Nadia', phone: '+966551112233' });
    expect(result.ok && result.message).toBeUndefined();
  });
});

describe('prototype-named keys', () => {
  test.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])(
    'a payload with %s is refused with that field named',
    async (key) => {
      const payload = JSON.parse(`{"name":"Nadia","phone":"+966551112233",${JSON.stringify(key)}:"x"}`) as unknown;
      const result = await till.call('registerCustomer', payload);
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(Object.keys(result.error.fields ?? {})).toEqual([key]);
      expect(result.error.message).toBe(`Please check: ${key}.`);
    },
  );

  test('a service field called __proto__ is a field like any other', async () => {
    const stub = await tillAnswered(422, '{"errors":{"__proto__":["Not allowed."],"constructor":["Nope."]}}');
    const result = await stub.call('registerCustomer', { name: 'Nadia', phone: '+966551112233' });
    expect(!result.ok && Object.keys(result.error.fields ?? {}).sort()).toEqual(['__proto__', 'constructor']);
  });
});

describe('deep nesting', () => {
  const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

  test('scrubSecrets refuses a million levels with its own error, not a stack overflow', () => {
    const value = JSON.parse(deep(1_000_000)) as unknown;
    let thrown: unknown;
    try {
      scrubSecrets(value, [KEY]);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ResultTooDeepError);
    expect((thrown as Error).name).toBe('ResultTooDeepError');
  });

  test.each([40, 100])('a %i-level answer is bad_response', async (levels) => {
    const stub = await tillAnswered(200, `{"ok":true,"data":{"extra":${deep(levels)}}}`);
    const result = await stub.call('getCustomer', { id: layla.id });
    expect(result).toMatchObject({ ok: false, error: { kind: 'bad_response' } });
  });

  test('a million-level answer is bad_response', async () => {
    const body = `{"ok":true,"data":${JSON.stringify(CUSTOMER).slice(0, -1)},"extra":${deep(1_000_000)}}}`;
    const stub = await tillAnswered(200, body);
    const result = await stub.call('getCustomer', { id: layla.id });
    expect(result).toMatchObject({ ok: false, error: { kind: 'bad_response' } });
  });
});

describe('every answer is checked against its shape', () => {
  const withRewards = { ...CUSTOMER, rewards: [REWARD] };
  const wrong: Array<[string, Operation, unknown, unknown]> = [
    [
      'a points balance that is not a whole number',
      'getCustomer',
      { id: layla.id },
      { ...withRewards, cards: [{ ...CARD, points: '12.5' }] },
    ],
    ['a customer without an id', 'getCustomer', { id: layla.id }, { ...withRewards, id: null }],
    [
      'a card without its programme',
      'updateCustomer',
      { id: layla.id, name: 'X' },
      { ...CUSTOMER, cards: [{ ...CARD, program: null }] },
    ],
    [
      `${RESPONSE_LIMITS.rewardsPerCustomer * 10} rewards`,
      'getCustomer',
      { id: layla.id },
      { ...withRewards, rewards: Array.from({ length: RESPONSE_LIMITS.rewardsPerCustomer * 10 }, () => REWARD) },
    ],
    ['a customer without rewards on single retrieval', 'getCustomer', { id: layla.id }, CUSTOMER],
    [
      'a customer without a phone',
      'registerCustomer',
      { name: 'Nadia', phone: '+966551112233' },
      { ...CUSTOMER, phone: 42 },
    ],
    [
      'a reward without a code',
      'checkReward',
      { reward_code: 'RW-SHAPE001', phone: layla.phone },
      { ...REWARD, code: undefined },
    ],
    [
      'a reward whose expiry is not a date',
      'checkReward',
      { reward_code: 'RW-SHAPE001', phone: layla.phone },
      { ...REWARD, expires_at: 'soon' },
    ],
  ];

  test.each(wrong)('%s is bad_response', async (_, operation, payload, data) => {
    const stub = await tillAnswered(200, { ok: true, data });
    const result = await stub.call(operation, payload);
    expect(result).toMatchObject({ ok: false, error: { kind: 'bad_response' } });
  });

  test('open formats are read leniently: numeric strings, a missing card list, a number for a name', async () => {
    const lenient = await tillAnswered(200, {
      ok: true,
      data: { ...withRewards, name: 42, cards: [{ ...CARD, points: '120', visits: 'many', spent: '18.50' }] },
    });
    const read = await lenient.call('getCustomer', { id: layla.id });
    if (!read.ok) throw new Error(read.error.message);
    expect(read.data.name).toBe('42');
    expect(read.data.cards[0]).toMatchObject({ points: 120, visits: null, spent: 18.5 });
    const noCards = await tillAnswered(200, { ok: true, data: { ...withRewards, cards: undefined } });
    expect(await noCards.call('getCustomer', { id: layla.id })).toMatchObject({ ok: true, data: { cards: [] } });
  });

  test('a redemption answered 2xx stands even when its card or reward cannot be read', async () => {
    const payload = { reward_code: 'RW-SHAPE001', phone: layla.phone };
    const noCard = await tillAnswered(200, { ok: true, data: { reward: REWARD } });
    expect(await noCard.call('redeemReward', payload)).toMatchObject({ ok: true, data: { card: null } });
    const badCard = await tillAnswered(200, { ok: true, data: { reward: REWARD, card: { id: CARD.id } } });
    expect(await badCard.call('redeemReward', payload)).toMatchObject({ ok: true, data: { card: null } });
    const notJson = await tillAnswered(200, '<html>Redeemed</html>');
    expect(await notJson.call('redeemReward', payload)).toMatchObject({
      ok: true,
      status: 200,
      data: { reward: null, card: null },
    });
  });

  test(`a search page of more than ${RESPONSE_LIMITS.customersPerPage} customers, or without its pagination, is bad_response`, async () => {
    const meta = { current_page: 1, last_page: 1, per_page: 100, total: 101 };
    const tooMany = await tillAnswered(200, { ok: true, data: Array.from({ length: 101 }, () => CUSTOMER), meta });
    expect(await tooMany.call('searchCustomers', { search: 'x' })).toMatchObject({
      ok: false,
      error: { kind: 'bad_response' },
    });
    const noMeta = await tillAnswered(200, { ok: true, data: [CUSTOMER] });
    expect(await noMeta.call('searchCustomers', { search: 'x' })).toMatchObject({
      ok: false,
      error: { kind: 'bad_response' },
    });
  });

  test('unknown extra fields and unknown states and types are tolerated; the extras are not passed on', async () => {
    const data = {
      ...CUSTOMER,
      status: 'vip',
      tier: { level: 'gold' },
      cards: [{ ...CARD, status: 'frozen', program: { ...CARD.program, type: 'stamp', colour: 'red' } }],
      rewards: [{ ...REWARD, status: 'reserved', type: 'voucher', barcode: '123' }],
    };
    const stub = await tillAnswered(200, { ok: true, data });
    const result = await stub.call('getCustomer', { id: layla.id });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.data).toMatchObject({
      status: 'vip',
      cards: [{ status: 'frozen', program: { type: 'stamp' } }],
      rewards: [{ status: 'reserved', type: 'voucher' }],
    });
    expect(JSON.stringify(result.data)).not.toMatch(/tier|colour|barcode/);
  });

  test("the sandbox's own answers all pass", async () => {
    const found = await till.call('searchCustomers', { search: 'a', per_page: 100 });
    expect(found.ok && found.data.length).toBe(100);
    const one = await till.call('getCustomer', { id: layla.id });
    expect(one.ok && one.data.rewards?.length).toBeGreaterThan(0);
  });
});
