/**
 * The sealed tables (renderer/offline/db/sealed-tables.ts, table-seals.ts): what the page keeps
 * in IndexedDB is sealed under the till's data key on every write and opened on every read,
 * whichever path; reward codes are keyed digests; nothing is written without the key; a
 * database sealed under another key is emptied, and why is told; records an earlier version
 * wrote in clear are read as they are until the sealing pass seals them, nothing queued lost.
 */
import { Dexie } from 'dexie';
import { afterEach, describe, expect, test } from 'vitest';
import { CustomerCache } from '../../../../renderer/offline/cache/customer-cache';
import { cachedRecord } from '../../../../renderer/offline/customers/prepared-customers';
import { openOfflineDb } from '../../../../renderer/offline/db/open';
import {
  isLegacyRow,
  NoKeyringError,
  sealAhead,
  SealedTwiceError,
  SEALED_TABLES_MIDDLEWARE,
} from '../../../../renderer/offline/db/sealed-tables';
import { SEALED_FIELD, TABLE_SEALS } from '../../../../renderer/offline/db/table-seals';
import { onDataKeyProblem, type DataKeyProblem } from '../../../../renderer/offline/db/key-at-open';
import type { CachedReward, JournalEntry, OfflineDb, RedemptionItem } from '../../../../renderer/offline/db/schema';
import { Outbox, type OutboxSettings } from '../../../../renderer/offline/outbox/outbox';
import { runSealingPass, type SealingProgress } from '../../../../renderer/offline/sealing-pass';
import { legacyPhoneHash } from '../../../../renderer/offline/search/phone-digests';
import { allCustomers, allListings } from '../../../support/offline-rows';
import { foundIn, phoneSpellings, rawRecords, rawText } from '../../../support/raw-records';
import { customer, dataKeyApi, dropDb, freshDb, reward, TEST_DATA_KEY, withDataKey } from '../support/fixtures';

const SETTINGS: OutboxSettings = { allowOfflineRedemption: true, branchId: 'branch-1', defaultCountry: 'SA' };
const LAYLA = customer('c-layla', 'Layla Haddad', '+966 50 123 4567', {
  email: 'layla.haddad@example.com',
  birthday: '1990-04-12',
});
const OMAR = customer('c-omar', 'Omar Khalil', '+966 55 765 4321', { email: 'omar.khalil@example.com' });
const LAYLA_REWARDS = [reward('RW-LAYLA001', 'c-layla'), reward('RW-LAYLA002', 'c-layla')];
const OTHER_KEY = btoa(String.fromCharCode(...new Uint8Array(32).fill(7)));

/** What must never be read in clear from the database's records. */
const PERSONAL = [
  'Layla Haddad',
  'Omar Khalil',
  ...phoneSpellings('+966 50 123 4567'),
  ...phoneSpellings('+966 55 765 4321'),
  'layla.haddad@example.com',
  'omar.khalil@example.com',
  '1990-04-12',
  'CC-c-layla',
  'RW-LAYLA001',
  'RW-LAYLA002',
  'ORDER-7731',
  'Cashier Noor',
];

/** A cashier who never searches: the sealing pass runs unhindered. */
const IDLE = {
  whenSearchesIdle: () => Promise.resolve(),
  expectedSearchIn: () => null,
  nextSearchEnd: () => Promise.resolve(),
  typicalSearchPause: null,
};

const cleanup: OfflineDb[] = [];
afterEach(async () => {
  for (const db of cleanup.splice(0)) await dropDb(db);
});

function track(db: OfflineDb): OfflineDb {
  cleanup.push(db);
  return db;
}

/** A till with Layla and Omar cached, Layla's rewards, one redemption queued offline and a journal entry. */
async function tillWithWork(db: OfflineDb) {
  const cache = new CustomerCache(db, { defaultCountry: () => 'SA' });
  await cache.putCustomers([OMAR]);
  await cache.putCustomerWithRewards({ ...LAYLA, rewards: LAYLA_REWARDS });
  const outbox = new Outbox(db, cache);
  const queued = await outbox.queueRedemption(
    { code: 'RW-LAYLA001', phone: '+966501234567', orderReference: 'ORDER-7731', cashier: 'Cashier Noor' },
    SETTINGS,
  );
  if (!queued.ok) throw new Error('not queued');
  await outbox.journalAnswered({
    kind: 'correct',
    outcome: 'corrected',
    cashier: 'Cashier Noor',
    customerId: 'c-omar',
    customerName: 'Omar Khalil',
    phoneE164: '+966557654321',
    attemptedAt: '2026-11-28T09:00:00.000Z',
  });
  return { cache, outbox, item: queued.item as RedemptionItem };
}

describe('every read path opens what every write sealed', () => {
  test('get, getMany, equality on the key and on an index, toArray, each, filter, last, count, modify, update', async () => {
    const db = track(freshDb());
    const { item } = await tillWithWork(db);
    const [layla] = (await allCustomers(db)).filter((row) => row.id === 'c-layla');
    // What the cache keeps of her (no email, birthday, status or dates: docs/privacy.md).
    expect(layla?.customer).toEqual(cachedRecord(LAYLA));

    // The outbox: every path gives the item as queued.
    expect(await db.outbox.get(item.seq!)).toEqual(item);
    expect(await db.outbox.bulkGet([item.seq!, 999])).toEqual([item, undefined]);
    expect(await db.outbox.where('seq').equals(item.seq!).toArray()).toEqual([item]);
    expect(await db.outbox.where('state').equals('pending').toArray()).toEqual([item]);
    expect(await db.outbox.where('uid').equals(item.uid).first()).toEqual(item);
    const seen: unknown[] = [];
    await db.outbox.each((row) => seen.push(row));
    expect(seen).toEqual([item]);
    expect(await db.outbox.filter((row) => row.kind === 'redeem' && row.code === 'RW-LAYLA001').toArray()).toEqual([
      item,
    ]);
    expect(await db.outbox.toCollection().last()).toEqual(item);
    expect(await db.outbox.orderBy('seq').reverse().first()).toEqual(item);
    expect(await db.outbox.count()).toBe(1);

    // Changed in place, by a function and by an object: read back changed, still sealed.
    await db.outbox
      .where('seq')
      .equals(item.seq!)
      .modify((row) => {
        if (row.kind === 'redeem') row.orderReference = 'ORDER-7731-B';
      });
    await db.outbox.update(item.seq!, { nextAttemptAt: '2026-11-28T10:00:00.000Z' });
    expect(await db.outbox.get(item.seq!)).toEqual({
      ...item,
      orderReference: 'ORDER-7731-B',
      nextAttemptAt: '2026-11-28T10:00:00.000Z',
    });

    // The journal: found by its readable index, opened.
    const [entry] = await db.journal
      .where('outboxUid')
      .equals(item.uid)
      .toArray()
      .then(() => db.journal.toArray());
    expect(entry).toMatchObject({ kind: 'correct', customerName: 'Omar Khalil', phoneE164: '+966557654321' });
    expect(await db.journal.where('doneAt').aboveOrEqual('2000').toArray()).toEqual([entry as JournalEntry]);

    // The customer tables: blocks, search chunks, listings, all as the writers wrote them.
    expect((await db.customerBlocks.where('ids').equals('c-layla').first())?.rows).toHaveLength(2);
    expect((await db.searchChunks.toArray())[0]?.lines).toContain('966501234567 layla haddad');
    expect((await allListings(db)).map((listing) => listing.name)).toEqual(['Omar Khalil', 'Layla Haddad']);
  });

  test('what IndexedDB holds: the readable fields and one sealed value, nothing personal in clear', async () => {
    const db = track(freshDb());
    await tillWithWork(db);
    const raw = await rawRecords(db.name);
    for (const [table, seal] of Object.entries(TABLE_SEALS)) {
      const records = raw.get(table)!;
      expect(records.length).toBeGreaterThan(0);
      for (const { value } of records) {
        const fields = Object.keys(value as object);
        expect(fields).toContain(SEALED_FIELD);
        expect(fields.filter((field) => field !== SEALED_FIELD && !seal.readable.has(field))).toEqual([]);
      }
    }
    expect(raw.get('outbox')![0]!.value).toEqual({
      seq: 1,
      uid: expect.any(String),
      kind: 'redeem',
      state: 'pending',
      queuedAt: expect.any(String),
      firstAttemptAt: null,
      lastAttemptAt: null,
      attempts: 0,
      nextAttemptAt: null,
      failures: 0,
      unanswered: [],
      sealed: expect.any(Uint8Array),
    });
    expect(raw.get('phoneDigests')!.every(({ value }) => (value as { keyed?: true }).keyed === true)).toBe(true);
    expect(foundIn(await rawText(db.name), PERSONAL)).toEqual([]);
  });

  test('a page of the same origin without the key opens the database and reads nothing personal', async () => {
    const db = track(freshDb());
    await tillWithWork(db);
    db.close();
    // Dexie as any page of the origin could open it: the tables as IndexedDB has them, no key.
    const stranger = new Dexie(db.name);
    await stranger.open();
    const everything: unknown[] = [];
    for (const table of stranger.tables) everything.push(...(await table.toArray()));
    stranger.close();
    expect(everything.length).toBeGreaterThan(5);
    const text = JSON.stringify(everything, (_key, value: unknown) =>
      ArrayBuffer.isView(value) ? new TextDecoder().decode(value as Uint8Array) : value,
    );
    expect(foundIn(text, PERSONAL)).toEqual([]);
    // The app's own database object, opened without its key: it refuses rather than read or write.
    const keyless = track(openOfflineDb(db.name));
    await expect(keyless.customerBlocks.toArray()).rejects.toThrow(NoKeyringError);
    await expect(keyless.outbox.toArray()).rejects.toThrow(NoKeyringError);
    await expect(keyless.rewards.get('RW-LAYLA001')).rejects.toThrow(NoKeyringError);
    expect((await keyless.meta.get('keyCheck'))?.value).toMatchObject({ check: expect.any(String) });
  });
});

describe('reward codes are keyed digests', () => {
  test('the key IndexedDB holds is 16 bytes of digest, never the code; every way of asking by code still finds it', async () => {
    const db = track(freshDb());
    const { item } = await tillWithWork(db);
    const keys = (await rawRecords(db.name)).get('rewards')!.map(({ key }) => key);
    expect(keys).toHaveLength(2);
    for (const key of keys) {
      expect(key).toBeInstanceOf(ArrayBuffer);
      expect((key as ArrayBuffer).byteLength).toBe(16);
    }

    const held = (await db.rewards.get('RW-LAYLA001'))!;
    expect(held).toMatchObject({ code: 'RW-LAYLA001', customerId: 'c-layla', pendingOutboxSeq: item.seq });
    expect((await db.rewards.bulkGet(['RW-LAYLA002', 'RW-NOPE'])).map((row) => row?.code)).toEqual([
      'RW-LAYLA002',
      undefined,
    ]);
    expect(await db.rewards.where('code').equals('RW-LAYLA001').toArray()).toEqual([held]);
    expect(await db.rewards.where('code').equals('RW-LAYLA001').count()).toBe(1);
    expect((await db.rewards.where('customerId').equals('c-layla').toArray()).map((row) => row.code).sort()).toEqual([
      'RW-LAYLA001',
      'RW-LAYLA002',
    ]);
    await db.rewards
      .where('code')
      .equals('RW-LAYLA001')
      .modify((row) => {
        delete row.pendingOutboxSeq;
      });
    await db.rewards.update('RW-LAYLA002', { noLongerListed: true });
    expect((await db.rewards.get('RW-LAYLA001'))?.pendingOutboxSeq).toBeUndefined();
    expect((await db.rewards.get('RW-LAYLA002'))?.noLongerListed).toBe(true);

    // Put and add give back the code, and leave it on the caller's object.
    const row: CachedReward = {
      code: 'RW-NEW0001',
      customerId: 'c-omar',
      phoneE164: '+966557654321',
      reward: reward('RW-NEW0001', 'c-omar'),
      fetchedAt: '2026-11-28T09:00:00.000Z',
    };
    expect(await db.rewards.put(row)).toBe('RW-NEW0001');
    expect(row.code).toBe('RW-NEW0001');
    await db.rewards.delete('RW-NEW0001');
    expect(await db.rewards.get('RW-NEW0001')).toBeUndefined();
    await db.rewards.where('code').equals('RW-LAYLA002').delete();
    expect(await db.rewards.count()).toBe(1);
  });
});

describe('records sealed before their transaction opens (sealAhead)', () => {
  test('are written as sealed and read back whole; one sealed twice, or by another database, is refused', async () => {
    const db = track(freshDb());
    await db.open();
    const block = { block: 0, pks: [1], ids: ['c-layla'], rows: [JSON.stringify(LAYLA)] };
    const [ahead] = (await sealAhead(db, 'customerBlocks', [block]))!;
    expect(Object.keys(ahead!).sort()).toEqual(['block', 'ids', 'pks', SEALED_FIELD].sort());
    await db.customerBlocks.put(ahead!);
    expect(await db.customerBlocks.get(0)).toEqual(block);
    expect(foundIn(await rawText(db.name), PERSONAL)).toEqual([]);
    // A copy of a stored form is not one this database sealed ahead: never sealed a second time.
    await expect(db.customerBlocks.put({ ...ahead! })).rejects.toThrow(SealedTwiceError);
    const other = track(freshDb());
    await other.open();
    await expect(other.customerBlocks.put(ahead!)).rejects.toThrow(SealedTwiceError);
    // A reward's key is its code's digest, made as it is written: not sealed ahead.
    await expect(sealAhead(db, 'rewards', [LAYLA_REWARDS[0]!])).rejects.toThrow(/not sealed ahead/);
    // Inside a transaction an await of Web Crypto would end it: nothing is sealed ahead there.
    await db.transaction('r', db.meta, async () => {
      expect(await sealAhead(db, 'customerBlocks', [block])).toBeNull();
    });
  });
});

describe('the key', () => {
  test('nothing is written to a sealed table without it: the write is refused, never written plain', async () => {
    const db = track(openOfflineDb(`keyless-${Math.random()}`));
    await db.open();
    await expect(
      db.customerBlocks.put({ block: 0, pks: [1], ids: ['c-layla'], rows: [JSON.stringify(LAYLA)] }),
    ).rejects.toThrow(NoKeyringError);
    await expect(db.rewards.put({ code: 'RW-LAYLA001' } as CachedReward)).rejects.toThrow(NoKeyringError);
    await expect(db.journal.add({ customerName: 'Layla Haddad' } as JournalEntry)).rejects.toThrow(NoKeyringError);
    const raw = await rawRecords(db.name);
    expect([...raw.values()].every((records) => records.length === 0)).toBe(true);
    // What holds nothing personal is written as before.
    await db.meta.put({ key: 'nextCustomerPk', value: 5 });
  });

  test('a database sealed under another key is emptied before anything reads it, and why is told', async () => {
    const name = `rekeyed-${Math.random()}`;
    const before = withDataKey(openOfflineDb(name));
    await tillWithWork(before);
    before.close();

    const problems: DataKeyProblem[] = [];
    const after = track(withDataKey(openOfflineDb(name), dataKeyApi(OTHER_KEY)));
    onDataKeyProblem(after, (problem) => problems.push(problem));
    expect(await after.outbox.toArray()).toEqual([]);
    expect(await after.customerBlocks.count()).toBe(0);
    expect(await after.rewards.count()).toBe(0);
    expect(problems).toEqual([{ reason: 'other_key', cleared: true, at: expect.any(String) }]);
    // Written under the new key from now on, and the next opening finds it so.
    await new CustomerCache(after, { defaultCountry: () => 'SA' }).putCustomers([OMAR]);
    after.close();
    const again = track(withDataKey(openOfflineDb(name), dataKeyApi(OTHER_KEY)));
    const quiet: DataKeyProblem[] = [];
    onDataKeyProblem(again, (problem) => quiet.push(problem));
    expect((await allCustomers(again)).map((row) => row.id)).toEqual(['c-omar']);
    expect(quiet).toEqual([]);
  });

  test('a key the main process lost: told with its reason, the database emptied when it held anything sealed', async () => {
    const name = `lost-${Math.random()}`;
    const before = withDataKey(openOfflineDb(name));
    await tillWithWork(before);
    before.close();
    const after = track(withDataKey(openOfflineDb(name), dataKeyApi(OTHER_KEY, 'lost')));
    const problems: DataKeyProblem[] = [];
    onDataKeyProblem(after, (problem) => problems.push(problem));
    expect(await after.outbox.count()).toBe(0);
    expect(problems).toEqual([{ reason: 'key_lost', lost: 'unreadable', cleared: true, at: expect.any(String) }]);

    // A new database whose key came lost: nothing to empty, and still told (once).
    const blank = track(withDataKey(openOfflineDb(`lost-blank-${Math.random()}`), dataKeyApi(OTHER_KEY, 'lost')));
    const told: DataKeyProblem[] = [];
    await blank.open();
    onDataKeyProblem(blank, (problem) => told.push(problem));
    expect(told).toEqual([{ reason: 'key_lost', lost: 'unreadable', cleared: false, at: expect.any(String) }]);
  });

  test('the same key at the next start opens everything (a restart)', async () => {
    const name = `restart-${Math.random()}`;
    const before = withDataKey(openOfflineDb(name));
    const { item } = await tillWithWork(before);
    before.close();
    const after = track(withDataKey(openOfflineDb(name), dataKeyApi(TEST_DATA_KEY)));
    expect(await after.outbox.toArray()).toEqual([item]);
    expect((await after.rewards.get('RW-LAYLA001'))?.pendingOutboxSeq).toBe(item.seq);
  });
});

/**
 * A database as the till before sealing wrote it: the same code with the sealing middleware
 * left out, and the phone digests unkeyed, as they were.
 */
async function legacyTill(name: string) {
  const db = openOfflineDb(name);
  db.unuse({ stack: 'dbcore', name: SEALED_TABLES_MIDDLEWARE });
  withDataKey(db);
  const made = await tillWithWork(db);
  const cache = new CustomerCache(db, { defaultCountry: () => 'SA' });
  await cache.putCustomers(
    Array.from({ length: 70 }, (_, i) => customer(`c-${i}`, `Person ${i}`, `+966 56 ${1_000_000 + i}`)),
  );
  for (const digest of await db.phoneDigests.toArray()) {
    const chunk = (await db.searchChunks.get(digest.chunk))!;
    const hashes = Uint32Array.from(chunk.lines.split('\n'), (line) => legacyPhoneHash(line.split(' ')[1]!));
    await db.phoneDigests.put({ chunk: digest.chunk, hashes });
  }
  await db.meta.delete('sealingPass');
  await db.meta.delete('keyCheck');
  db.close();
  return made;
}

describe('a till upgraded from before sealing', () => {
  test('its records are read as they are, then sealed by the pass, resumably, nothing queued lost', async () => {
    const name = `legacy-${Math.random()}`;
    const { item } = await legacyTill(name);
    expect(foundIn(await rawText(name), PERSONAL)).toContain('Layla Haddad');

    const db = track(withDataKey(openOfflineDb(name)));
    const cache = new CustomerCache(db, { defaultCountry: () => 'SA' });
    const outbox = new Outbox(db, cache);
    // Read as they are: the legacy records, the reward under its plain code, a phone by its unkeyed digest.
    const customers = await allCustomers(db);
    expect(customers).toHaveLength(72);
    expect(isLegacyRow(await db.outbox.get(item.seq!))).toBe(true);
    expect(await outbox.items()).toEqual([item]);
    expect((await db.rewards.get('RW-LAYLA001'))?.pendingOutboxSeq).toBe(item.seq);
    expect((await cache.search('0501234567')).customers.map((row) => row.id)).toEqual(['c-layla']);

    // The pass, stopped after two transactions (a till shut down): it said how far it got.
    const stop = new AbortController();
    const progress: SealingProgress[] = [];
    const first = await runSealingPass({
      db,
      rhythm: IDLE,
      maxPerTransaction: 3,
      firstPerTransaction: 3,
      signal: stop.signal,
      onProgress: (step) => {
        progress.push(step);
        if (progress.length === 2) stop.abort();
      },
    });
    expect(first.done).toBe(false);
    expect((await db.meta.get('sealingPass'))?.value).toMatchObject({ done: false });

    // Meanwhile the cashier works: another redemption is queued (its reward rewritten under its digest).
    const second = await outbox.queueRedemption({ code: 'RW-LAYLA002', phone: '+966501234567' }, SETTINGS);
    if (!second.ok) throw new Error('not queued');

    // The next start goes on from there.
    db.close();
    const reopened = track(withDataKey(openOfflineDb(name)));
    const done = await runSealingPass({ db: reopened, rhythm: IDLE, maxPerTransaction: 5, firstPerTransaction: 5 });
    expect(done).toMatchObject({ done: true, table: null });
    expect((await reopened.meta.get('sealingPass'))?.value).toMatchObject({ done: true });

    // Nothing of it in clear; everything it held, and both redemptions with their rewards' marks.
    expect(foundIn(await rawText(name), PERSONAL)).toEqual([]);
    const raw = await rawRecords(name);
    for (const table of Object.keys(TABLE_SEALS)) {
      expect(raw.get(table)!.every(({ value }) => SEALED_FIELD in (value as object))).toBe(true);
    }
    expect(raw.get('rewards')!.map(({ key }) => key instanceof ArrayBuffer)).toEqual([true, true]);
    expect(raw.get('phoneDigests')!.every(({ value }) => (value as { keyed?: true }).keyed === true)).toBe(true);
    expect(await allCustomers(reopened)).toEqual(customers);
    const reopenedCache = new CustomerCache(reopened, { defaultCountry: () => 'SA' });
    const items = await new Outbox(reopened, reopenedCache).items();
    expect(items).toEqual([item, second.item]);
    expect((await reopened.rewards.get('RW-LAYLA001'))?.pendingOutboxSeq).toBe(item.seq);
    expect((await reopened.rewards.get('RW-LAYLA002'))?.pendingOutboxSeq).toBe(second.item.seq);
    expect((await reopenedCache.search('0501234567')).customers.map((row) => row.id)).toEqual(['c-layla']);
    // A pass asked again finds nothing to do.
    expect(await runSealingPass({ db: reopened, rhythm: IDLE })).toEqual({ sealed: 0, table: null, done: true });
  });
});
