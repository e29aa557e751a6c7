import { Dexie } from 'dexie';
import { afterEach, expect, test } from 'vitest';
import { CustomerCache } from '../../../../renderer/offline/cache/customer-cache';
import { openOfflineDb } from '../../../../renderer/offline/db/open';
import { type CachedCustomer, type OfflineDb } from '../../../../renderer/offline/db/schema';
import { linesOf, parseSearchLine, writeSearchLines } from '../../../../renderer/offline/search/search-chunks';
import { packCustomerBlocks, searchFieldsOf } from '../../../../renderer/offline/customers/customer-blocks';
import { nameWordsOf } from '../../../../common/fold';
import { Outbox } from '../../../../renderer/offline/outbox/outbox';
import { customer, dropDb, freshDb, withDataKey } from '../support/fixtures';
import { phoneDigestOf as legacyDigestOf } from '../../../../renderer/offline/db/migrations/frozen/listings';
import { allCustomers, allListings, countCustomers, getCustomerRow } from '../../../support/offline-rows';
import { LISTING_SLOTS, listingOf } from '../../../../renderer/offline/search/listings';
import { phoneDigestOf } from '../../../../renderer/offline/search/phone-digests';

const cleanup: OfflineDb[] = [];
afterEach(async () => {
  for (const db of cleanup.splice(0)) await dropDb(db);
});

/** Opens an older database as the app does, and checks it reached the latest schema. */
async function openUpgraded(name: string): Promise<OfflineDb> {
  const db = withDataKey(openOfflineDb(name));
  cleanup.push(db);
  await db.open();
  expect(db.verno).toBe(10);
  expect(db.tables.map((table) => table.name)).not.toContain('customers');
  // As IndexedDB holds them, not as Dexie was told.
  const store = (db.backendDB() as IDBDatabase).transaction('customerBlocks').objectStore('customerBlocks');
  expect([...store.indexNames]).toEqual(['ids']);
  expect(store.index('ids')).toMatchObject({ unique: false, multiEntry: true });
  await expectListingsMatch(db);
  return db;
}

/**
 * Every customer has a listing saying what its record says, and nothing else has one; every
 * search chunk has its phone digest, and nothing else has one (version 9).
 */
async function expectListingsMatch(db: OfflineDb): Promise<void> {
  expect(await allListings(db)).toEqual((await allCustomers(db)).map(listingOf));
  // Digests the upgrade made are unkeyed (it runs before the key is attached: the sealing pass
  // makes them keyed); those written since are keyed.
  const digests = await db.phoneDigests.toArray();
  expect(digests).toEqual(
    (await db.searchChunks.toArray()).map((chunk, i) =>
      digests[i]?.keyed ? phoneDigestOf(db, chunk) : legacyDigestOf(chunk),
    ),
  );
}

/** Every customer has a search line saying what its record says, and nothing else has one. */
async function expectSearchRowsMatch(db: OfflineDb): Promise<void> {
  const customers = await allCustomers(db);
  const rows = (await db.searchChunks.toArray()).flatMap(linesOf).map(parseSearchLine);
  expect(rows.map((row) => row.pk).sort()).toEqual(customers.map((row) => row.pk).sort());
  for (const row of customers) {
    expect(rows.find((search) => search.pk === row.pk)).toEqual({
      pk: row.pk,
      phoneE164: row.phoneE164,
      nameWords: row.nameWords,
    });
  }
}

test('a version 1 database upgrades: its customers get search rows and are found', async () => {
  const name = `schema-upgrade-${Math.random().toString(36).slice(2)}`;
  const v1 = new Dexie(name);
  v1.version(1).stores({
    customers: '++pk, &id, phoneE164, *nameWords',
    rewards: '&code, customerId',
    outbox: '++seq, state',
    journal: '++seq, doneAt',
    meta: '&key',
  });
  await v1.table('customers').bulkAdd([
    {
      id: 'c-1',
      phoneE164: '+4520123456',
      nameWords: nameWordsOf('Søren Østergaard'),
      customer: customer('c-1', 'Søren Østergaard', '+45 20 12 34 56'),
      fetchedAt: '2026-01-01T00:00:00.000Z',
    },
    {
      id: 'c-2',
      phoneE164: '+48501234567',
      nameWords: nameWordsOf('Łukasz Żółkiewski'),
      customer: customer('c-2', 'Łukasz Żółkiewski', '+48 501 234 567'),
      fetchedAt: '2026-01-01T00:00:00.000Z',
    },
  ]);
  v1.close();

  const db = await openUpgraded(name);
  await expectSearchRowsMatch(db);
  expect(await db.searchChunks.count()).toBe(1);
  const cache = new CustomerCache(db, { defaultCountry: () => 'DK' });
  await cache.loadIndex({ yieldToPage: async () => undefined });
  expect((await cache.search('ostergaard')).customers.map((row) => row.id)).toEqual(['c-1']);
  expect((await cache.search('501234')).customers.map((row) => row.id)).toEqual(['c-2']);
});

test('a version 2 database upgrades: Arabic names stored with the old folding are folded again and found as typed', async () => {
  const name = `schema-arabic-${Math.random().toString(36).slice(2)}`;
  const v2 = new Dexie(name);
  v2.version(1).stores({
    customers: '++pk, &id, phoneE164, *nameWords',
    rewards: '&code, customerId',
    outbox: '++seq, state',
    journal: '++seq, doneAt',
    meta: '&key',
  });
  v2.version(2).stores({ searchChunks: 'chunk', outbox: '++seq, state, [state+seq]' });
  // What version 2's folding stored: marks gone, but alef maqsura, ta marbuta and tatweel kept.
  const rows = [
    {
      pk: 1,
      id: 'c-1',
      phoneE164: '+966501234567',
      nameWords: ['ليلى', 'الحداد'],
      customer: customer('c-1', 'لَيلى الحداد', '+966 50 123 4567'),
      fetchedAt: '2026-01-01T00:00:00.000Z',
    },
    {
      pk: 2,
      id: 'c-2',
      phoneE164: '+971501234567',
      nameWords: ['فاطمة', 'al', 'farsi'],
      customer: customer('c-2', 'فاطمـــة Al-Farsi', '+971 50 123 4567'),
      fetchedAt: '2026-01-01T00:00:00.000Z',
    },
    {
      pk: 3,
      id: 'c-3',
      phoneE164: '+4520123456',
      nameWords: nameWordsOf('Søren Østergaard'),
      customer: customer('c-3', 'Søren Østergaard', '+45 20 12 34 56'),
      fetchedAt: '2026-01-01T00:00:00.000Z',
    },
  ];
  await v2.table('customers').bulkAdd(rows);
  await v2.table('searchChunks').put({
    chunk: 0,
    lines: '1 966501234567 ليلى الحداد\n2 971501234567 فاطمة al farsi\n3 4520123456 soren ostergaard',
  });
  v2.close();

  const db = await openUpgraded(name);
  expect((await getCustomerRow(db, 1))?.nameWords).toEqual(['ليلي', 'الحداد']);
  expect((await getCustomerRow(db, 2))?.nameWords).toEqual(['فاطمه', 'al', 'farsi']);
  await expectSearchRowsMatch(db);
  const cache = new CustomerCache(db, { defaultCountry: () => 'SA' });
  await cache.loadIndex({ yieldToPage: async () => undefined });
  expect((await cache.search('ليلى')).customers.map((row) => row.id)).toEqual(['c-1']);
  expect((await cache.search('فاطمة')).customers.map((row) => row.id)).toEqual(['c-2']);
  expect((await cache.search('ostergaard')).customers.map((row) => row.id)).toEqual(['c-3']);
});

test('search rows follow every customer write: write-through, offline registration, acknowledgement', async () => {
  const db = freshDb();
  cleanup.push(db);
  const cache = new CustomerCache(db, { defaultCountry: () => 'SA' });
  const outbox = new Outbox(db, cache);
  await cache.putCustomers([
    customer('c-1', 'Layla Haddad', '+966 50 123 4567'),
    customer('c-2', 'Omar Al-Farsi', '+971 50 123 4567'),
  ]);
  await cache.putCustomers([customer('c-1', 'Layla Nasser', '+966 50 123 4567')]);
  await cache.putCustomerWithRewards({ ...customer('c-2', 'Omar Farsi', '+971 50 123 4567'), rewards: [] });
  const registered = await outbox.queueRegistration(
    { name: 'Nora Berg', phone: '+47 412 34 567' },
    { defaultCountry: 'SA' },
  );
  await expectSearchRowsMatch(db);
  if (!registered.ok || !registered.item) throw new Error('not queued');
  await db.outbox.update(registered.item.seq!, { state: 'failed' });
  await outbox.acknowledge(registered.item.seq!);
  await expectSearchRowsMatch(db);
  expect(await countCustomers(db)).toBe(2);
});

test('search lines are kept sorted by pk within a chunk, and an emptied chunk goes', async () => {
  const db = freshDb();
  cleanup.push(db);
  await writeSearchLines(db.searchChunks, [
    { pk: 7, phoneE164: '+4520123456', nameWords: ['soren'] },
    { pk: 3, phoneE164: '+48501234567', nameWords: ['lukasz', 'zolkiewski'] },
    { pk: 1030, phoneE164: '+966501234567', nameWords: [] },
  ]);
  expect((await db.searchChunks.get(0))?.lines).toBe('3 48501234567 lukasz zolkiewski\n7 4520123456 soren');
  expect(parseSearchLine((await db.searchChunks.get(1))!.lines)).toEqual({
    pk: 1030,
    phoneE164: '+966501234567',
    nameWords: [],
  });
  await writeSearchLines(db.searchChunks, [], [1030]);
  expect(await db.searchChunks.get(1)).toBeUndefined();
});

test('a version 2 database upgrades to the latest: customers, search lines and outbox kept, the page tags table added', async () => {
  const name = `schema-upgrade-v2-${Math.random().toString(36).slice(2)}`;
  const v2 = new Dexie(name);
  v2.version(2).stores({
    customers: '++pk, &id, phoneE164, *nameWords',
    rewards: '&code, customerId',
    outbox: '++seq, state, [state+seq]',
    journal: '++seq, doneAt',
    meta: '&key',
    searchChunks: 'chunk',
  });
  const row = {
    id: 'c-1',
    phoneE164: '+4520123456',
    nameWords: nameWordsOf('Søren Østergaard'),
    customer: customer('c-1', 'Søren Østergaard', '+45 20 12 34 56'),
    fetchedAt: '2026-01-01T00:00:00.000Z',
  };
  const pk = (await v2.table('customers').add(row)) as number;
  await writeSearchLines(v2.table('searchChunks'), [{ pk, phoneE164: row.phoneE164, nameWords: row.nameWords }]);
  await v2.table('meta').put({ key: 'lastCompleteRefresh', value: { at: '2026-01-01T00:00:00.000Z', total: 1 } });
  v2.close();

  const db = await openUpgraded(name);
  expect(await db.pageTags.count()).toBe(0);
  await db.pageTags.put({ page: 1, perPage: 100, etag: '"abc"' });
  expect(await db.pageTags.get(1)).toEqual({ page: 1, perPage: 100, etag: '"abc"' });
  await expectSearchRowsMatch(db);
  const cache = new CustomerCache(db, { defaultCountry: () => 'DK' });
  await cache.loadIndex({ yieldToPage: async () => undefined });
  expect((await cache.search('søren')).customers.map((found) => found.id)).toEqual(['c-1']);
});

/**
 * A released schema, as it was: version 4 was the last with the multi-entry name-word
 * index, version 5 the last with a record per customer, version 6 the last with a unique
 * id index, version 7 the last with a phone index, version 8 the last without listings.
 */
function openReleased(name: string, version: 4 | 5 | 6 | 7 | 8): Dexie {
  const db = new Dexie(name);
  const blocks = { 6: 'block, &*ids, *phones', 7: 'block, *ids, *phones', 8: 'block, *ids' } as const;
  db.version(version).stores({
    ...(version >= 6
      ? { customerBlocks: blocks[version as 6 | 7 | 8] }
      : { customers: version === 4 ? '++pk, &id, phoneE164, *nameWords' : '++pk, &id, phoneE164' }),
    rewards: '&code, customerId',
    outbox: '++seq, state, [state+seq]',
    journal: '++seq, doneAt',
    meta: '&key',
    searchChunks: 'chunk',
    pageTags: 'page',
  });
  return db;
}

/** Blocks as versions 6 and 7 stored them: with their customers' phones, for the phone index. */
function releasedBlocks(rows: readonly CachedCustomer[]) {
  return packCustomerBlocks(rows).map((block) => ({
    ...block,
    phones: block.pks.map((pk) => rows.find((row) => row.pk === pk)!.phoneE164),
  }));
}

/** `count` customers (`c-0`, pk 1, onwards) stored in a version 6 or 7 database as it stored them. */
async function storeReleasedBlocks(db: Dexie, count: number): Promise<void> {
  const rows = Array.from({ length: count }, (_, i) => ({
    ...v4Row(`c-${i}`, `Layla Haddad ${i}`, `+966 55 ${1_000_000 + i}`, `+96655${1_000_000 + i}`),
    pk: i + 1,
  }));
  await db.table('customerBlocks').bulkAdd(releasedBlocks(rows));
  await writeSearchLines(db.table('searchChunks'), rows.map(searchFieldsOf));
  await db.table('meta').put({ key: 'nextCustomerPk', value: count + 1 });
}

function v4Row(id: string, name: string, phone: string, phoneE164: string) {
  return {
    id,
    phoneE164,
    nameWords: nameWordsOf(name),
    customer: customer(id, name, phone),
    fetchedAt: '2026-01-01T00:00:00.000Z',
  };
}

test('a version 4 database upgrades to the latest: the name-word index is gone, rows, tags and outbox kept, names still found while the index loads', async () => {
  const name = `schema-upgrade-v4-${Math.random().toString(36).slice(2)}`;
  const v4 = openReleased(name, 4);
  const rows = [
    v4Row('c-1', 'Søren Østergaard', '+45 20 12 34 56', '+4520123456'),
    v4Row('c-2', 'Layla Haddad', '+966 50 123 4567', '+966501234567'),
    v4Row('c-3', 'Sami Haddad', '+966 55 100 0001', '+966551000001'),
  ];
  const pks = (await v4.table('customers').bulkAdd(rows, { allKeys: true })) as number[];
  await writeSearchLines(
    v4.table('searchChunks'),
    rows.map((row, i) => ({ pk: pks[i]!, phoneE164: row.phoneE164, nameWords: row.nameWords })),
  );
  await v4.table('pageTags').put({ page: 1, perPage: 100, etag: '"p1"' });
  await v4.table('outbox').add({ kind: 'redeem', state: 'pending', code: 'ABC', queuedAt: '2026-01-01T00:00:00.000Z' });
  v4.close();

  const db = await openUpgraded(name);
  expect(await countCustomers(db)).toBe(3);
  expect(await db.pageTags.get(1)).toEqual({ page: 1, perPage: 100, etag: '"p1"' });
  expect(await db.outbox.count()).toBe(1);
  await expectSearchRowsMatch(db);
  // While the index loads, names come from the search chunks, exact phones from their index.
  const fallback = new CustomerCache(db, { defaultCountry: () => 'SA' });
  const haddads = await fallback.search('hadd');
  expect(haddads).toMatchObject({ via: 'fallback', complete: true, total: 2 });
  expect(haddads.customers.map((row) => row.id).sort()).toEqual(['c-2', 'c-3']);
  expect((await fallback.search('layla had')).customers.map((row) => row.id)).toEqual(['c-2']);
  expect((await fallback.search('+4520123456')).customers.map((row) => row.id)).toEqual(['c-1']);
  // A write after the upgrade stores no name-word index entry and is found as before.
  await fallback.putCustomers([customer('c-4', 'Zeynep Kaya', '+90 555 111 22 33')]);
  expect((await fallback.search('zeyn')).customers.map((row) => row.id)).toEqual(['c-4']);
  await fallback.loadIndex({ yieldToPage: async () => undefined });
  expect((await fallback.search('hadd')).customers.map((row) => row.id).sort()).toEqual(['c-2', 'c-3']);
});

test('the upgrade to 5 gives a customer missing from the search chunks its line, and drops a line of no customer', async () => {
  const name = `schema-upgrade-v4-repair-${Math.random().toString(36).slice(2)}`;
  const v4 = openReleased(name, 4);
  const rows = [
    v4Row('c-1', 'Søren Østergaard', '+45 20 12 34 56', '+4520123456'),
    v4Row('c-2', 'Layla Haddad', '+966 50 123 4567', '+966501234567'),
  ];
  const pks = (await v4.table('customers').bulkAdd(rows, { allKeys: true })) as number[];
  // Only Søren has a line, and a line for pk 999 stayed behind.
  await writeSearchLines(v4.table('searchChunks'), [
    { pk: pks[0]!, phoneE164: rows[0]!.phoneE164, nameWords: rows[0]!.nameWords },
    { pk: 999, phoneE164: '+4511111111', nameWords: ['ghost'] },
  ]);
  v4.close();

  const db = await openUpgraded(name);
  await expectSearchRowsMatch(db);
  const fallback = new CustomerCache(db, { defaultCountry: () => 'SA' });
  expect((await fallback.search('layla')).customers.map((row) => row.id)).toEqual(['c-2']);
  expect((await fallback.search('ghost')).total).toBe(0);
});

test('a version 1 database upgrades through every version to the latest', async () => {
  const name = `schema-upgrade-v1-to-latest-${Math.random().toString(36).slice(2)}`;
  const v1 = new Dexie(name);
  v1.version(1).stores({
    customers: '++pk, &id, phoneE164, *nameWords',
    rewards: '&code, customerId',
    outbox: '++seq, state',
    journal: '++seq, doneAt',
    meta: '&key',
  });
  await v1
    .table('customers')
    .bulkAdd([
      v4Row('c-1', 'فاطمـــة Al-Farsi', '+971 50 123 4567', '+971501234567'),
      v4Row('c-2', 'Łukasz Żółkiewski', '+48 501 234 567', '+48501234567'),
    ]);
  v1.close();

  const db = await openUpgraded(name);
  await expectSearchRowsMatch(db);
  const fallback = new CustomerCache(db, { defaultCountry: () => 'PL' });
  expect((await fallback.search('zolk')).customers.map((row) => row.id)).toEqual(['c-2']);
  expect((await fallback.search('فاطمة')).customers.map((row) => row.id)).toEqual(['c-1']);
});

test('a version 5 database upgrades to 6: every customer moves into blocks as it was, found by pk, id and phone; no pk is given twice', async () => {
  const name = `schema-upgrade-v5-${Math.random().toString(36).slice(2)}`;
  const v5 = openReleased(name, 5);
  // More customers than one step of the upgrade moves, so that it pages.
  const rows = Array.from({ length: 5_000 }, (_, i) =>
    v4Row(
      `c-${i}`,
      i % 2 ? `Layla Haddad ${i}` : `Søren Østergaard ${i}`,
      `+966 55 ${1_000_000 + i}`,
      `+96655${1_000_000 + i}`,
    ),
  );
  const local = { ...v4Row('local-1', 'Nora Berg', '+47 412 34 567', '+4741234567'), localOnly: true };
  const pks = (await v5.table('customers').bulkAdd([...rows, local], { allKeys: true })) as number[];
  await writeSearchLines(
    v5.table('searchChunks'),
    [...rows, local].map((row, i) => ({ pk: pks[i]!, phoneE164: row.phoneE164, nameWords: row.nameWords })),
  );
  // The last customer left: its pk must not be given to anyone again.
  const gone = (await v5
    .table('customers')
    .add(v4Row('c-gone', 'Gone Away', '+45 11 11 11 11', '+4511111111'))) as number;
  await v5.table('customers').delete(gone);
  await v5
    .table('outbox')
    .add({ kind: 'register', state: 'pending', customerPk: pks[5_000], queuedAt: '2026-01-01T00:00:00.000Z' });
  const before = await v5.table('customers').toArray();
  v5.close();

  const db = await openUpgraded(name);
  expect(await countCustomers(db)).toBe(5_001);
  expect(await allCustomers(db)).toEqual(before);
  await expectSearchRowsMatch(db);
  const cache = new CustomerCache(db, { defaultCountry: () => 'SA' });
  expect((await cache.getCustomer('c-4321'))?.record).toEqual(before[4321]);
  expect((await cache.findByPhone('+4741234567'))?.pk).toBe(pks[5_000]);
  expect((await cache.getByPk(pks[5_000]!))?.localOnly).toBe(true);
  expect(await db.outbox.count()).toBe(1);
  // While the index loads: exact phone from the blocks' index, names from the search chunks.
  expect((await cache.search('+966551004999')).customers.map((row) => row.id)).toEqual(['c-4999']);
  expect((await cache.search('layla haddad 4999')).customers.map((row) => row.id)).toEqual(['c-4999']);
  // A new customer gets a pk after every pk ever given, the deleted one's included.
  const [added] = await cache.putCustomers([customer('c-new', 'Zeynep Kaya', '+90 555 111 22 33')]);
  expect(added!.pk).toBe(gone + 1);
  // The service's customer already stored is updated in place, never stored twice.
  const [again] = await cache.putCustomers([customer('c-7', 'Sami Renamed', '+966 55 1000007')]);
  expect(again!.pk).toBe(before[7]!.pk);
  expect(await countCustomers(db)).toBe(5_002);
  await cache.loadIndex({ yieldToPage: async () => undefined });
  expect((await cache.search('sami renamed')).customers.map((row) => row.id)).toEqual(['c-7']);
});

test('a version 6 database upgrades to 7: the id index is built again, not unique, and finds every customer; nothing else changes', async () => {
  const name = `schema-upgrade-v6-${Math.random().toString(36).slice(2)}`;
  const v6 = openReleased(name, 6);
  await storeReleasedBlocks(v6, 300);
  await v6.table('pageTags').put({ page: 1, perPage: 100, etag: '"p1"' });
  const blocksBefore = await v6.table('customerBlocks').toArray();
  v6.close();

  const db = await openUpgraded(name);
  expect(await db.customerBlocks.toArray()).toEqual(blocksBefore);
  expect(await countCustomers(db)).toBe(300);
  expect(await db.pageTags.get(1)).toEqual({ page: 1, perPage: 100, etag: '"p1"' });
  const cache = new CustomerCache(db, { defaultCountry: () => 'SA' });
  for (const i of [0, 15, 16, 299]) expect((await cache.getCustomer(`c-${i}`))?.record.pk).toBe(i + 1);
  // Stored again, a customer keeps their pk: writers still find them by id.
  const [again] = await cache.putCustomers([customer('c-42', 'Sami Renamed', '+966 55 1000042')]);
  expect(again!.pk).toBe(43);
  expect(await countCustomers(db)).toBe(300);
});

test('a version 7 database upgrades to 8: the phone index is gone, blocks are kept as they were, and phones are still found before and after the index loads', async () => {
  const name = `schema-upgrade-v7-${Math.random().toString(36).slice(2)}`;
  const v7 = openReleased(name, 7);
  await storeReleasedBlocks(v7, 40);
  const blocksBefore = await v7.table('customerBlocks').toArray();
  expect(blocksBefore[0]).toHaveProperty('phones');
  v7.close();

  const db = await openUpgraded(name);
  // Dropping an index rewrites no record.
  expect(await db.customerBlocks.toArray()).toEqual(blocksBefore);
  const cache = new CustomerCache(db, { defaultCountry: () => 'SA' });
  // While the index loads: from the search chunks.
  expect((await cache.findByPhone('+966551000017'))?.id).toBe('c-17');
  expect(await cache.search('+966 55 1000017')).toMatchObject({ via: 'fallback', complete: true, total: 1 });
  expect(await cache.findByPhone('+966559999999')).toBeUndefined();
  // A block written again holds only today's fields.
  const [renamed] = await cache.putCustomers([customer('c-17', 'Sami Renamed', '+966 55 2000017')]);
  expect(renamed!.pk).toBe(18);
  expect(await db.customerBlocks.get(1)).not.toHaveProperty('phones');
  expect(await cache.findByPhone('+966551000017')).toBeUndefined();
  expect((await cache.findByPhone('+966552000017'))?.id).toBe('c-17');
  // Once it has loaded: from the index.
  await cache.loadIndex({ yieldToPage: async () => undefined });
  expect((await cache.findByPhone('+966552000017'))?.id).toBe('c-17');
  expect((await cache.findByPhone('+966551000039'))?.id).toBe('c-39');
  expect((await cache.search('+966 55 2000017')).customers.map((row) => row.id)).toEqual(['c-17']);
});

test('a version 8 database upgrades to 9: every customer gets a listing of what their record says, and searches answer from memory once it has loaded', async () => {
  const name = `schema-upgrade-v8-${Math.random().toString(36).slice(2)}`;
  const v8 = openReleased(name, 8);
  // Enough customers for several listing chunks, with holes left by customers deleted since.
  const rows = Array.from({ length: 700 }, (_, i) => ({
    ...v4Row(
      `c-${i}`,
      i % 3 === 0 ? `ليلى حداد ${i}` : `Layla "Haddad" ${i}`,
      `+966 55 ${1_000_000 + i}`,
      `+96655${1_000_000 + i}`,
    ),
    pk: i + 1,
    ...(i === 650 ? { localOnly: true } : {}),
  })).filter((row) => row.pk % 97 !== 0);
  rows[3]!.customer.cards.push({
    ...rows[3]!.customer.cards[0]!,
    id: 'card-2',
    points: 7,
    program: { id: 'p-bakery', name: 'Bakery', type: 'point' },
  });
  await v8.table('customerBlocks').bulkAdd(packCustomerBlocks(rows));
  await writeSearchLines(v8.table('searchChunks'), rows.map(searchFieldsOf));
  await v8.table('meta').put({ key: 'nextCustomerPk', value: 701 });
  const blocksBefore = await v8.table('customerBlocks').toArray();
  v8.close();

  // openUpgraded checks every customer's listing against their record.
  const db = await openUpgraded(name);
  expect(await db.customerBlocks.toArray()).toEqual(blocksBefore);
  expect((await db.listingChunks.toCollection().primaryKeys()).length).toBe(Math.ceil(701 / LISTING_SLOTS));
  const cache = new CustomerCache(db, { defaultCountry: () => 'SA' });
  await cache.loadIndex({ yieldToPage: async () => undefined });
  expect(cache.listings.ready).toBe(true);
  const found = await cache.search('+966 55 1000003');
  expect(found.customers).toEqual([listingOf(rows[3]!)]);
  expect(found.customers[0]!.cards.map((card) => [card.program.name, card.points])).toEqual([
    ['Coffee Club', rows[3]!.customer.cards[0]!.points],
    ['Bakery', 7],
  ]);
  expect((await cache.search('ليلى')).total).toBe(rows.filter((row) => row.customer.name.startsWith('ليلى')).length);
});
