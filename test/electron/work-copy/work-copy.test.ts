/**
 * The main process's copy of the outbox and the journal (electron/work-copy/): what it keeps
 * survives a restart, is on disk before `keep` (and the bridge's answer) resolves, is private
 * to the till's account, and outlives a torn last line, a line it cannot read and its own
 * history.
 */
import { appendFile, mkdtemp, open, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { KeptItem, KeptJournalEntry } from '../../../common/contract';
import { openWorkCopy, WORK_COPY_FILE, type WorkCopyStore } from '../../../electron/work-copy/work-copy';
import { APP_SENDER, createCoreFixture } from '../../support/app-core-fixture';
import { createCapturedLog } from '../../support/captured-log';

let dir: string;
let file: string;
const opened: WorkCopyStore[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'till-work-copy-'));
  file = join(dir, WORK_COPY_FILE);
});
afterEach(async () => {
  for (const copy of opened.splice(0)) await copy.close();
  vi.restoreAllMocks();
  await rm(dir, { recursive: true, force: true });
});

async function openCopy(): Promise<WorkCopyStore> {
  const copy = await openWorkCopy({ file, log: createCapturedLog() });
  opened.push(copy);
  return copy;
}

let uids = 0;
function uid(): string {
  return `00000000-0000-4000-8000-${String(++uids).padStart(12, '0')}`;
}

function item(overrides: Partial<KeptItem> = {}): KeptItem {
  return {
    uid: uid(),
    kind: 'redeem',
    state: 'pending',
    queuedAt: '2026-11-28T10:00:00.000Z',
    code: 'RW-LAYLA001',
    phoneE164: '+966501234567',
    attempts: 0,
    ...overrides,
  };
}

function entry(overrides: Partial<KeptJournalEntry> = {}): KeptJournalEntry {
  return {
    uid: uid(),
    outboxUid: null,
    kind: 'redeem',
    outcome: 'redeemed',
    doneAt: '2026-11-28T10:05:00.000Z',
    ...overrides,
  };
}

test('what it keeps is read back by the next start: items by their last version, the journal in order', async () => {
  const first = await openCopy();
  const waiting = item();
  const other = item({ code: 'RW-OMAR001' });
  await first.keep([{ op: 'item', item: waiting }]);
  await first.keep([
    { op: 'item', item: { ...waiting, attempts: 1 } },
    { op: 'item', item: other },
    { op: 'journal', entry: entry({ outcome: 'registered', kind: 'register' }) },
  ]);
  await first.close();
  opened.splice(0);

  const again = await openCopy();
  const copy = again.read();
  expect(copy.items).toEqual([{ ...waiting, attempts: 1 }, other]);
  expect(copy.journal.map((row) => row.outcome)).toEqual(['registered']);
  expect(copy.journalTotal).toBe(1);
  expect(copy.since).toMatch(/^\d{4}-\d\d-\d\dT/);
  expect((await stat(file)).mode & 0o777).toBe(0o600);
});

test('an item leaves with the journal entry that names it, or when it is gone, and a late copy does not bring it back', async () => {
  const copy = await openCopy();
  const redeemed = item();
  const withdrawn = item({ code: 'RW-TAKEN' });
  await copy.keep([
    { op: 'item', item: redeemed },
    { op: 'item', item: withdrawn },
  ]);
  await copy.keep([{ op: 'journal', entry: entry({ outboxUid: redeemed.uid }) }]);
  await copy.keep([{ op: 'gone', uid: withdrawn.uid }]);
  // An answer overtaken by the item's leaving: it stays gone.
  await copy.keep([{ op: 'item', item: { ...redeemed, attempts: 2 } }]);
  await copy.keep([{ op: 'item', item: { ...withdrawn, attempts: 2 } }]);
  expect(copy.items()).toEqual([]);
  await copy.close();
  opened.splice(0);
  expect((await openCopy()).items()).toEqual([]);
});

test('keep resolves only after the file handle was flushed to disk', async () => {
  const copy = await openCopy();
  // The first keep makes the file (and flushes its folder too); the next is one append.
  await copy.keep([{ op: 'item', item: item() }]);
  // The append goes through a FileHandle: its sync is what puts the bytes on disk.
  const probe = await open(join(dir, 'probe'), 'w');
  const handleClass = Object.getPrototypeOf(probe) as { sync(): Promise<void> };
  await probe.close();
  const order: string[] = [];
  const realSync = handleClass.sync;
  vi.spyOn(handleClass, 'sync').mockImplementation(async function (this: unknown) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    await realSync.call(this);
    order.push('flushed');
  });
  await copy.keep([{ op: 'item', item: item({ code: 'RW-SECOND' }) }]);
  order.push('answered');
  expect(order).toEqual(['flushed', 'answered']);
  expect(await readFile(file, 'utf8')).toContain('RW-SECOND');
});

test('changes kept together wait for one flush, not one each', async () => {
  const copy = await openCopy();
  await copy.keep([{ op: 'item', item: item() }]);
  const probe = await open(join(dir, 'probe'), 'w');
  const handleClass = Object.getPrototypeOf(probe) as { sync(): Promise<void> };
  await probe.close();
  const sync = vi.spyOn(handleClass, 'sync');
  await Promise.all(Array.from({ length: 20 }, () => copy.keep([{ op: 'item', item: item() }])));
  // The first write takes one change; the nineteen that came meanwhile go in the next.
  expect(sync.mock.calls.length).toBeLessThanOrEqual(2);
  expect(copy.items()).toHaveLength(21);
});

test('a last line a power cut tore is left out, and the file is whole again before anything is added', async () => {
  const copy = await openCopy();
  const kept = item();
  await copy.keep([{ op: 'item', item: kept }]);
  await copy.close();
  opened.splice(0);
  await appendFile(file, '{"op":"item","item":{"uid":"00000000-0000-4000-8000-0000000');

  const again = await openCopy();
  expect(again.items()).toEqual([kept]);
  const next = item({ code: 'RW-NEXT' });
  await again.keep([{ op: 'item', item: next }]);
  await again.close();
  opened.splice(0);
  expect((await openCopy()).items()).toEqual([kept, next]);
  expect((await readFile(file, 'utf8')).endsWith('\n')).toBe(true);
});

test('a line it cannot read is counted and left out, never the rest of the file', async () => {
  const copy = await openCopy();
  const kept = item();
  await copy.keep([{ op: 'item', item: kept }]);
  await copy.close();
  opened.splice(0);
  await appendFile(file, 'not json at all\n{"op":"item","item":{"uid":7}}\n');
  const again = await openCopy();
  expect(again.items()).toEqual([kept]);
  expect(again.unreadable()).toBe(2);
});

test('a file grown past twice what it holds is rewritten to what it holds', async () => {
  const copy = await openCopy();
  const one = item();
  for (let attempt = 0; attempt < 200; attempt++) {
    await copy.keep([{ op: 'item', item: { ...one, attempts: attempt } }]);
  }
  const lines = (await readFile(file, 'utf8')).trim().split('\n');
  expect(lines.length).toBeLessThan(80);
  await copy.close();
  opened.splice(0);
  expect((await openCopy()).items()).toEqual([{ ...one, attempts: 199 }]);
});

test('an empty file, or one without a header, opens', async () => {
  await writeFile(file, '');
  expect((await openCopy()).items()).toEqual([]);
  await rm(file);
  const kept = item();
  await writeFile(file, `${JSON.stringify({ op: 'item', item: kept })}\n`);
  const copy = await openCopy();
  expect(copy.items()).toEqual([kept]);
  expect(copy.read().since).not.toBeNull();
});

describe('over the bridge', () => {
  test('keepWork and workCopy: the page hands over, reads back in pages; bad records are refused whole', async () => {
    const fixture = await createCoreFixture();
    try {
      const waiting = item();
      const entries = Array.from({ length: 5 }, (_, i) => entry({ doneAt: `2026-11-28T10:0${i}:00.000Z` }));
      expect(
        await fixture.call('keepWork', {
          changes: [{ op: 'item', item: waiting }, ...entries.map((e) => ({ op: 'journal' as const, entry: e }))],
        }),
      ).toEqual({ ok: true, data: { kept: 6 } });
      const page = await fixture.call('workCopy', { journalFrom: 2, journalLimit: 2 });
      expect(page).toMatchObject({ ok: true, data: { items: [waiting], journalTotal: 5 } });
      expect(page.ok && page.data.journal.map((e) => e.uid)).toEqual([entries[2]!.uid, entries[3]!.uid]);

      for (const bad of [
        { changes: [] },
        { changes: [{ op: 'item', item: { ...item(), uid: 'not-a-uuid' } }] },
        { changes: [{ op: 'item', item: { ...item(), state: 'done' } }] },
        { changes: [{ op: 'item', item: { ...item(), blob: 'x'.repeat(40_000) } }] },
        { changes: [{ op: 'journal', entry: { ...entry(), outboxUid: 3 } }] },
        { changes: [{ op: 'erase', uid: uid() }] },
        { changes: [{ op: 'gone', uid: uid() }], extra: true },
      ]) {
        expect(await fixture.call('keepWork', bad)).toMatchObject({ ok: false, error: { kind: 'validation' } });
      }
      // Nothing of a refused call was kept.
      expect(fixture.core.workCopy.items()).toEqual([waiting]);

      // A restart reads it back.
      await fixture.restart();
      expect(fixture.core.workCopy.items()).toEqual([waiting]);
      // Sealed on disk (sealed-work-copy.test.ts): the item's id is not there to read.
      const onDisk = await readFile(join(fixture.userDataDir, WORK_COPY_FILE), 'utf8');
      expect(onDisk).toMatch(/^sealed1:/);
      expect(onDisk).not.toContain(waiting.uid);
    } finally {
      await fixture.dispose();
    }
  });

  test("the customer display's page cannot read the copy", async () => {
    const fixture = await createCoreFixture();
    try {
      await fixture.call('keepWork', { changes: [{ op: 'item', item: item() }] });
      const display = await fixture.core.handlers['till:work:copy']({ url: 'https://evil.example/' }, {});
      expect(display).toMatchObject({ ok: false, error: { kind: 'unauthorized' } });
      expect(await fixture.core.handlers['till:work:copy'](APP_SENDER, {})).toMatchObject({ ok: true });
    } finally {
      await fixture.dispose();
    }
  });
});
