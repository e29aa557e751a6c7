import { afterEach, expect, test } from 'vitest';
import {
  legacyPhoneHash,
  mayHoldPhone,
  phoneDigest,
  phoneDigestOf,
} from '../../../../renderer/offline/search/phone-digests';
import { SearchLineChanges } from '../../../../renderer/offline/search/search-chunks';
import type { OfflineDb } from '../../../../renderer/offline/db/schema';
import { dataKeyApi, dropDb, freshDb, withDataKey } from '../support/fixtures';
import { openOfflineDb } from '../../../../renderer/offline/db/open';

const opened: OfflineDb[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) await dropDb(db);
});

async function openedDb(make: () => OfflineDb = freshDb): Promise<OfflineDb> {
  const db = make();
  opened.push(db);
  await db.open();
  return db;
}

test("a chunk's digest lists each line's phone's keyed digest, in the lines' order; a customer without a phone is 0", async () => {
  const db = await openedDb();
  const changes = new SearchLineChanges([
    { pk: 3, phoneE164: '+966501234567', nameWords: ['layla', 'haddad'] },
    { pk: 1, phoneE164: '+4520123456', nameWords: ['søren'] },
    { pk: 2, phoneE164: '', nameWords: ['walk', 'in'] },
  ]);
  const [chunk] = changes.apply([undefined]).toPut;
  const digest = phoneDigestOf(db, chunk!);
  expect(digest.chunk).toBe(0);
  expect(digest.keyed).toBe(true);
  expect([...digest.hashes]).toEqual([phoneDigest(db, '4520123456'), 0, phoneDigest(db, '966501234567')]);
  expect(mayHoldPhone(db, digest, '966501234567')).toBe(true);
  expect(mayHoldPhone(db, digest, '966501234568')).toBe(false);
});

test('the digest is keyed: the unkeyed hash anyone can compute is not it, and another key gives others', async () => {
  const db = await openedDb();
  const other = await openedDb(() =>
    withDataKey(openOfflineDb(`other-key-${Math.random()}`), dataKeyApi(btoa('o'.repeat(32)))),
  );
  const digits = '966501234567';
  expect(phoneDigest(db, digits)).not.toBe(legacyPhoneHash(digits));
  expect(phoneDigest(db, digits)).not.toBe(phoneDigest(other, digits));
  expect(phoneDigest(db, digits)).toBe(phoneDigest(db, digits));
});

test('a digest written before sealing (unkeyed, no mark) is still read with the hash it holds', async () => {
  const db = await openedDb();
  const legacy = { chunk: 0, hashes: Uint32Array.of(legacyPhoneHash('966501234567')) };
  expect(mayHoldPhone(db, legacy, '966501234567')).toBe(true);
  expect(mayHoldPhone(db, legacy, '966501234568')).toBe(false);
});

test('the digest tells numbers apart and is never 0, which means "no phone"', async () => {
  const db = await openedDb();
  const hashes = new Set<number>();
  for (let n = 0; n < 20_000; n++) hashes.add(phoneDigest(db, `9665${String(n).padStart(8, '0')}`));
  // 20,000 numbers, 32 bits: a shared digest is possible, more than one is not.
  expect(hashes.size).toBeGreaterThan(19_998);
  expect(hashes.has(0)).toBe(false);
  expect(phoneDigest(db, '')).not.toBe(0);
  expect(legacyPhoneHash('')).not.toBe(0);
});
