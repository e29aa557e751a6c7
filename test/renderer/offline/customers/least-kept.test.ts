/**
 * The least kept (docs/privacy.md#the-offline-cache): what the cache keeps of a customer is what
 * an offline feature uses. An email, a birthday, a status and when a customer joined or last
 * came are not written to IndexedDB, whichever path writes the customer (the refresh, an
 * answer written through, a registration queued offline); a customer opened from the cache
 * shows them as unknown.
 */
import { afterEach, beforeEach, expect, test } from 'vitest';
import { CustomerCache } from '../../../../renderer/offline/cache/customer-cache';
import { NOT_CACHED, withUncachedBlank } from '../../../../renderer/offline/customers/prepared-customers';
import type { OfflineDb } from '../../../../renderer/offline/db/schema';
import { customer, dropDb, freshDb } from '../support/fixtures';

let db: OfflineDb;
let cache: CustomerCache;
beforeEach(async () => {
  db = freshDb();
  cache = new CustomerCache(db, { defaultCountry: () => 'SA' });
  await cache.loadIndex({ yieldToPage: async () => undefined });
});
afterEach(() => dropDb(db));

const LAYLA = customer('c-layla', 'Layla Haddad', '+966 50 123 4567', {
  email: 'layla.haddad@example.com',
  birthday: '1990-04-12',
  status: 'vip-watchlist',
  created_at: '2021-03-04T05:06:07+00:00',
  last_visit_at: '2026-11-20T09:10:11+00:00',
});

/** Every byte the blocks hold, as text. */
async function storedText(): Promise<string> {
  return JSON.stringify(await db.customerBlocks.toArray());
}

test('a customer written from the service keeps only what an offline feature uses', async () => {
  await cache.writeCustomers([LAYLA], '2026-11-28T10:00:00.000Z');
  const text = await storedText();
  for (const value of ['layla.haddad@example.com', '1990-04-12', 'vip-watchlist', '2021-03-04', '2026-11-20T09'])
    expect(text).not.toContain(value);
  for (const field of NOT_CACHED) expect(text).not.toContain(`"${field}"`);
  // What the till needs offline is all there: the name and phone to find them, the card's points and serial.
  const kept = (await cache.getCustomer('c-layla'))!.record.customer;
  expect(kept).toMatchObject({ id: 'c-layla', name: 'Layla Haddad', phone: '+966 50 123 4567' });
  expect(kept.cards).toEqual(LAYLA.cards);
});

test('read back for the screen, what is not kept shows as unknown', async () => {
  await cache.writeCustomers([LAYLA], '2026-11-28T10:00:00.000Z');
  const shown = withUncachedBlank((await cache.getCustomer('c-layla'))!.record.customer);
  expect(shown).toMatchObject({ email: null, birthday: null, status: '', created_at: null, last_visit_at: null });
});

test('a row of an earlier version, which held them, loses them when it is next written', async () => {
  // As an earlier version stored it: the whole record.
  await cache.writeCustomers([LAYLA], '2026-11-28T10:00:00.000Z');
  const [block] = await db.customerBlocks.toArray();
  const row = JSON.parse(block!.rows[0]!);
  row.customer = { ...row.customer, email: 'layla.haddad@example.com', birthday: '1990-04-12' };
  await db.customerBlocks.put({ ...block!, rows: [JSON.stringify(row)] });
  expect(await storedText()).toContain('layla.haddad@example.com');
  // The refresh writes only what changed, and a row holding what is no longer kept has.
  await cache.writeCustomers([LAYLA], '2026-11-29T10:00:00.000Z', { onlyChanged: true });
  expect(await storedText()).not.toContain('layla.haddad@example.com');
});
