/**
 * GET /v1/customers: exact phone search, text search on names and digits, and the
 * pagination arithmetic at its edges.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_FIXTURES, startSandbox, type Sandbox } from '../../sandbox';
import { allCustomers, byPhone, get, post } from './support/http';
import { expectCustomer, expectFieldError } from './support/shapes';

// Real HTTP on a shared machine: generous limits, so that load is not taken for a failure.
vi.setConfig({ testTimeout: 30_000, hookTimeout: 60_000 });

const { layla, soren, lukasz, isik } = DEMO_FIXTURES;
let sandbox: Sandbox;
/** Every customer, in the service's order. */
let everyone: any[];

beforeAll(async () => {
  sandbox = await startSandbox();
  everyone = await allCustomers(sandbox);
});
afterAll(async () => {
  await sandbox.close();
});

const search = (query: string) => get(sandbox, `/v1/customers?${query}`);
const names = (reply: { body: any }) => reply.body.data.map((customer: any) => customer.name);
const ids = (reply: { body: any }) => reply.body.data.map((customer: any) => customer.id);
/** How a cashier would type a name: lower case, without accents or special letters. */
const plain = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/ø/g, 'o')
    .replace(/ł/g, 'l')
    .replace(/ı/g, 'i')
    .replace(/æ/g, 'ae')
    .replace(/ß/g, 'ss');

/** The documented order: oldest first by created_at, ties broken by id. */
function expectDocumentedOrder(customers: any[]): void {
  for (let i = 1; i < customers.length; i++) {
    const a = customers[i - 1];
    const b = customers[i];
    const order = Date.parse(a.created_at) - Date.parse(b.created_at) || (a.id < b.id ? -1 : 1);
    expect(order, `${a.id} (${a.created_at}) before ${b.id} (${b.created_at})`).toBeLessThan(0);
  }
}

describe('search by exact phone', () => {
  it('finds the customer by the international form', async () => {
    const reply = await search(byPhone(layla.phone));
    expect(reply.status).toBe(200);
    expect(ids(reply)).toEqual([layla.id]);
    expect(reply.body.meta).toEqual({ current_page: 1, last_page: 1, per_page: 20, total: 1 });
    expectCustomer(reply.body.data[0], { withRewards: false });
  });

  it('finds the same customer by the local form with country_code, with or without the trunk 0, and by the grouped form', async () => {
    const international = await search(byPhone(layla.phone));
    for (const query of [
      byPhone('0501234567', '966'),
      byPhone('501234567', '966'),
      byPhone('050 123 4567', '966'),
      byPhone(layla.phoneShown),
    ]) {
      const reply = await search(query);
      expect(reply.status, query).toBe(200);
      expect(reply.body, query).toEqual(international.body);
    }
  });

  it('is exact: a number that is only a part of a customer\u2019s number finds nobody', async () => {
    // A valid Saudi number that shares Layla's first digits but is a different number.
    const reply = await search(byPhone('+966501234568'));
    expect(reply.body.data.every((customer: any) => customer.id !== layla.id)).toBe(true);
  });

  it('no match is an empty page with a correct meta', async () => {
    // France is not among the demo's countries.
    const reply = await search(byPhone('+33612345678'));
    expect(reply.status).toBe(200);
    expect(reply.body.data).toEqual([]);
    expect(reply.body.meta).toEqual({ current_page: 1, last_page: 1, per_page: 20, total: 0 });
  });

  it('an invalid phone or country code is a 422 naming the field', async () => {
    expectFieldError(await search(byPhone('12ab')), 'phone');
    expectFieldError(await search(byPhone('+966 12')), 'phone');
    expectFieldError(await search(byPhone('0501234567')), 'phone');
    expectFieldError(await search(byPhone('0501234567', '+966')), 'country_code');
  });
});

describe('search by part of a name or number', () => {
  it('matches part of a name, case-insensitively', async () => {
    for (const term of ['layla', 'LAYLA', 'Hadd', 'addad']) {
      const reply = await search(`search=${encodeURIComponent(term)}`);
      expect(names(reply), term).toContain(layla.name);
      for (const name of names(reply)) expect(plain(name), term).toContain(plain(term));
    }
  });

  it('matches regardless of accents and special letters (ø, ł, ı, ż, ó)', async () => {
    const cases: Array<[string, string]> = [
      ['soren', soren.name],
      ['ØSTERGAARD', soren.name],
      ['ostergaard', soren.name],
      ['lukasz', lukasz.name],
      ['zolkiewski', lukasz.name],
      ['Żółkiewski', lukasz.name],
      ['isik', isik.name],
      ['yilmaz', isik.name],
      ['Işık', isik.name],
    ];
    for (const [term, expected] of cases) {
      const reply = await search(`search=${encodeURIComponent(term)}`);
      expect(reply.status, term).toBe(200);
      expect(names(reply), term).toContain(expected);
      for (const name of names(reply)) expect(plain(name), `${term} -> ${name}`).toContain(plain(term));
    }
  });

  it('folds names as the till folds them offline (common/fold.ts): apostrophes dropped, ħ and ŧ too', async () => {
    const own = await startSandbox();
    try {
      const registered = [
        ['Siobhán O’Brien', '+966 50 987 6500'],
        ["Seán D'Arcy", '+966 50 987 6501'],
        ['Ħamrun Ŧest', '+966 50 987 6502'],
      ];
      for (const [name, phone] of registered) {
        expect((await post(own, '/v1/customers', { name, phone })).status).toBe(201);
      }
      const find = async (typed: string) =>
        (await get(own, `/v1/customers?search=${encodeURIComponent(typed)}&per_page=100`)).body.data.map(
          (c: any) => c.name,
        );
      expect(await find('obrien')).toEqual(['Siobhán O’Brien']);
      expect(await find("o'brien")).toEqual(['Siobhán O’Brien']);
      expect(await find('darcy sean')).toEqual(["Seán D'Arcy"]);
      expect(await find('hamrun test')).toEqual(['Ħamrun Ŧest']);
    } finally {
      await own.close();
    }
  });

  it('matches Arabic names as people type them: tashkeel, tatweel, alef forms, ى and ة folded', async () => {
    const arabic = everyone.filter((customer: any) => /[\u0600-\u06ff]/.test(customer.name));
    expect(arabic.length).toBeGreaterThan(20);
    expect(arabic.some((customer: any) => /[a-z]/i.test(customer.name))).toBe(true); // mixed names too

    // Its own service: the customers registered here must not change the shared one's pages.
    const own = await startSandbox();
    try {
      const find = async (typed: string) =>
        (await get(own, `/v1/customers?search=${encodeURIComponent(typed)}&per_page=100`)).body.data.map(
          (c: any) => c.name,
        );
      expect((await post(own, '/v1/customers', { name: 'لَيلى الحدّاد', phone: '+966 50 987 6543' })).status).toBe(201);
      for (const typed of ['ليلى', 'ليلي', 'لَيلى', 'ليـلى الحداد', 'الحداد ليلى'])
        expect(await find(typed), typed).toContain('لَيلى الحدّاد');
      expect((await post(own, '/v1/customers', { name: 'فاطمة آل أحمد', phone: '+966 50 987 6544' })).status).toBe(201);
      for (const typed of ['فاطمه', 'ال احمد', 'فاطمة أحمد', 'ٱحمد'])
        expect(await find(typed), typed).toContain('فاطمة آل أحمد');
      expect(await find('ليلى سارة')).toEqual([]);
    } finally {
      await own.close();
    }
  });

  it('matches several words in any order, each a part of the name', async () => {
    for (const term of ['layla haddad', 'haddad layla', 'HADDAD lay', '  layla   haddad ']) {
      const reply = await search(`search=${encodeURIComponent(term)}`);
      expect(names(reply), term).toContain(layla.name);
      for (const name of names(reply)) {
        expect(plain(name)).toContain('layla');
        expect(plain(name)).toContain('hadd');
      }
    }
    const none = await search(`search=${encodeURIComponent('layla østergaard')}`);
    expect(none.body.data).toEqual([]);
    expect(none.body.meta.total).toBe(0);
  });

  it('matches part of the digits of a number, with or without the national trunk 0, and with spaces', async () => {
    for (const term of ['501234567', '0501234567', '050 123 4567', '966501234567', '+966 50 123', '1234567']) {
      const reply = await search(`search=${encodeURIComponent(term)}&per_page=100`);
      expect(reply.status, term).toBe(200);
      expect(ids(reply), term).toContain(layla.id);
    }
    // Every result really holds the digits.
    const reply = await search('search=501234567&per_page=100');
    for (const customer of reply.body.data) expect(customer.phone.replace(/\D/g, '')).toContain('501234567');
  });

  it('a term that matches nobody is an empty page', async () => {
    const reply = await search('search=zzqxv');
    expect(reply.status).toBe(200);
    expect(reply.body.data).toEqual([]);
    expect(reply.body.meta).toEqual({ current_page: 1, last_page: 1, per_page: 20, total: 0 });
  });

  it('phone and search together narrow each other', async () => {
    expect(ids(await search(`${byPhone(layla.phone)}&search=layla`))).toEqual([layla.id]);
    expect(ids(await search(`${byPhone(layla.phone)}&search=soren`))).toEqual([]);
  });

  it('paginates text results like any other, with a total that counts them all', async () => {
    const terms = everyone.filter((customer) => plain(customer.name).includes('a'));
    const first = await search('search=a&per_page=7');
    expect(first.body.meta.total).toBe(terms.length);
    expect(first.body.meta.last_page).toBe(Math.ceil(terms.length / 7));
    expect(ids(first)).toEqual(terms.slice(0, 7).map((customer) => customer.id));
  });
});

describe('pagination', () => {
  it('defaults to page 1 of 20', async () => {
    const reply = await search('');
    const total = everyone.length;
    expect(reply.body.data).toHaveLength(20);
    expect(reply.body.meta).toEqual({ current_page: 1, last_page: Math.ceil(total / 20), per_page: 20, total });
    expect(ids(reply)).toEqual(everyone.slice(0, 20).map((c) => c.id));
  });

  it('gives 100 a page when asked for per_page 100', async () => {
    const reply = await search('per_page=100');
    expect(reply.body.data).toHaveLength(100);
    expect(reply.body.meta).toMatchObject({
      current_page: 1,
      per_page: 100,
      last_page: Math.ceil(everyone.length / 100),
    });
  });

  it('the last page holds the remainder, and every page in between is full', async () => {
    const total = everyone.length;
    for (const perPage of [1, 7, 20, 100]) {
      const lastPage = Math.ceil(total / perPage);
      const last = await search(`per_page=${perPage}&page=${lastPage}`);
      expect(last.body.meta).toEqual({ current_page: lastPage, last_page: lastPage, per_page: perPage, total });
      expect(last.body.data).toHaveLength(total - perPage * (lastPage - 1));
      expect(ids(last)).toEqual(everyone.slice(perPage * (lastPage - 1)).map((c) => c.id));
      if (lastPage > 1) {
        const before = await search(`per_page=${perPage}&page=${lastPage - 1}`);
        expect(before.body.data).toHaveLength(perPage);
      }
    }
  });

  it('a page past the end is empty with a correct meta', async () => {
    const total = everyone.length;
    const lastPage = Math.ceil(total / 20);
    for (const page of [lastPage + 1, lastPage + 50]) {
      const reply = await search(`page=${page}`);
      expect(reply.status).toBe(200);
      expect(reply.body.data).toEqual([]);
      expect(reply.body.meta).toEqual({ current_page: page, last_page: lastPage, per_page: 20, total });
    }
  });

  it('the pages together hold meta.total customers, none twice, none missing', async () => {
    for (const perPage of [20, 33]) {
      const seen: string[] = [];
      const first = await search(`per_page=${perPage}`);
      const { total, last_page: lastPage } = first.body.meta;
      for (let page = 1; page <= lastPage; page++) {
        const reply = await search(`per_page=${perPage}&page=${page}`);
        expect(reply.body.meta.total).toBe(total);
        seen.push(...ids(reply));
      }
      expect(seen).toHaveLength(total);
      expect(new Set(seen).size).toBe(total);
      expect(seen).toEqual(everyone.map((c) => c.id));
    }
  });

  it('orders oldest first (created_at, then id), the same on every call', async () => {
    expectDocumentedOrder(everyone);
    const first = await search('per_page=100&page=2');
    const second = await search('per_page=100&page=2');
    expect(second.text).toBe(first.text);
  });

  it('keeps that order for customers registered in the same second, and across a restart on the same data file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sandbox-order-'));
    const dataFile = join(dir, 'data.json');
    // A clock that stands still: every registration lands in the same second.
    const now = () => new Date('2026-03-01T12:00:00Z');
    try {
      const first = await startSandbox({ dataFile, now });
      for (let i = 0; i < 12; i++) {
        const reply = await post(first, '/v1/customers', {
          name: `Same Second ${i}`,
          phone: `+4474009002${String(i).padStart(2, '0')}`,
        });
        expect(reply.status).toBe(201);
      }
      const listed = await allCustomers(first);
      await first.close();
      expectDocumentedOrder(listed);

      const second = await startSandbox({ dataFile, now });
      try {
        expect((await allCustomers(second)).map((c) => c.id)).toEqual(listed.map((c) => c.id));
      } finally {
        await second.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses per_page 0, 101, -1, 2.5 and abc, and page 0 and abc, with 422 naming the field', async () => {
    for (const value of ['0', '101', '-1', '2.5', 'abc', ''])
      expectFieldError(await search(`per_page=${value}`), 'per_page');
    for (const value of ['0', '-1', 'abc', '']) expectFieldError(await search(`page=${value}`), 'page');
  });

  it('refuses an unknown query parameter with 422 naming it', async () => {
    expectFieldError(await search('name=layla'), 'name');
    expectFieldError(await search('perPage=5'), 'perPage');
  });
});

describe('search by a loyalty card’s serial number (docs/sandbox.md)', () => {
  it('finds the holder by the whole serial, any case, and by part of it', async () => {
    const laylaRecord = everyone.find((customer) => customer.id === layla.id);
    const serial: string = laylaRecord.cards[0].serial_number;
    expect(serial).toMatch(/^[A-Z]{2}-\d{8}$/);
    for (const term of [serial, serial.toLowerCase(), serial.slice(3)]) {
      const reply = await search(`search=${encodeURIComponent(term)}`);
      expect(reply.status).toBe(200);
      const ids = reply.body.data.map((customer: any) => customer.id);
      expect(ids, term).toContain(layla.id);
      for (const customer of reply.body.data)
        expect(
          customer.cards.some((card: any) => card.serial_number.toUpperCase().includes(term.toUpperCase())) ||
            customer.phone.replace(/\D/g, '').includes(term.replace(/\D/g, '').replace(/^0+/, '')),
        ).toBe(true);
    }
  });

  it('a serial nobody holds finds nobody, and names are still searched as before', async () => {
    expect((await search('search=ZZ-99999999')).body.data).toEqual([]);
    expect(names(await search('search=layla%20haddad'))).toEqual([layla.name]);
  });
});
