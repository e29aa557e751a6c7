import { afterEach, beforeEach, expect, test } from 'vitest';
import { packCustomerBlocks } from '../../../../renderer/offline/customers/customer-blocks';
import type { CachedCustomer, OfflineDb } from '../../../../renderer/offline/db/schema';
import { hashOf, StoredIds } from '../../../../renderer/offline/customers/stored-ids';
import { customer, dropDb, freshDb } from '../support/fixtures';

let db: OfflineDb;
beforeEach(() => {
  db = freshDb();
});
afterEach(() => dropDb(db));

/** Ids shaped as the service's: random uuids. */
const uuid = (i: number) => {
  const hex = (n: number, width: number) => (n >>> 0).toString(16).padStart(width, '0').slice(-width);
  const a = Math.imul(i + 1, 0x9e3779b1);
  const b = Math.imul(i + 7, 0x85ebca6b);
  return `${hex(a, 8)}-${hex(b, 4)}-4${hex(a ^ b, 3)}-a${hex(b >>> 7, 3)}-${hex(i, 4)}${hex(a + b, 8)}`;
};

function stored(ids: readonly string[]): CachedCustomer[] {
  return ids.map((id, i) => ({
    pk: i + 1,
    id,
    phoneE164: `+96655${1_000_000 + i}`,
    nameWords: ['person'],
    customer: customer(id, 'Person', `+96655${1_000_000 + i}`),
    fetchedAt: '2026-01-01T00:00:00.000Z',
  }));
}

test('loads every stored id, a page of index keys at a time, and says "not stored" of no stored id', async () => {
  const ids = Array.from({ length: 2_500 }, (_, i) => uuid(i));
  await db.customerBlocks.bulkAdd(packCustomerBlocks(stored(ids)));
  // Pages of 1,000 ids: the load must go on past a full page, and stop after a short one.
  const loaded = await StoredIds.load(db, 1_000);
  try {
    expect(ids.filter((id) => !loaded.mightHold(id))).toEqual([]);
    const others = Array.from({ length: 2_500 }, (_, i) => uuid(10_000 + i));
    expect(others.filter((id) => loaded.mightHold(id))).toEqual([]);
  } finally {
    loaded.close();
  }
});

test('grows as ids are added: none is ever lost, and ids never added stay "not stored"', async () => {
  const loaded = await StoredIds.load(db);
  try {
    const added = Array.from({ length: 100_000 }, (_, i) => uuid(i));
    for (const id of added) loaded.add(id);
    // Adding again changes nothing.
    for (const id of added.slice(0, 1_000)) loaded.add(id);
    expect(added.filter((id) => !loaded.mightHold(id))).toEqual([]);
    const never = Array.from({ length: 100_000 }, (_, i) => uuid(1_000_000 + i));
    expect(never.filter((id) => loaded.mightHold(id))).toEqual([]);
    expect(loaded.mightHoldAny(never.slice(0, 50))).toBe(false);
    expect(loaded.mightHoldAny([...never.slice(0, 50), added[77_777]!])).toBe(true);
  } finally {
    loaded.close();
  }
});

test('ids that differ in one character, or only in order, hash apart; no hash is 0 (the empty slot)', () => {
  const near = ['c-1', 'c-2', 'c-12', 'c-21', 'local-1', 'LOCAL-1', '', 'a', 'b', 'ab', 'ba'];
  for (let i = 0; i < 2_000; i++) near.push(`c-${i}`, `${uuid(i)}`, `${uuid(i).slice(0, -1)}x`);
  const hashes = near.map(hashOf);
  expect(new Set(hashes).size).toBe(new Set(near).size);
  expect(hashes.every((hash) => Number.isSafeInteger(hash) && hash > 0 && hash < 2 ** 53)).toBe(true);
});

test('once closed, it follows no more writes and refuses to answer (an answer could be wrong)', async () => {
  const loaded = await StoredIds.load(db);
  loaded.close();
  expect(() => loaded.mightHold('c-1')).toThrow(/closed/);
  loaded.add('c-1');
  // Closing twice is harmless.
  loaded.close();
});
