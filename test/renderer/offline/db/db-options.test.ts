import { Dexie } from 'dexie';
import { afterEach, expect, test } from 'vitest';
import { CustomerCache } from '../../../../renderer/offline/cache/customer-cache';
import { type OfflineDb } from '../../../../renderer/offline/db/schema';
import { customer, dropDb, freshDb } from '../support/fixtures';

const cleanup: OfflineDb[] = [];
afterEach(async () => {
  for (const db of cleanup.splice(0)) await dropDb(db);
});

/** Every change set Dexie announces for live queries while `write` runs. */
async function announcedDuring(write: () => Promise<unknown>): Promise<unknown[]> {
  const announced: unknown[] = [];
  const listener = (parts: unknown) => void announced.push(parts);
  Dexie.on('storagemutated', listener);
  try {
    await write();
  } finally {
    Dexie.on('storagemutated').unsubscribe(listener);
  }
  return announced;
}

test("the till's writes do no live-query bookkeeping: Dexie announces no changed keys", async () => {
  const db = freshDb();
  cleanup.push(db);
  // Creating the database announces "everything changed" once, whatever the options.
  await db.open();
  const cache = new CustomerCache(db, { defaultCountry: () => 'AE' });
  const written = await announcedDuring(() =>
    cache.putCustomers([
      customer('c-1', 'Layla Haddad', '+971501234567'),
      customer('c-2', 'Omar Ali', '+971501234568'),
    ]),
  );
  expect(await cache.findByPhone('+971501234567')).toMatchObject({ id: 'c-1' });
  expect(written).toEqual([]);
});

test("a database opened with Dexie's defaults announces its writes, so the test above can see them", async () => {
  const name = `offline-test-defaults-${Math.random().toString(36).slice(2)}`;
  const plain = new Dexie(name);
  plain.version(1).stores({ meta: '&key' });
  await plain.open();
  try {
    const written = await announcedDuring(() => plain.table('meta').put({ key: 'probe', value: 1 }));
    expect(written.length).toBeGreaterThan(0);
  } finally {
    plain.close();
    await Dexie.delete(name);
  }
});
