/**
 * The page's side of the main process's copy (renderer/offline/outbox/main-copy.ts): changes
 * go in the order their transactions began, one send at a time, what came meanwhile together;
 * a failed send is tried again with what came after it behind it; `flushed()` waits for all of
 * it; and a redemption the copy could not keep in time is taken back, journalled, and the
 * cashier told no.
 */
import { afterEach, expect, test, vi } from 'vitest';
import type { Result, KeptWork, WorkChange } from '../../../../common/contract';
import { attachKeptWrites } from '../../../../renderer/offline/db/kept-tables';
import type { OfflineDb } from '../../../../renderer/offline/db/schema';
import { CustomerCache } from '../../../../renderer/offline/cache/customer-cache';
import { MainCopy, NotKeptError } from '../../../../renderer/offline/outbox/main-copy';
import { Outbox } from '../../../../renderer/offline/outbox/outbox';
import { defaultTimers } from '../../../../renderer/offline/connection/connection-monitor';
import { customer, dropDb, freshDb, reward } from '../support/fixtures';

const SETTINGS = { allowOfflineRedemption: true, branchId: null, defaultCountry: 'SA' };
const opened: OfflineDb[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) await dropDb(db);
});

/** A main process whose answers the test decides, each call recorded with its changes. */
function scriptedMain() {
  const calls: WorkChange[][] = [];
  let answer: (changes: WorkChange[]) => Promise<Result<KeptWork>> = async (changes) => ({
    ok: true,
    data: { kept: changes.length },
  });
  return {
    calls,
    answerWith(next: typeof answer) {
      answer = next;
    },
    api: {
      keepWork: ({ changes }: { changes: WorkChange[] }) => {
        calls.push(changes);
        return answer(changes);
      },
    },
  };
}

const item = (code: string, attempts = 0) => ({
  uid: `00000000-0000-4000-8000-${code.padStart(12, '0')}`,
  kind: 'redeem',
  state: 'pending',
  queuedAt: '2026-11-28T10:00:00.000Z',
  code,
  attempts,
});

test('changes go in the order begun, held back by one still open; those that commit meanwhile go together', async () => {
  const main = scriptedMain();
  let release: () => void = () => undefined;
  main.answerWith(async (changes) => {
    await new Promise<void>((resolve) => (release = resolve));
    return { ok: true, data: { kept: changes.length } };
  });
  const copy = new MainCopy({ api: main.api, timers: defaultTimers });
  const first = copy.began();
  const second = copy.began();
  const third = copy.began();
  second.add({ table: 'outbox', row: item('2') });
  second.committed();
  // The first is still open: nothing is sent ahead of it.
  expect(main.calls).toHaveLength(0);
  first.add({ table: 'outbox', row: item('1') });
  first.committed();
  await vi.waitFor(() => expect(main.calls).toHaveLength(1));
  expect(main.calls[0]!.map((change) => change.op === 'item' && change.item.code)).toEqual(['1', '2']);
  // While that send is under way, the third commits, and a fourth.
  third.add({ table: 'outbox', row: item('3') });
  third.committed();
  const fourth = copy.began();
  fourth.add({ table: 'outbox', deletedUid: item('1').uid });
  fourth.committed();
  const flushed = copy.flushed();
  release();
  await vi.waitFor(() => expect(main.calls).toHaveLength(2));
  release();
  await flushed;
  expect(main.calls[1]).toEqual([
    { op: 'item', item: item('3') },
    { op: 'gone', uid: item('1').uid },
  ]);
});

test('a failed send is tried again, with what came after it behind it; flushed() waits until it is kept', async () => {
  const main = scriptedMain();
  let failures = 2;
  main.answerWith(async (changes) => {
    if (failures-- > 0) throw new Error('The till app is restarting.');
    return { ok: true, data: { kept: changes.length } };
  });
  const copy = new MainCopy({ api: main.api, timers: defaultTimers, random: () => 0 });
  const first = copy.began();
  first.add({ table: 'outbox', row: item('1') });
  first.committed();
  const second = copy.began();
  second.add({ table: 'outbox', row: item('1', 1) });
  second.committed();
  await copy.flushed();
  // Twice refused, then both versions, the older first, in one send.
  expect(main.calls).toHaveLength(3);
  expect(main.calls[2]!.map((change) => change.op === 'item' && change.item.attempts)).toEqual([0, 1]);
});

test('flushed() gives up after its wait, naming the last problem; a change refused as invalid is passed over', async () => {
  const main = scriptedMain();
  main.answerWith(async () => ({ ok: false, error: { kind: 'server', message: 'The disk is full.' } }));
  const copy = new MainCopy({ api: main.api, timers: defaultTimers });
  const batch = copy.began();
  batch.add({ table: 'outbox', row: item('1') });
  batch.committed();
  await expect(copy.flushed(300)).rejects.toThrow(new NotKeptError('The disk is full.'));

  const refusing = scriptedMain();
  refusing.answerWith(async () => ({ ok: false, error: { kind: 'validation', message: 'Not a record.' } }));
  const strict = new MainCopy({ api: refusing.api, timers: defaultTimers });
  const bad = strict.began();
  bad.add({ table: 'outbox', row: item('1') });
  bad.committed();
  const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  await expect(strict.flushed()).rejects.toThrow('Not a record.');
  expect(errors).toHaveBeenCalled();
  errors.mockRestore();
  // The line moves on: the next change is sent, not held behind the refused one.
  refusing.answerWith(async (changes) => ({ ok: true, data: { kept: changes.length } }));
  const next = strict.began();
  next.add({ table: 'outbox', row: item('2') });
  next.committed();
  await strict.flushed();
  expect(refusing.calls.at(-1)).toEqual([{ op: 'item', item: item('2') }]);
});

test('a redemption the copy could not keep in time is taken back, journalled naming it, and the cashier told no', async () => {
  const db = freshDb();
  opened.push(db);
  const main = scriptedMain();
  main.answerWith(async () => ({ ok: false, error: { kind: 'server', message: 'The disk is full.' } }));
  const copy = new MainCopy({ api: main.api, timers: defaultTimers, flushWaitMs: 300 });
  attachKeptWrites(db, copy);
  const cache = new CustomerCache(db, { defaultCountry: () => 'SA' });
  await cache.putCustomerWithRewards(
    customer('c-layla', 'Layla Haddad', '+966 50 123 4567', { rewards: [reward('RW-LAYLA001', 'c-layla')] }),
    '2026-11-28T09:00:00.000Z',
  );
  const outbox = new Outbox(db, cache, { copy });

  const refused = await outbox.queueRedemption({ code: 'RW-LAYLA001', phone: '0501234567' }, SETTINGS);
  expect(refused).toEqual({ ok: false, reason: 'not_kept', problem: 'The disk is full.' });
  expect(await db.outbox.count()).toBe(0);
  expect((await db.rewards.get('RW-LAYLA001'))?.pendingOutboxSeq).toBeUndefined();
  const [entry] = await db.journal.toArray();
  expect(entry).toMatchObject({ outcome: 'not_kept', code: 'RW-LAYLA001', customerName: 'Layla Haddad' });

  // Once the main process takes changes again, it gets the item, then its leaving, in that order
  // (the sends still under way when it recovers were refused, and are made again).
  const from = main.calls.length;
  main.answerWith(async (changes) => ({ ok: true, data: { kept: changes.length } }));
  // The back-off after a few refusals may be longer than this copy's own wait.
  await copy.flushed(30_000);
  const sent = main.calls.slice(from).flat();
  expect(sent.map((change) => change.op)).toEqual(['item', 'journal', 'gone']);
  expect(sent[1]).toMatchObject({ op: 'journal', entry: { outboxUid: entry!.outboxUid } });
  expect(sent[0]).toMatchObject({ op: 'item', item: { uid: entry!.outboxUid } });

  // And the same redemption queues once the copy keeps it.
  expect(await outbox.queueRedemption({ code: 'RW-LAYLA001', phone: '0501234567' }, SETTINGS)).toMatchObject({
    ok: true,
  });
});
