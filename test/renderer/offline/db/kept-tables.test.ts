/**
 * The outbox and the journal kept to the promise's standard (renderer/offline/db/kept-tables.ts):
 * their write transactions ask IndexedDB for strict durability, as every write of the till's
 * database does (db/open.ts), and whatever the database asks of the rest; every
 * row they commit, by whatever writer, reaches the receiver in the order the transactions
 * began, with an id of its own; a transaction that aborts hands over nothing.
 */
import { afterEach, expect, test, vi } from 'vitest';
import { Dexie } from 'dexie';
import { attachKeptWrites, keepTables, type KeptRowChange } from '../../../../renderer/offline/db/kept-tables';
import type { OfflineDb } from '../../../../renderer/offline/db/schema';
import { CustomerCache } from '../../../../renderer/offline/cache/customer-cache';
import { Outbox } from '../../../../renderer/offline/outbox/outbox';
import { customer, dropDb, freshDb, reward } from '../support/fixtures';

const SETTINGS = { allowOfflineRedemption: true, branchId: null, defaultCountry: 'SA' };
const opened: OfflineDb[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const db of opened.splice(0)) await dropDb(db);
});

/** A database whose kept tables' batches are recorded: their changes, and how each ended. */
function recordedDb() {
  const db = freshDb();
  opened.push(db);
  const batches: Array<{ changes: KeptRowChange[]; ended: 'open' | 'committed' | 'aborted' }> = [];
  attachKeptWrites(db, {
    began() {
      const batch = { changes: [] as KeptRowChange[], ended: 'open' as 'open' | 'committed' | 'aborted' };
      batches.push(batch);
      return {
        add: (change) => batch.changes.push(change),
        committed: () => (batch.ended = 'committed'),
        aborted: () => (batch.ended = 'aborted'),
      };
    },
  });
  return { db, batches };
}

async function withLaylasReward(db: OfflineDb): Promise<{ cache: CustomerCache; outbox: Outbox }> {
  const cache = new CustomerCache(db, { defaultCountry: () => 'SA' });
  await cache.putCustomerWithRewards(
    customer('c-layla', 'Layla Haddad', '+966 50 123 4567', { rewards: [reward('RW-LAYLA001', 'c-layla')] }),
    '2026-11-28T09:00:00.000Z',
  );
  return { cache, outbox: new Outbox(db, cache) };
}

/** Every transaction IndexedDB is asked for from now on: its stores, its mode and its durability. */
function askedTransactions(): Array<{ stores: string[]; mode: string | undefined; durability: string | undefined }> {
  const asked: Array<{ stores: string[]; mode: string | undefined; durability: string | undefined }> = [];
  const transaction = IDBDatabase.prototype.transaction;
  vi.spyOn(IDBDatabase.prototype, 'transaction').mockImplementation(function (
    this: IDBDatabase,
    stores: string | Iterable<string>,
    mode?: IDBTransactionMode,
    options?: IDBTransactionOptions,
  ) {
    asked.push({
      stores: typeof stores === 'string' ? [stores] : [...stores].sort(),
      mode,
      durability: options?.durability,
    });
    return transaction.call(this, stores, mode, options);
  });
  return asked;
}

test("every write transaction asks for strict durability, the cache's too (db/open.ts says why)", async () => {
  const { db } = recordedDb();
  const asked = askedTransactions();
  await withLaylasReward(db);
  const fill = asked.filter((call) => call.stores.includes('customerBlocks') && call.mode === 'readwrite');
  expect(fill.length).toBeGreaterThan(0);
  expect(asked.filter((call) => call.mode === 'readwrite').every((call) => call.durability === 'strict')).toBe(true);
  // Reads are not made to wait for a flush.
  expect(asked.filter((call) => call.mode !== 'readwrite').every((call) => call.durability !== 'strict')).toBe(true);
});

test("the outbox's and the journal's write transactions are strict whatever the database asks of the rest", async () => {
  // The kept tables' middleware alone, on a database whose other writes are relaxed.
  const db = new Dexie(`kept-alone-${crypto.randomUUID()}`, { chromeTransactionDurability: 'relaxed' });
  keepTables(db);
  db.version(1).stores({ outbox: '++seq, uid', journal: '++seq, uid', customerBlocks: 'block' });
  try {
    const asked = askedTransactions();
    await db.table('customerBlocks').put({ block: 1 });
    await db.table('outbox').add({ kind: 'redeem' });
    await db.transaction('rw', ['journal', 'customerBlocks'], () => db.table('journal').add({ kind: 'correct' }));
    const writes = asked.filter((call) => call.mode === 'readwrite');
    expect(writes.map((call) => [call.stores.join('+'), call.durability])).toEqual([
      ['customerBlocks', 'relaxed'],
      ['outbox', 'strict'],
      ['customerBlocks+journal', 'strict'],
    ]);
  } finally {
    db.close();
    await Dexie.delete(db.name);
  }
});

test("the outbox's and the journal's write transactions ask for strict durability", async () => {
  const { db } = recordedDb();
  const asked = askedTransactions();
  const { outbox } = await withLaylasReward(db);
  asked.length = 0;
  const queued = await outbox.queueRedemption({ code: 'RW-LAYLA001', phone: '0501234567' }, SETTINGS);
  expect(queued.ok).toBe(true);
  await outbox.journalAnswered({
    kind: 'correct',
    outcome: 'corrected',
    cashier: null,
    customerId: 'c-layla',
    customerName: 'Layla Haddad',
    phoneE164: '+966501234567',
    attemptedAt: '2026-11-28T10:00:00.000Z',
  });
  const kept = asked.filter(
    (call) => call.mode === 'readwrite' && (call.stores.includes('outbox') || call.stores.includes('journal')),
  );
  // The queueing (outbox with the reward's mark) and the journal's entry.
  expect(kept.length).toBeGreaterThanOrEqual(2);
  expect(kept.every((call) => call.durability === 'strict')).toBe(true);
});

test('every row committed reaches the receiver with an id, in the order the transactions began; an abort hands over nothing', async () => {
  const { db, batches } = recordedDb();
  const { outbox } = await withLaylasReward(db);
  const queued = await outbox.queueRedemption({ code: 'RW-LAYLA001', phone: '0501234567' }, SETTINGS);
  if (!queued.ok) throw new Error('not queued');
  // A writer that forgets the id still writes a row the copy can name.
  await db.journal.add({ outcome: 'corrected', kind: 'correct', doneAt: '2026-11-28T10:00:00.000Z' } as never);
  await db
    .transaction('rw', [db.outbox], async () => {
      await db.outbox.update(queued.item.seq!, { attempts: 7 });
      throw new Error('rolled back');
    })
    .catch(() => undefined);
  await outbox.acknowledge(queued.item.seq!).catch(() => undefined);
  await db.outbox.delete(queued.item.seq!);

  const kept = batches.filter((batch) => batch.changes.length > 0);
  expect(kept.map((batch) => batch.ended)).toEqual(['committed', 'committed', 'aborted', 'committed']);
  const [queuedBatch, journalBatch, aborted, deleted] = kept;
  expect(queuedBatch!.changes).toEqual([{ table: 'outbox', row: expect.objectContaining({ uid: queued.item.uid }) }]);
  const [journalRow] = journalBatch!.changes;
  expect(journalRow).toEqual({
    table: 'journal',
    row: expect.objectContaining({ uid: expect.stringMatching(/^[0-9a-f-]{36}$/), outboxUid: null }),
  });
  expect(aborted!.changes).toEqual([{ table: 'outbox', row: expect.objectContaining({ attempts: 7 }) }]);
  expect(deleted!.changes).toEqual([{ table: 'outbox', deletedUid: queued.item.uid }]);
});

test('an item that leaves the outbox for the journal is named by its entry, in the same transaction', async () => {
  const { db, batches } = recordedDb();
  const { outbox } = await withLaylasReward(db);
  const queued = await outbox.queueRedemption({ code: 'RW-LAYLA001', phone: '0501234567' }, SETTINGS);
  if (!queued.ok) throw new Error('not queued');
  await db.outbox.update(queued.item.seq!, { state: 'failed' });
  batches.length = 0;
  expect(await outbox.acknowledge(queued.item.seq!)).toBe(true);
  const [left] = batches.filter((batch) => batch.changes.length > 0);
  expect(left!.changes).toEqual([
    { table: 'journal', row: expect.objectContaining({ outboxUid: queued.item.uid, outcome: 'failure_acknowledged' }) },
    { table: 'outbox', deletedUid: queued.item.uid },
  ]);
});
