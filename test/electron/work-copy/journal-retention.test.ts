/**
 * The journal's personal details kept `journalPersonalDays` (common/journal-retention.ts), in
 * the main process's copy: stripped at start and daily, a stripped version from the page
 * replacing the one held (and the file rewritten, so the old version leaves the disk), never a
 * version with details bringing them back. The setting's bounds, and a policy that locks it.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { KeptJournalEntry } from '../../../common/contract';
import { detailsCutoff, withoutDetails } from '../../../common/journal-retention';
import { openWorkCopy, WORK_COPY_FILE, type WorkCopyStore } from '../../../electron/work-copy/work-copy';
import { createCoreFixture, type CoreFixture } from '../../support/app-core-fixture';
import { createCapturedLog } from '../../support/captured-log';

const DAY = 24 * 60 * 60 * 1000;
const NOW = new Date('2026-11-28T12:00:00.000Z');
const ago = (days: number) => new Date(NOW.getTime() - days * DAY).toISOString();

let uids = 0;
function entry(doneAt: string, overrides: Partial<KeptJournalEntry> = {}): KeptJournalEntry {
  return {
    uid: `00000000-0000-4000-8000-${String(++uids).padStart(12, '0')}`,
    outboxUid: null,
    outboxSeq: null,
    kind: 'redeem',
    outcome: 'redeemed',
    doneAt,
    code: 'RW-LAYLA001',
    customerId: 'a0000000-0000-4000-8000-000000000001',
    customerName: 'Layla Haddad',
    phoneE164: '+966501234567',
    orderReference: 'ORD-77821',
    branchId: '7a1e9c40-2f3b-4d5e-8a6b-0c1d2e3f4a5b',
    queuedAt: doneAt,
    firstAttemptAt: doneAt,
    note: { code: 'refused', said: 'Layla Haddad has no such reward' },
    cashier: 'Omar',
    rewardName: 'Free coffee',
    points: 50,
    ...overrides,
  };
}

const PERSONAL = ['RW-LAYLA001', 'Layla Haddad', '966501234567', 'ORD-77821', 'Omar', 'a0000000-0000-4000-8000'];

describe('in the work copy', () => {
  let dir: string;
  let file: string;
  const opened: WorkCopyStore[] = [];
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'till-retention-'));
    file = join(dir, WORK_COPY_FILE);
  });
  afterEach(async () => {
    for (const copy of opened.splice(0)) await copy.close();
    await rm(dir, { recursive: true, force: true });
  });
  // Plain lines, so the test can read what is on disk.
  const openCopy = async () => {
    const copy = await openWorkCopy({ file, log: createCapturedLog(), now: () => NOW });
    opened.push(copy);
    return copy;
  };

  test('entries older than the days keep their counts only, and no earlier version stays on disk', async () => {
    const copy = await openCopy();
    const old = entry(ago(91));
    const recent = entry(ago(89));
    await copy.keep([
      { op: 'journal', entry: old },
      { op: 'journal', entry: recent },
    ]);
    expect(await copy.removeDetails(detailsCutoff(NOW, 90), { at: NOW.toISOString(), afterDays: 90 })).toBe(1);
    const [stripped, kept] = copy.read().journal;
    expect(stripped).toEqual({
      uid: old.uid,
      outboxUid: null,
      outboxSeq: null,
      kind: 'redeem',
      outcome: 'redeemed',
      doneAt: old.doneAt,
      queuedAt: old.queuedAt,
      firstAttemptAt: old.firstAttemptAt,
      branchId: old.branchId,
      rewardName: 'Free coffee',
      points: 50,
      code: null,
      customerId: null,
      customerName: '',
      phoneE164: '',
      orderReference: null,
      cashier: null,
      note: null,
      detailsRemoved: { at: NOW.toISOString(), afterDays: 90 },
    });
    expect(kept).toEqual(recent);
    // The file holds the recent entry's details once, and nothing of the old one's.
    const text = await readFile(file, 'utf8');
    expect(text.split('Layla Haddad').length - 1).toBe(2); // its name, and the service's words quoting it
    expect(text).toContain(old.uid);
    // Again: nothing more to strip, nothing rewritten.
    expect(await copy.removeDetails(detailsCutoff(NOW, 90), { at: NOW.toISOString(), afterDays: 90 })).toBe(0);
  });

  test('the page’s stripped version replaces the one held; a version with details never brings them back', async () => {
    const copy = await openCopy();
    const old = entry(ago(200));
    await copy.keep([{ op: 'journal', entry: old }]);
    const stripped = withoutDetails(old, { at: NOW.toISOString(), afterDays: 90 });
    await copy.keep([{ op: 'journal', entry: stripped }]);
    expect(copy.read().journal).toEqual([stripped]);
    let text = await readFile(file, 'utf8');
    for (const value of PERSONAL) expect(text).not.toContain(value);

    // A late copy, or a reconciliation, of the version with details changes nothing.
    await copy.keep([{ op: 'journal', entry: old }]);
    expect(copy.read().journal).toEqual([stripped]);
    await copy.close();
    opened.splice(0);
    const again = await openCopy();
    expect(again.read().journal).toEqual([stripped]);
    text = await readFile(file, 'utf8');
    for (const value of PERSONAL) expect(text).not.toContain(value);
  });

  test('an entry keeps its place in the journal when its details go', async () => {
    const copy = await openCopy();
    const entries = [entry(ago(300)), entry(ago(5)), entry(ago(200))];
    await copy.keep(entries.map((one) => ({ op: 'journal' as const, entry: one })));
    await copy.removeDetails(detailsCutoff(NOW, 90), { at: NOW.toISOString(), afterDays: 90 });
    expect(copy.read().journal.map((one) => one.uid)).toEqual(entries.map((one) => one.uid));
  });
});

describe('the setting', () => {
  const fixtures: CoreFixture[] = [];
  afterEach(async () => {
    for (const fixture of fixtures.splice(0)) await fixture.dispose();
  });

  test('is 90 days unless set, 1 to 3650 whole days, and the copy follows it at start', async () => {
    const fixture = await createCoreFixture();
    fixtures.push(fixture);
    const state = await fixture.call('getState');
    expect(state.ok && state.data.settings.journalPersonalDays).toBe(90);
    for (const bad of [0, 3651, 1.5, '90', null])
      expect(await fixture.call('updateSettings', { journalPersonalDays: bad })).toMatchObject({
        ok: false,
        error: { kind: 'validation', fields: { journalPersonalDays: expect.stringMatching(/1 to 3650/) } },
      });
    expect(await fixture.call('updateSettings', { journalPersonalDays: 3650 })).toMatchObject({ ok: true });

    const fresh = entry(new Date(Date.now() - 5 * DAY).toISOString());
    const older = entry(new Date(Date.now() - 40 * DAY).toISOString());
    await fixture.call('keepWork', {
      changes: [
        { op: 'journal', entry: fresh },
        { op: 'journal', entry: older },
      ],
    });
    expect(await fixture.call('updateSettings', { journalPersonalDays: 30 })).toMatchObject({ ok: true });
    // The next start (as the next day's look) strips what is older than 30 days.
    await fixture.restart();
    const copy = await fixture.call('workCopy', {});
    expect(copy.ok && copy.data.journal).toMatchObject([
      { uid: fresh.uid, customerName: 'Layla Haddad' },
      { uid: older.uid, customerName: '', code: null, detailsRemoved: { afterDays: 30 } },
    ]);
    expect(fixture.log.text()).toMatch(/personal details of 1 journal entry were removed from the work copy/);
  });

  test('an organisation’s policy sets and locks it: a change is refused, and the copy follows the policy’s days', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'till-retention-policy-'));
    const policyFile = join(dir, 'policy.json');
    await writeFile(policyFile, JSON.stringify({ schemaVersion: 1, settings: { journalPersonalDays: 30 } }));
    const fixture = await createCoreFixture({ policyFile });
    fixtures.push(fixture);
    try {
      const state = await fixture.call('getState');
      expect(state.ok && state.data.settings.journalPersonalDays).toBe(30);
      expect(state.ok && state.data.managed.locked).toContain('journalPersonalDays');
      expect(await fixture.call('updateSettings', { journalPersonalDays: 365 })).toMatchObject({
        ok: false,
        error: { kind: 'validation', fields: { journalPersonalDays: expect.any(String) } },
      });
      // Repeating the locked value is no change, and accepted.
      expect(await fixture.call('updateSettings', { journalPersonalDays: 30 })).toMatchObject({ ok: true });

      const older = entry(new Date(Date.now() - 40 * DAY).toISOString());
      await fixture.call('keepWork', { changes: [{ op: 'journal', entry: older }] });
      await fixture.restart();
      const copy = await fixture.call('workCopy', {});
      expect(copy.ok && copy.data.journal).toMatchObject([{ uid: older.uid, detailsRemoved: { afterDays: 30 } }]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
