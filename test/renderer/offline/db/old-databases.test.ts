/**
 * Databases written by each earlier version's own code (old-databases/v<N>.json, made by
 * old-databases/make-fixtures.ts from the commits it names) open with today's code: every
 * migration since runs on what that version really stored, and afterwards the till finds,
 * lists and reads every customer and reward the old till held, and gives no pk twice. Then
 * the first start's sealing pass seals it all (sealing-pass.ts): nothing of it is left in
 * clear, and the till still holds everything it held, nothing queued lost.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { CustomerCache } from '../../../../renderer/offline/cache/customer-cache';
import { openOfflineDb } from '../../../../renderer/offline/db/open';
import type { OfflineDb } from '../../../../renderer/offline/db/schema';
import { nameWordsOf } from '../../../../common/fold';
import { listingOf } from '../../../../renderer/offline/search/listings';
import { phoneDigestOf } from '../../../../renderer/offline/search/phone-digests';
import { phoneDigestOf as legacyDigestOf } from '../../../../renderer/offline/db/migrations/frozen/listings';
import { runSealingPass } from '../../../../renderer/offline/sealing-pass';
import { SEALED_FIELD, TABLE_SEALS } from '../../../../renderer/offline/db/table-seals';
import { foundIn, phoneSpellings, rawRecords, rawText } from '../../../support/raw-records';
import { linesOf, parseSearchLine } from '../../../../renderer/offline/search/search-chunks';
import { restoreDatabase, type DatabaseSnapshot } from '../../../support/idb-snapshot';
import { allCustomers, allListings } from '../../../support/offline-rows';
import { dropDb, withDataKey } from '../support/fixtures';
import { Outbox } from '../../../../renderer/offline/outbox/outbox';
import {
  OFFLINE_REGISTRATION,
  OLD_CUSTOMERS,
  OLD_REWARDS,
  QUEUED_CODE,
  STORED_CUSTOMERS,
} from './old-databases/customers';
import { MADE_BY } from './old-databases/made-by';

const LATEST = 10;
const opened: OfflineDb[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) await dropDb(db);
});

async function openFixture(version: number): Promise<OfflineDb> {
  const path = join(import.meta.dirname, 'old-databases', `v${version}.json`);
  const fixture = JSON.parse(readFileSync(path, 'utf8')) as DatabaseSnapshot;
  expect(fixture.version).toBe(version * 10);
  const name = `old-v${version}-${Math.random().toString(36).slice(2)}`;
  await restoreDatabase(name, fixture);
  const db = withDataKey(openOfflineDb(name));
  opened.push(db);
  await db.open();
  return db;
}

/** The local form a cashier types for a Saudi number (`+966 50 123 4567` → `0501234567`). */
function localPhone(phone: string): string {
  return `0${phone.replace(/\D+/g, '').slice(3)}`;
}

/** Each customer is found by their local phone and by the first word of their name as typed. */
async function expectEveryoneFound(cache: CustomerCache): Promise<void> {
  for (const customer of STORED_CUSTOMERS) {
    expect((await cache.search(localPhone(customer.phone))).customers.map((row) => row.id)).toEqual([customer.id]);
    const word = customer.name.split(' ').find((part) => !/^\d+$/.test(part) && part !== 'Customer')!;
    const found = await cache.search(word, 1, 100);
    expect(found.customers.map((row) => row.id)).toContain(customer.id);
  }
}

test("the fixtures cover every version, today's as the last till before sealing wrote it", () => {
  expect(MADE_BY.map((made) => made.version)).toEqual(Array.from({ length: LATEST }, (_, i) => i + 1));
});

/** A cashier who never searches: the sealing pass runs unhindered. */
const IDLE_RHYTHM = {
  whenSearchesIdle: () => Promise.resolve(),
  expectedSearchIn: () => null,
  nextSearchEnd: () => Promise.resolve(),
  typicalSearchPause: null,
};

/** What the fixtures hold that must never be read in clear from the database's records. */
function personalNeedles(): string[] {
  const customers = STORED_CUSTOMERS.filter((customer) => customer.name.length >= 6);
  return [
    ...customers.map((customer) => customer.name),
    ...STORED_CUSTOMERS.flatMap((customer) => phoneSpellings(customer.phone)),
    ...OLD_REWARDS.map((reward) => reward.code),
    OFFLINE_REGISTRATION.name,
    ...phoneSpellings('+966 50 999 0002'),
  ];
}

for (const { version, commit } of MADE_BY) {
  test(`a database written by version ${version} (${commit}) opens at version ${LATEST} with all it held`, async () => {
    const db = await openFixture(version);
    expect(db.verno).toBe(LATEST);
    const store = (db.backendDB() as IDBDatabase).transaction('customerBlocks').objectStore('customerBlocks');
    expect([...store.indexNames]).toEqual(['ids']);
    expect(store.index('ids')).toMatchObject({ unique: false, multiEntry: true });

    // Every customer as the old till last stored them, their name words as today's folding makes them.
    const rows = await allCustomers(db);
    const fromService = rows.filter((row) => row.localOnly !== true);
    expect(fromService.map((row) => row.customer)).toEqual(STORED_CUSTOMERS);
    expect(rows.map((row) => row.nameWords)).toEqual(rows.map((row) => nameWordsOf(row.customer.name)));
    expect(new Set(rows.map((row) => row.pk)).size).toBe(rows.length);
    const registered = rows.filter((row) => row.localOnly === true);
    expect(registered.map((row) => [row.id, row.customer.name, row.phoneE164])).toEqual([
      ['local-old-till', OFFLINE_REGISTRATION.name, '+966509990002'],
    ]);

    // What the search and the results list read says what the records say, and nothing else.
    const lines = (await db.searchChunks.toArray()).flatMap(linesOf).map(parseSearchLine);
    expect(lines).toEqual(rows.map((row) => ({ pk: row.pk, phoneE164: row.phoneE164, nameWords: row.nameWords })));
    expect(await allListings(db)).toEqual(rows.map(listingOf));
    // Written before sealing: the unkeyed digests of then, until the pass makes them keyed.
    expect(await db.phoneDigests.toArray()).toEqual((await db.searchChunks.toArray()).map(legacyDigestOf));

    const cache = new CustomerCache(db, { defaultCountry: () => 'SA' });
    const first = await cache.getCustomer(OLD_CUSTOMERS[0]!.id);
    expect(first?.rewards.map((row) => row.reward)).toEqual(OLD_REWARDS);

    // What the old till queued is still queued, the reward still marked as waiting for it.
    const items = await new Outbox(db, cache).items();
    expect(items.map((item) => [item.kind, item.state])).toEqual([
      ['redeem', 'pending'],
      ['register', 'pending'],
    ]);
    // Each with an id of its own, the same one the main process's copy will be given (version 10).
    expect(items.every((item) => /^[0-9a-f-]{36}$/.test(item.uid))).toBe(true);
    expect(new Set(items.map((item) => item.uid)).size).toBe(items.length);
    const redemption = items[0]!;
    expect(redemption.kind === 'redeem' && redemption.code).toBe(QUEUED_CODE);
    expect(first?.rewards.find((row) => row.code === QUEUED_CODE)?.pendingOutboxSeq).toBe(redemption.seq);

    // Found while the index loads (the search chunks), then from memory.
    await expectEveryoneFound(cache);
    await cache.loadIndex();
    await expectEveryoneFound(cache);
    expect((await cache.search('فاطمه الزهراء')).customers.map((row) => row.name)).toEqual(['فاطمة الزهراء']);
    expect((await cache.search('مصطفي كمال')).customers.map((row) => row.name)).toEqual(['مصطفى كمال']);
    expect((await cache.search('0509990002')).customers.map((row) => row.id)).toEqual(['local-old-till']);

    // Everything the old till wrote is in clear until the first start's pass seals it.
    expect(foundIn(await rawText(db.name), personalNeedles())).not.toEqual([]);
    const pass = await runSealingPass({ db, rhythm: IDLE_RHYTHM, firstPerTransaction: 7, maxPerTransaction: 7 });
    expect(pass).toMatchObject({ done: true, table: null });
    expect(pass.sealed).toBeGreaterThan(0);
    const raw = await rawRecords(db.name);
    for (const [table, records] of raw) {
      if (TABLE_SEALS[table]) expect(records.every(({ value }) => SEALED_FIELD in (value as object))).toBe(true);
    }
    expect(raw.get('phoneDigests')!.every(({ value }) => (value as { keyed?: true }).keyed === true)).toBe(true);
    expect(raw.get('rewards')!.every(({ key }) => key instanceof ArrayBuffer)).toBe(true);
    expect(foundIn(await rawText(db.name), personalNeedles())).toEqual([]);
    expect(await db.phoneDigests.toArray()).toEqual(
      (await db.searchChunks.toArray()).map((chunk) => phoneDigestOf(db, chunk)),
    );

    // And it still holds all it held: the customers, the rewards, what is queued and its marks.
    expect(await allCustomers(db)).toEqual(rows);
    expect(await allListings(db)).toEqual(rows.map(listingOf));
    const sealedItems = await new Outbox(db, cache).items();
    expect(sealedItems).toEqual(items);
    const sealedFirst = await cache.getCustomer(OLD_CUSTOMERS[0]!.id);
    expect(sealedFirst?.rewards).toEqual(first?.rewards);
    expect(sealedFirst?.rewards.find((row) => row.code === QUEUED_CODE)?.pendingOutboxSeq).toBe(redemption.seq);
    expect((await db.rewards.get(QUEUED_CODE))?.pendingOutboxSeq).toBe(redemption.seq);
    await expectEveryoneFound(new CustomerCache(db, { defaultCountry: () => 'SA' }));

    // A customer stored now gets a pk no old customer had.
    const [added] = await cache.putCustomers([
      { ...OLD_CUSTOMERS[1]!, id: 'new-after-upgrade', phone: '+966 50 999 0001', name: 'After Upgrade' },
    ]);
    expect(added!.pk).toBeGreaterThan(Math.max(...rows.map((row) => row.pk!)));
    expect((await cache.search('0509990001')).customers.map((row) => row.id)).toEqual(['new-after-upgrade']);
  });
}
