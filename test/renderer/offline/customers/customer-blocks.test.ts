import { afterEach, beforeEach, expect, test } from 'vitest';
import {
  BLOCK_BITS,
  CustomerIdTaken,
  addCustomerRow,
  customerTables,
  deleteCustomerRow,
  putCustomerRows,
} from '../../../../renderer/offline/customers/customer-blocks';
import { cachedRecord } from '../../../../renderer/offline/customers/prepared-customers';
import {
  countCustomers,
  customersAtMost,
  findCustomerById,
  firstCustomerPks,
  firstCustomers,
  getCustomerRows,
} from '../../../../renderer/offline/customers/customer-reads';
import type { CachedCustomer, OfflineDb } from '../../../../renderer/offline/db/schema';
import { StoredIds } from '../../../../renderer/offline/customers/stored-ids';
import { nameWordsOf } from '../../../../common/fold';
import { linesOf, parseSearchLine } from '../../../../renderer/offline/search/search-chunks';
import { allCustomers } from '../../../support/offline-rows';
import { customer, dropDb, freshDb, recordStoreCalls } from '../support/fixtures';

const BLOCK = 1 << BLOCK_BITS;
let db: OfflineDb;
beforeEach(() => {
  db = freshDb();
});
afterEach(() => dropDb(db));

function row(i: number, name = `Person${i} Haddad`): CachedCustomer {
  const phone = `+96655${1_000_000 + i}`;
  return {
    id: `c-${i}`,
    phoneE164: phone,
    nameWords: nameWordsOf(name),
    customer: customer(`c-${i}`, name, phone),
    fetchedAt: '2026-01-01T00:00:00.000Z',
  };
}

const rows = (from: number, count: number) => Array.from({ length: count }, (_, i) => row(from + i));
const write = (list: CachedCustomer[], previous: (CachedCustomer | null)[] = []) =>
  db.transaction('rw', customerTables(db), async () => putCustomerRows(db, list, previous));

async function expectLinesMatch(): Promise<void> {
  const stored = await allCustomers(db);
  const lines = (await db.searchChunks.toArray()).flatMap(linesOf).map(parseSearchLine);
  expect(lines).toEqual(stored.map((row) => ({ pk: row.pk, phoneE164: row.phoneE164, nameWords: row.nameWords })));
}

test('writes in several transactions fill blocks in turn: a partly filled block keeps its customers', async () => {
  // 5, then 30, then 1: each write after the first starts inside a block an earlier one left part-filled.
  const first = await write(rows(1, 5));
  const second = await write(rows(6, 30));
  const third = await write(rows(36, 1));
  expect([...first, ...second, ...third]).toEqual(Array.from({ length: 36 }, (_, i) => i + 1));
  expect(await countCustomers(db)).toBe(36);
  expect((await allCustomers(db)).map((stored) => stored.id)).toEqual(rows(1, 36).map((r) => r.id));
  expect(await db.customerBlocks.count()).toBe(Math.ceil(37 / BLOCK));
  await expectLinesMatch();
});

test('reads by pk come back in the order asked, with undefined for a pk not stored', async () => {
  await write(rows(1, 40));
  const found = await getCustomerRows(db, [33, 2, 999, 17, 2]);
  expect(found.map((stored) => stored?.id)).toEqual(['c-33', 'c-2', undefined, 'c-17', 'c-2']);
  // As written, less what the cache does not keep of a customer (an email, a birthday…, docs/privacy.md).
  expect(found[0]).toEqual({ ...row(33), customer: cachedRecord(row(33).customer), pk: 33 });
  expect(await firstCustomerPks(db, 20)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
});

test('a stored customer is replaced under its pk; by id it is found as it now is', async () => {
  const [pk] = await write([row(7)]);
  await write([{ ...row(7, 'Renamed Person'), phoneE164: '+4520123456', pk }], [{ ...row(7), pk }]);
  expect(await countCustomers(db)).toBe(1);
  expect(await findCustomerById(db, 'c-7')).toMatchObject({
    pk,
    phoneE164: '+4520123456',
    nameWords: ['renamed', 'person'],
  });
  await expectLinesMatch();
});

test('a second customer with an id its block holds is refused, and nothing of the write is kept', async () => {
  await write(rows(1, 20));
  // pk 21 joins c-20 (pk 20) in its block. (Across blocks, ids are the writers' to keep
  // unique: the index is not, stored-ids.ts says why.)
  await expect(write([{ ...row(99), id: 'c-20' }])).rejects.toBeInstanceOf(CustomerIdTaken);
  expect(await countCustomers(db)).toBe(20);
  await expectLinesMatch();
});

test('every write notes the ids of the blocks it sends in the stored ids loaded for its database, and only there', async () => {
  await write(rows(1, 3));
  const stored = await StoredIds.load(db);
  const other = freshDb();
  const elsewhere = await StoredIds.load(other);
  try {
    expect(['c-1', 'c-2', 'c-3'].every((id) => stored.mightHold(id))).toBe(true);
    expect(stored.mightHold('c-4')).toBe(false);
    await write(rows(4, 2));
    expect(stored.mightHold('c-4') && stored.mightHold('c-5')).toBe(true);
    expect(elsewhere.mightHold('c-4')).toBe(false);
    // Noted as it is sent, so a write rolled back leaves a "maybe", never a "no" for a stored id.
    await expect(
      db.transaction('rw', customerTables(db), async () => {
        await putCustomerRows(db, [row(6)]);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await findCustomerById(db, 'c-6')).toBeUndefined();
    expect(stored.mightHold('c-6')).toBe(true);
  } finally {
    stored.close();
    elsewhere.close();
    await dropDb(other);
  }
});

test('a deleted customer is gone from its block, an emptied block goes, and its pk is never given again', async () => {
  // pks 1 to BLOCK + 1: block 0 holds 1 to BLOCK - 1, block 1 the last two.
  await write(rows(1, BLOCK + 1));
  await db.transaction('rw', customerTables(db), async () => {
    await deleteCustomerRow(db, 3);
    await deleteCustomerRow(db, BLOCK);
    await deleteCustomerRow(db, BLOCK + 1);
  });
  expect(await countCustomers(db)).toBe(BLOCK - 2);
  expect((await getCustomerRows(db, [3]))[0]).toBeUndefined();
  expect(await db.customerBlocks.get(1)).toBeUndefined();
  await expectLinesMatch();
  const pk = await db.transaction('rw', customerTables(db), async () => addCustomerRow(db, row(500)));
  expect(pk).toBe(BLOCK + 2);
});

test('the customers stored, at most: the pks given so far, which a deletion leaves an overcount, never an undercount', async () => {
  expect(await customersAtMost(db)).toBe(0);
  await write(rows(1, 30));
  expect(await customersAtMost(db)).toBe(30);
  await db.transaction('rw', customerTables(db), async () => deleteCustomerRow(db, 7));
  expect(await countCustomers(db)).toBe(29);
  expect(await customersAtMost(db)).toBe(30);
});

test('an update changes the one customer and leaves its block-mates as they were', async () => {
  await write(rows(1, 10));
  const before = await allCustomers(db);
  const stored = before[3]!;
  await write([{ ...stored, customer: { ...stored.customer, name: 'Renamed Haddad' } }], [stored]);
  const after = await allCustomers(db);
  expect(after[3]!.customer.name).toBe('Renamed Haddad');
  expect(after.filter((_, i) => i !== 3)).toEqual(before.filter((_, i) => i !== 3));
});

test('the first customers are read a page of blocks at a time, never by walking the whole table', async () => {
  const calls = recordStoreCalls(db);
  await write(rows(1, 40));
  calls.length = 0;
  expect((await firstCustomers(db, 20)).map((stored) => stored.pk)).toEqual(
    Array.from({ length: 20 }, (_, i) => i + 1),
  );
  const reads = calls.filter((call) => call.table === 'customerBlocks');
  expect(reads.length).toBeGreaterThan(0);
  expect(reads.every((call) => call.op === 'query')).toBe(true);
});
