/**
 * POST /v1/customers: the phone is the identity, so a known phone is the same customer
 * (200, unchanged) and a new one is created (201). Invalid input is a 422 naming the field
 * and creates nothing.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_FIXTURES, startSandbox, type Sandbox } from '../../sandbox';
import { allCustomers, byPhone, get, post } from './support/http';
import { expectCustomer, expectFieldError } from './support/shapes';

// Real HTTP on a shared machine: generous limits, so that load is not taken for a failure.
vi.setConfig({ testTimeout: 30_000, hookTimeout: 60_000 });

let sandbox: Sandbox;
let demoTotal: number;

beforeAll(async () => {
  sandbox = await startSandbox();
  demoTotal = (await get(sandbox, '/v1/customers')).body.meta.total;
});
afterAll(async () => {
  await sandbox.close();
});

const register = (body: unknown) => post(sandbox, '/v1/customers', body);
const countByPhone = async (phone: string, countryCode?: string) =>
  (await get(sandbox, `/v1/customers?${byPhone(phone, countryCode)}`)).body.meta.total;
const total = async () => (await get(sandbox, '/v1/customers')).body.meta.total;

describe('registering', () => {
  it('a new phone is 201 with the new customer; the same phone again is 200 with the same customer, not a duplicate', async () => {
    const body = { name: 'Amira Nasser', phone: '+971521112233', email: 'amira@example.com', birthday: '1992-03-04' };
    const first = await register(body);
    expect(first.status).toBe(201);
    expectCustomer(first.body.data, { withRewards: false });
    expect(first.body.data).toMatchObject({
      name: 'Amira Nasser',
      phone: '+971 52 111 2233',
      email: 'amira@example.com',
      birthday: '1992-03-04',
      status: 'active',
    });
    expect(first.body.data.cards).toHaveLength(1);
    expect(first.body.data.cards[0].program.name).toBe('Coffee Club');

    const second = await register(body);
    expect(second.status).toBe(200);
    expect(second.body.data).toEqual(first.body.data);
    expect(await countByPhone('+971521112233')).toBe(1);

    const fetched = await get(sandbox, `/v1/customers/${first.body.data.id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body.data).toEqual({ ...first.body.data, rewards: [] });
  });

  it('the local form with country_code is the same customer as the international form', async () => {
    const international = await register({ name: 'Kemal Aydın', phone: '+905327654321' });
    expect(international.status).toBe(201);
    for (const [phone, countryCode] of [
      ['05327654321', '90'],
      ['532 765 43 21', '90'],
      ['+90 532 765 43 21', undefined],
    ] as const) {
      const local = await register({
        name: 'Kemal Aydın',
        phone,
        ...(countryCode ? { country_code: countryCode } : {}),
      });
      expect(local.status, phone).toBe(200);
      expect(local.body.data.id).toBe(international.body.data.id);
    }
    expect(await countByPhone('05327654321', '90')).toBe(1);
  });

  it('a local phone first, then the international form, is also one customer', async () => {
    const local = await register({ name: 'Erik Haugen', phone: '412 34 567', country_code: '47' });
    expect(local.status).toBe(201);
    expect(local.body.data.phone).toBe('+47 41 23 45 67');
    const international = await register({ name: 'Erik Haugen', phone: '+4741234567' });
    expect(international.status).toBe(200);
    expect(international.body.data.id).toBe(local.body.data.id);
  });

  it('an existing phone returns the customer unchanged, whatever else is sent', async () => {
    const { layla } = DEMO_FIXTURES;
    const before = await get(sandbox, `/v1/customers/${layla.id}`);
    const reply = await register({
      name: 'Someone Else',
      phone: layla.phone,
      email: 'other@example.com',
      birthday: '2001-01-01',
    });
    expect(reply.status).toBe(200);
    expect(reply.body.data.id).toBe(layla.id);
    expect(reply.body.data.name).toBe(layla.name);
    const { rewards: _rewards, ...withoutRewards } = before.body.data;
    expect(reply.body.data).toEqual(withoutRewards);
    expect((await get(sandbox, `/v1/customers/${layla.id}`)).body.data).toEqual(before.body.data);
  });

  it('keeps names in any script exactly as sent, and finds them again', async () => {
    const people: Array<[string, string]> = [
      ['ليلى حداد', '+966551112233'],
      ['Łucja Ząbkowska-Öztürk', '+48601112233'],
      ['Ørjan Æsøy', '+4791112233'],
    ];
    for (const [name, phone] of people) {
      const reply = await register({ name, phone });
      expect(reply.status).toBe(201);
      expect(reply.body.data.name).toBe(name);
      const found = await get(sandbox, `/v1/customers?search=${encodeURIComponent(name.split(' ')[0] as string)}`);
      expect(found.body.data.map((c: any) => c.id)).toContain(reply.body.data.id);
    }
  });

  it('accepts a JSON Content-Type with a charset, in any case', async () => {
    const reply = await post(
      sandbox,
      '/v1/customers',
      { name: 'Charset Chris', phone: '+447400900555' },
      {
        headers: { 'content-type': 'Application/JSON; charset=utf-8' },
      },
    );
    expect(reply.status).toBe(201);
  });

  it('a new customer goes last in the listing, so the pages before stay as they were', async () => {
    let clock = Date.parse('2026-05-01T09:00:00Z');
    const timed = await startSandbox({ now: () => new Date(clock) });
    try {
      await post(timed, '/v1/customers', { name: 'Earlier Eve', phone: '+447400900665' });
      const before = await allCustomers(timed);
      clock += 1000;
      const reply = await post(timed, '/v1/customers', { name: 'Newest Nora', phone: '+447400900666' });
      expect(reply.status).toBe(201);
      expect(await allCustomers(timed)).toEqual([...before, reply.body.data]);
    } finally {
      await timed.close();
    }
  });

  it('concurrent registrations of one phone make one customer', async () => {
    const replies = await Promise.all(
      Array.from({ length: 20 }, () => register({ name: 'Rush Hour', phone: '+447400900777' })),
    );
    expect(replies.filter((reply) => reply.status === 201)).toHaveLength(1);
    expect(replies.filter((reply) => reply.status === 200)).toHaveLength(19);
    expect(new Set(replies.map((reply) => reply.body.data.id)).size).toBe(1);
    expect(await countByPhone('+447400900777')).toBe(1);
  });
});

describe('invalid registrations are 422 naming the field, and create nothing', () => {
  const phone = '+447400900888';
  const invalid: Array<[string, Record<string, unknown>, string]> = [
    ['letters for a phone', { name: 'A', phone: 'call me' }, 'phone'],
    ['too short a phone', { name: 'A', phone: '+44 74' }, 'phone'],
    ['a number that is not valid for its country', { name: 'A', phone: '+966 12' }, 'phone'],
    ['a local phone without country_code', { name: 'A', phone: '07400900888' }, 'phone'],
    ['a country_code with +', { name: 'A', phone: '07400900888', country_code: '+44' }, 'country_code'],
    ['an empty phone', { name: 'A', phone: '' }, 'phone'],
    ['a missing phone', { name: 'A' }, 'phone'],
    ['a missing name', { phone }, 'name'],
    ['an empty name', { name: '   ', phone }, 'name'],
    ['an email without @', { name: 'A', phone, email: 'not-an-email' }, 'email'],
    ['an email without a domain', { name: 'A', phone, email: 'a@' }, 'email'],
    ['a birthday in another format', { name: 'A', phone, birthday: '12/04/1990' }, 'birthday'],
    ['an impossible birthday (30 February)', { name: 'A', phone, birthday: '2023-02-30' }, 'birthday'],
    ['an impossible birthday (month 13)', { name: 'A', phone, birthday: '1990-13-01' }, 'birthday'],
    [
      'a birthday in the future',
      { name: 'A', phone, birthday: `${new Date().getUTCFullYear() + 1}-01-01` },
      'birthday',
    ],
    ['a birthday with a time', { name: 'A', phone, birthday: '1990-04-12T00:00:00Z' }, 'birthday'],
    ['an unknown field (id)', { name: 'A', phone, id: '3d2f8b1a-6c4e-4f7a-9b2d-000000000001' }, 'id'],
    ['an unknown field (status)', { name: 'A', phone, status: 'vip' }, 'status'],
    ['a number for a name', { name: 42, phone }, 'name'],
    ['a number for a phone', { name: 'A', phone: 447400900888 }, 'phone'],
    ['null for an email', { name: 'A', phone, email: null }, 'email'],
  ];

  for (const [what, body, field] of invalid) {
    it(`${what} -> fields.${field}`, async () => {
      const before = await total();
      const reply = await register(body);
      expectFieldError(reply, field);
      expect(await total()).toBe(before);
    });
  }

  it('all the invalid attempts together left the customer count as it was', async () => {
    expect(await countByPhone(phone)).toBe(0);
    // Only the valid registrations of this file's other tests added customers.
    const reply = await get(sandbox, '/v1/customers');
    expect(reply.body.meta.total).toBeGreaterThanOrEqual(demoTotal);
  });

  it('names every wrong field at once', async () => {
    const reply = await register({ name: '', phone, email: 'y', birthday: 'z', extra: 1 });
    for (const field of ['name', 'email', 'birthday', 'extra']) expectFieldError(reply, field);
  });

  it('refuses a dialling code no country has, rather than failing', async () => {
    for (const code of ['999', '0', '9999']) {
      expectFieldError(await register({ name: 'A', phone: '0501234567', country_code: code }), 'country_code');
    }
  });

  it('names an unreadable phone together with the other wrong fields', async () => {
    const reply = await register({ name: '', phone: '12', email: 'y' });
    for (const field of ['name', 'phone', 'email']) expectFieldError(reply, field);
  });

  it('gives a wrong birthday the one message that fits it', async () => {
    const messages = async (birthday: string) => {
      const reply = await register({ name: 'A', phone, birthday });
      expectFieldError(reply, 'birthday');
      return reply.body.error.fields.birthday as string[];
    };
    const format = await messages('z');
    const impossible = await messages('2023-02-30');
    const future = await messages(`${new Date().getUTCFullYear() + 1}-01-01`);
    for (const list of [format, impossible, future]) expect(list).toHaveLength(1);
    expect(new Set([format[0], impossible[0], future[0]]).size).toBe(3);
    expect(future[0]).toMatch(/future/i);
    expect(format[0]).toContain('YYYY-MM-DD');
  });
});
