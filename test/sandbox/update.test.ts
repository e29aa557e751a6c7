/**
 * PUT /v1/customers/{id}: name, email and birthday can be corrected; the phone cannot,
 * because it is the customer's identity.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_FIXTURES, startSandbox, type Sandbox } from '../../sandbox';
import { byPhone, get, put } from './support/http';
import { expectCustomer, expectError, expectFieldError } from './support/shapes';

// Real HTTP on a shared machine: generous limits, so that load is not taken for a failure.
vi.setConfig({ testTimeout: 30_000, hookTimeout: 60_000 });

const { omar, soren, lukasz, layla } = DEMO_FIXTURES;
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox.close();
});

const fetchCustomer = async (id: string) => (await get(sandbox, `/v1/customers/${id}`)).body.data;
const update = (id: string, body: unknown) => put(sandbox, `/v1/customers/${id}`, body);

describe('updating a customer', () => {
  it('changes name, email and birthday, answers with the customer, and the change is visible on GET and in search', async () => {
    const before = await fetchCustomer(omar.id);
    const reply = await update(omar.id, {
      name: 'Omar Al-Farsi Jr',
      email: 'omar@example.com',
      birthday: '1988-11-30',
    });
    expect(reply.status).toBe(200);
    expectCustomer(reply.body.data, { withRewards: false });
    expect(reply.body.data).toMatchObject({
      id: omar.id,
      name: 'Omar Al-Farsi Jr',
      email: 'omar@example.com',
      birthday: '1988-11-30',
    });

    const after = await fetchCustomer(omar.id);
    expect(after).toEqual({ ...before, name: 'Omar Al-Farsi Jr', email: 'omar@example.com', birthday: '1988-11-30' });
    // The phone, cards, rewards and timestamps did not move.
    expect(after.phone).toBe(before.phone);
    expect(after.cards).toEqual(before.cards);
    expect(after.rewards).toEqual(before.rewards);

    const found = await get(sandbox, `/v1/customers?search=${encodeURIComponent('farsi jr')}`);
    expect(found.body.data.map((c: any) => c.id)).toEqual([omar.id]);
  });

  it('changes only the fields sent', async () => {
    const before = await fetchCustomer(lukasz.id);
    const reply = await update(lukasz.id, { email: 'lukasz@example.pl' });
    expect(reply.status).toBe(200);
    expect(await fetchCustomer(lukasz.id)).toEqual({ ...before, email: 'lukasz@example.pl' });

    const empty = await update(lukasz.id, {});
    expect(empty.status).toBe(200);
    expect(await fetchCustomer(lukasz.id)).toEqual({ ...before, email: 'lukasz@example.pl' });
  });

  it('clears email and birthday with null', async () => {
    await update(soren.id, { email: 'soren@example.dk', birthday: '1979-05-05' });
    const reply = await update(soren.id, { email: null, birthday: null });
    expect(reply.status).toBe(200);
    const after = await fetchCustomer(soren.id);
    expect(after.email).toBeNull();
    expect(after.birthday).toBeNull();
  });

  it('refuses a phone in the body with 422 naming phone, and changes nothing at all', async () => {
    const before = await fetchCustomer(layla.id);
    for (const body of [
      { phone: '+966509999999' },
      { name: 'Renamed', phone: '+966509999999' },
      { name: 'Renamed', phone: layla.phone },
      { name: 'Renamed', country_code: '966' },
    ]) {
      const reply = await update(layla.id, body);
      expectFieldError(reply, 'phone');
      expect(await fetchCustomer(layla.id)).toEqual(before);
    }
    const byOldPhone = await get(sandbox, `/v1/customers?${byPhone(layla.phone)}`);
    expect(byOldPhone.body.data.map((c: any) => c.id)).toEqual([layla.id]);
  });

  it('refuses invalid values and unknown fields with 422 naming them, and changes nothing', async () => {
    const before = await fetchCustomer(layla.id);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: '' }, 'name'],
      [{ name: null }, 'name'],
      [{ name: 7 }, 'name'],
      [{ email: 'nope' }, 'email'],
      [{ birthday: '2023-02-30' }, 'birthday'],
      [{ birthday: `${new Date().getUTCFullYear() + 1}-06-01` }, 'birthday'],
      [{ birthday: '30/01/1990' }, 'birthday'],
      [{ status: 'blocked' }, 'status'],
      [{ cards: [] }, 'cards'],
      [{ name: 'Valid Name', id: omar.id }, 'id'],
    ];
    for (const [body, field] of cases) {
      expectFieldError(await update(layla.id, body), field);
      expect(await fetchCustomer(layla.id)).toEqual(before);
    }
  });

  it('reads the id case-insensitively, as UUIDs are', async () => {
    const upper = soren.id.toUpperCase();
    const fetched = await get(sandbox, `/v1/customers/${upper}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body.data.id).toBe(soren.id);
    const updated = await update(upper, { name: soren.name });
    expect(updated.status).toBe(200);
    expect(updated.body.data.id).toBe(soren.id);
  });

  it('an unknown id is 404 not_found, and a malformed id is 422 naming id', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    expectError(await update(unknown, { name: 'Nobody' }), 404, 'not_found');
    expectError(await get(sandbox, `/v1/customers/${unknown}`), 404, 'not_found');
    for (const bad of ['not-a-uuid', '12345', `${omar.id}x`]) {
      expectFieldError(await update(bad, { name: 'Nobody' }), 'id');
      expectFieldError(await get(sandbox, `/v1/customers/${bad}`), 'id');
    }
  });
});
