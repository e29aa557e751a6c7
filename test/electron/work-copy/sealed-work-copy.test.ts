/**
 * The work copy sealed at rest (electron/work-copy/sealed-lines.ts, work-copy.ts): each line of
 * `work-copy.jsonl` sealed under the data key's subkey with AES-256-GCM, a fresh IV a line and
 * the file named in the associated data; today's plain lines still read, and the file rewritten
 * sealed at start; a copy sealed under a key the till no longer has kept aside, renamed, and a
 * new one started, said in the log and in the `workCopy` answer.
 */
import { hkdfSync } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import type { KeptItem, KeptJournalEntry } from '../../../common/contract';
import { DATA_KEY_FILE, readDataKey } from '../../../electron/storage/data-key';
import { openAppendLog } from '../../../electron/work-copy/append-log';
import { NOT_OPENED } from '../../../electron/work-copy/line-codec';
import { SEALED_PREFIX, sealedLines } from '../../../electron/work-copy/sealed-lines';
import { workCopyCodec } from '../../../electron/work-copy/till-work-copy';
import {
  HeldWork,
  loadLines,
  openWorkCopy,
  SET_ASIDE_MARK,
  WORK_COPY_FILE,
} from '../../../electron/work-copy/work-copy';
import { createCoreFixture, type CoreFixture } from '../../support/app-core-fixture';
import { createCapturedLog } from '../../support/captured-log';
import { createTestCipher } from '../../support/test-cipher';

const fixtures: CoreFixture[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const fixture of fixtures.splice(0)) await fixture.dispose();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function till(): Promise<CoreFixture> {
  const fixture = await createCoreFixture();
  fixtures.push(fixture);
  return fixture;
}

let uids = 0;
const uid = () => `00000000-0000-4000-8000-${String(++uids).padStart(12, '0')}`;

/** What a customer's queued redemption and their journal entry hold: all of it personal. */
const PERSONAL = ['Layla Haddad', '966501234567', '+966 50 123 4567', 'RW-LAYLA001', 'ORD-77821', 'Omar (cashier)'];

function item(): KeptItem {
  return {
    uid: uid(),
    kind: 'redeem',
    state: 'pending',
    queuedAt: '2026-11-28T10:00:00.000Z',
    code: 'RW-LAYLA001',
    phoneE164: '+966501234567',
    customerName: 'Layla Haddad',
    orderReference: 'ORD-77821',
    cashier: 'Omar (cashier)',
  };
}

function entry(): KeptJournalEntry {
  return {
    uid: uid(),
    outboxUid: null,
    kind: 'register',
    outcome: 'registered',
    doneAt: '2026-11-28T10:05:00.000Z',
    customerName: 'Layla Haddad',
    phoneE164: '+966501234567',
  };
}

/** The work copy's own key, derived as the main process derives it from the data key. */
function workCopyKey(dataKey: string): Buffer {
  return Buffer.from(
    hkdfSync('sha256', Buffer.from(dataKey, 'base64'), Buffer.alloc(0), 'loyalty-till work copy v1', 32),
  );
}

async function dataKeyOf(fixture: CoreFixture): Promise<string> {
  const grant = await fixture.call('dataKey');
  if (!grant.ok) throw new Error('no data key');
  return grant.data.key;
}

test('on disk every line is sealed: no name, phone, code, order reference or cashier; read back after a restart', async () => {
  const fixture = await till();
  const waiting = item();
  const done = entry();
  expect(
    await fixture.call('keepWork', {
      changes: [
        { op: 'item', item: waiting },
        { op: 'journal', entry: done },
      ],
    }),
  ).toMatchObject({ ok: true });

  const text = await readFile(join(fixture.userDataDir, WORK_COPY_FILE), 'utf8');
  const lines = text.trim().split('\n');
  expect(lines.length).toBeGreaterThanOrEqual(3);
  expect(lines.every((line) => line.startsWith(SEALED_PREFIX))).toBe(true);
  for (const value of [...PERSONAL, waiting.uid, done.uid, 'redeem', 'pending']) expect(text).not.toContain(value);
  // A fresh IV a line: the same record sealed twice reads differently.
  const codec = sealedLines({ key: () => Buffer.alloc(32, 7), fileName: WORK_COPY_FILE });
  expect(codec.encode(waiting)).not.toBe(codec.encode(waiting));

  await fixture.restart();
  const copy = await fixture.call('workCopy', {});
  expect(copy).toMatchObject({ ok: true, data: { items: [waiting], journal: [done], journalTotal: 1 } });
  expect(copy.ok && copy.data.setAside).toBeUndefined();
});

test('a line opens only under its key and in its file; a line that will not open is told from one that is garbled', () => {
  const key = Buffer.alloc(32, 1);
  const mine = sealedLines({ key: () => key, fileName: WORK_COPY_FILE });
  const line = mine.encode({ hello: 'Layla' });
  expect(mine.decode(line)).toEqual({ hello: 'Layla' });
  expect(sealedLines({ key: () => Buffer.alloc(32, 2), fileName: WORK_COPY_FILE }).decode(line)).toBe(NOT_OPENED);
  expect(sealedLines({ key: () => key, fileName: 'other.jsonl' }).decode(line)).toBe(NOT_OPENED);
  // One flipped character of the sealed text: GCM's tag refuses it.
  const flipped = line.slice(0, -5) + (line.at(-5) === 'A' ? 'B' : 'A') + line.slice(-4);
  expect(mine.decode(flipped)).toBe(NOT_OPENED);
  expect(mine.decode(`${SEALED_PREFIX}short`)).toBeUndefined();
  expect(mine.decode('not a line at all')).toBeUndefined();
  // Plain JSON of the format before the data key reads, and is not the codec's own.
  expect(mine.decode('{"op":"gone","uid":"x"}')).toEqual({ op: 'gone', uid: 'x' });
  expect(mine.writes?.('{"op":"gone","uid":"x"}')).toBe(false);
  expect(mine.writes?.(line)).toBe(true);
});

test('a till upgraded from plain lines keeps its queue, and its copy is rewritten sealed at start', async () => {
  const fixture = await till();
  await fixture.core.dispose();
  const waiting = item();
  const done = entry();
  // Today's format: a header and one JSON line a change.
  const plain = [
    { workCopy: 1, since: '2026-11-27T08:00:00.000Z' },
    { op: 'item', item: waiting },
    { op: 'journal', entry: done },
  ];
  await writeFile(join(fixture.userDataDir, WORK_COPY_FILE), plain.map((line) => `${JSON.stringify(line)}\n`).join(''));

  await fixture.restart();
  const copy = await fixture.call('workCopy', {});
  expect(copy).toMatchObject({
    ok: true,
    data: { items: [waiting], journal: [done], since: '2026-11-27T08:00:00.000Z' },
  });
  const text = await readFile(join(fixture.userDataDir, WORK_COPY_FILE), 'utf8');
  for (const value of PERSONAL) expect(text).not.toContain(value);
  expect(
    text
      .trim()
      .split('\n')
      .every((line) => line.startsWith(SEALED_PREFIX)),
  ).toBe(true);
  expect(fixture.log.text()).toMatch(/earlier, plain format: it is rewritten sealed/);
});

test('a copy sealed under a data key that is lost is kept aside, renamed, and the till starts a new one, saying so', async () => {
  const fixture = await till();
  const oldKey = await dataKeyOf(fixture);
  const waiting = item();
  await fixture.call('keepWork', { changes: [{ op: 'item', item: waiting }] });
  const before = await readFile(join(fixture.userDataDir, WORK_COPY_FILE));

  // The sealed key is gone (its marker says the till made one): the data key is lost.
  await fixture.core.dispose();
  await unlink(join(fixture.userDataDir, DATA_KEY_FILE));
  await fixture.restart();
  const grant = await fixture.call('dataKey');
  expect(grant).toMatchObject({ ok: true, data: { state: 'lost', reason: 'missing' } });

  const copy = await fixture.call('workCopy', {});
  expect(copy).toMatchObject({ ok: true, data: { items: [], journalTotal: 0, setAside: { lines: 2 } } });
  expect(copy.ok && Date.parse(copy.data.setAside!.at)).not.toBeNaN();
  const aside = (await readdir(fixture.userDataDir)).filter((name) =>
    name.startsWith(`${WORK_COPY_FILE}${SET_ASIDE_MARK}`),
  );
  expect(aside).toHaveLength(1);
  // Renamed, not rewritten: the very bytes, which open again should the old key come back.
  expect((await readFile(join(fixture.userDataDir, aside[0]!))).equals(before)).toBe(true);
  expect(fixture.log.text()).toMatch(
    /work copy could not be opened with this till's data key .* kept as work-copy\.jsonl\.unreadable-/,
  );

  const dir = await mkdtemp(join(tmpdir(), 'aside-'));
  dirs.push(dir);
  await writeFile(join(dir, WORK_COPY_FILE), before);
  const reopened = await openWorkCopy({
    file: join(dir, WORK_COPY_FILE),
    log: createCapturedLog(),
    codec: sealedLines({ key: () => workCopyKey(oldKey), fileName: WORK_COPY_FILE }),
  });
  expect(reopened.items()).toEqual([waiting]);
  await reopened.close();

  // The new copy goes on under the new key, and the next start reads it without setting anything aside.
  const next = item();
  await fixture.call('keepWork', { changes: [{ op: 'item', item: next }] });
  await fixture.restart();
  const after = await fixture.call('workCopy', {});
  expect(after).toMatchObject({ ok: true, data: { items: [next] } });
  expect(after.ok && after.data.setAside).toBeUndefined();
});

test('a damaged line among lines that open is left out and counted, and the copy is not set aside', async () => {
  const fixture = await till();
  const kept = item();
  await fixture.call('keepWork', { changes: [{ op: 'item', item: kept }] });
  await fixture.call('keepWork', { changes: [{ op: 'item', item: item() }] });
  await fixture.core.dispose();
  const file = join(fixture.userDataDir, WORK_COPY_FILE);
  const lines = (await readFile(file, 'utf8')).trim().split('\n');
  const last = lines.at(-1)!;
  lines[lines.length - 1] = last.slice(0, -3) + (last.at(-3) === 'x' ? 'y' : 'x') + last.slice(-2);
  await writeFile(file, `${lines.join('\n')}\n`);

  await fixture.restart();
  expect(fixture.core.workCopy.items()).toEqual([kept]);
  expect(fixture.core.workCopy.unreadable()).toBe(1);
  const names = await readdir(fixture.userDataDir);
  expect(names.some((name) => name.includes(SET_ASIDE_MARK) && name.startsWith(WORK_COPY_FILE))).toBe(false);
});

test('another process (the health check) reads the sealed copy with the data key, and writes nothing', async () => {
  const fixture = await till();
  const waiting = item();
  const done = entry();
  await fixture.call('keepWork', {
    changes: [
      { op: 'item', item: waiting },
      { op: 'journal', entry: done },
    ],
  });
  const file = join(fixture.userDataDir, WORK_COPY_FILE);
  const before = await readFile(file);
  const names = (await readdir(fixture.userDataDir)).sort();

  const dataKey = await readDataKey(fixture.userDataDir, createTestCipher());
  expect(dataKey).not.toBeNull();
  const { lines } = await openAppendLog(file).read();
  const held = new HeldWork();
  const loaded = loadLines(lines, workCopyCodec(dataKey!), held);
  expect(held.items()).toEqual([waiting]);
  expect(held.journal()).toEqual([done]);
  expect(loaded).toMatchObject({ unreadable: 0, notOpened: 0, outdated: 0 });
  expect(loaded.since).not.toBeNull();

  // Without the key, or with another's, nothing opens: every line is told as not opened.
  const other = new HeldWork();
  const stranger = loadLines(lines, workCopyCodec({ subkey: () => Buffer.alloc(32, 9) }), other);
  expect(other.items()).toEqual([]);
  expect(stranger.notOpened).toBe(lines.length);
  // A folder with no key gives none, and nothing is made.
  const empty = await mkdtemp(join(tmpdir(), 'no-key-'));
  dirs.push(empty);
  expect(await readDataKey(empty, createTestCipher())).toBeNull();
  expect(await readdir(empty)).toEqual([]);

  // Nothing in the till's folder was written, moved or made.
  expect((await readFile(file)).equals(before)).toBe(true);
  expect((await readdir(fixture.userDataDir)).sort()).toEqual(names);
});
