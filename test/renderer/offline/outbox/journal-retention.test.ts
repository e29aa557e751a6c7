/**
 * The journal's personal details after `journalPersonalDays` (renderer/offline/outbox/journal-retention.ts,
 * common/journal-retention.ts), in both copies, over the real main-process core: the page strips
 * its entries at start and daily, the main process's copy takes the stripped versions, and a
 * reconciliation never brings the details back. The shift report, its CSV and the shop's part
 * still count stripped entries, and say their details were removed.
 */
import { Dexie } from 'dexie';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { createTillApi, type TillApi } from '../../../../common/contract';
import { createOfflineServices, type OfflineServices } from '../../../../renderer/offline';
import type { Timers } from '../../../../renderer/offline/connection/connection-monitor';
import { openOfflineDb } from '../../../../renderer/offline/db/open';
import type { JournalEntry, OfflineDb } from '../../../../renderer/offline/db/schema';
import { removeOldDetails } from '../../../../renderer/offline/outbox/journal-retention';
import { buildShiftReport } from '../../../../renderer/offline/shift-report/shift-report';
import { toReportPart } from '../../../../renderer/offline/shift-report/shop-report';
import { journalRow, journalToCsv } from '../../../../renderer/lib/journal-csv';
import { withoutDetails } from '../../../../common/journal-retention';
import { APP_SENDER, createCoreFixture, type CoreFixture } from '../../../support/app-core-fixture';
import { createFakeLocks } from '../support/fixtures';

const DAY = 24 * 60 * 60 * 1000;
const NOW = new Date('2026-11-28T12:00:00.000Z');
const ago = (days: number, from = NOW) => new Date(from.getTime() - days * DAY).toISOString();

function entry(doneAt: string, overrides: Partial<JournalEntry> = {}): JournalEntry {
  return {
    uid: crypto.randomUUID(),
    outboxUid: null,
    outboxSeq: null,
    kind: 'redeem',
    doneAt,
    outcome: 'redeemed',
    code: 'RW-LAYLA001',
    customerId: 'a0000000-0000-4000-8000-000000000001',
    customerName: 'Layla Haddad',
    phoneE164: '+966501234567',
    orderReference: 'ORD-77821',
    branchId: null,
    queuedAt: doneAt,
    firstAttemptAt: doneAt,
    note: null,
    cashier: 'Omar',
    rewardName: 'Free coffee',
    points: 50,
    ...overrides,
  };
}

describe('in both copies', () => {
  let core: CoreFixture;
  let api: TillApi;
  let dbName: string;
  let db: OfflineDb;
  let now: Date;
  const pending: Array<{ run: () => void; ms: number }> = [];
  const timers: Timers = {
    setTimeout(run, ms) {
      const timer = { run, ms };
      pending.push(timer);
      return timer;
    },
    clearTimeout(handle) {
      const at = pending.indexOf(handle as (typeof pending)[number]);
      if (at >= 0) pending.splice(at, 1);
    },
  };
  const opened: OfflineServices[] = [];

  function openTill(days = 90): OfflineServices {
    db = openOfflineDb(dbName);
    const services = createOfflineServices({
      api,
      settings: () => ({
        defaultCountry: 'SA',
        branchId: null,
        allowOfflineRedemption: true,
        journalPersonalDays: days,
      }),
      db,
      locks: createFakeLocks(),
      timers,
      now: () => now,
    });
    opened.push(services);
    return services;
  }

  /** What the main process's copy holds of the journal now. */
  const copyJournal = () => core.core.workCopy.read().journal;

  beforeEach(async () => {
    now = NOW;
    pending.splice(0);
    dbName = `journal-retention-${Date.now()}-${Math.random().toString(36).slice(2)}`;
    core = await createCoreFixture();
    api = createTillApi((channel, payload) => core.core.handlers[channel](APP_SENDER, payload));
  });
  afterEach(async () => {
    for (const services of opened.splice(0)) services.close();
    await Dexie.delete(dbName);
    await core.dispose();
  });

  test('the page strips what is older than the days, and the main process’s copy takes the stripped version', async () => {
    const till = openTill();
    const old = entry(ago(120));
    const recent = entry(ago(10));
    await db.journal.bulkAdd([old, recent]);
    await vi.waitFor(() => expect(copyJournal()).toHaveLength(2));

    expect(await removeOldDetails(db, NOW, 90)).toBe(1);
    const page = await till.journalSince('2000-01-01T00:00:00.000Z');
    expect(page.find((one) => one.uid === old.uid)).toMatchObject({
      customerName: '',
      phoneE164: '',
      code: null,
      customerId: null,
      orderReference: null,
      cashier: null,
      rewardName: 'Free coffee',
      points: 50,
      detailsRemoved: { at: NOW.toISOString(), afterDays: 90 },
    });
    expect(page.find((one) => one.uid === recent.uid)).toMatchObject({ customerName: 'Layla Haddad' });
    await vi.waitFor(() =>
      expect(copyJournal().find((one) => one.uid === old.uid)).toMatchObject({ customerName: '', code: null }),
    );
    expect(JSON.stringify(copyJournal().find((one) => one.uid === old.uid))).not.toMatch(
      /Layla|966501234567|RW-|ORD-|Omar/,
    );
  });

  test('at start and every day after, as entries reach their days', async () => {
    const till = openTill(30);
    await db.journal.bulkAdd([entry(ago(45)), entry(ago(29.5))]);
    till.start();
    await vi.waitFor(async () =>
      expect((await db.journal.toArray()).filter((one) => one.detailsRemoved)).toHaveLength(1),
    );
    // A day later the second is 30.5 days old: the daily look strips it.
    now = new Date(NOW.getTime() + DAY);
    const daily = pending.find((timer) => timer.ms === DAY);
    expect(daily).toBeDefined();
    daily!.run();
    await vi.waitFor(async () =>
      expect((await db.journal.toArray()).filter((one) => one.detailsRemoved)).toHaveLength(2),
    );
    await vi.waitFor(() => expect(copyJournal().filter((one) => one.detailsRemoved)).toHaveLength(2));
    till.stop();
  });

  test('a reconciliation never brings stripped details back', async () => {
    const till = openTill();
    const old = entry(ago(120));
    await db.journal.add(old);
    await vi.waitFor(() => expect(copyJournal()).toHaveLength(1));
    await removeOldDetails(db, NOW, 90);
    await vi.waitFor(() => expect(copyJournal()[0]).toMatchObject({ customerName: '' }));
    // A version with details sent again (a late send, another window) changes nothing in the copy.
    expect(await api.keepWork({ changes: [{ op: 'journal', entry: old as never }] })).toMatchObject({ ok: true });
    expect(copyJournal()[0]).toMatchObject({ customerName: '', detailsRemoved: { afterDays: 90 } });

    // The page's database lost, and opened again: the copy puts back the stripped version.
    till.close();
    await Dexie.delete(dbName);
    const fresh = openTill();
    const back = await fresh.journalSince('2000-01-01T00:00:00.000Z');
    expect(back).toMatchObject([{ uid: old.uid, customerName: '', code: null, detailsRemoved: { afterDays: 90 } }]);
  });
});

describe('the shift report, its CSV and the shop’s part count stripped entries', () => {
  const removed = { at: NOW.toISOString(), afterDays: 90 };
  const journal = [
    withoutDetails(entry(ago(100), { cashier: 'Omar', points: 50 }), removed),
    withoutDetails(entry(ago(99), { rewardName: null, code: 'RW-ONLYCODE1', points: null }), removed),
    withoutDetails(entry(ago(98), { kind: 'register', outcome: 'registered', code: null, rewardName: null }), removed),
    entry(ago(97), { cashier: 'Omar', points: 50 }),
  ];
  const report = buildShiftReport({ since: ago(120), until: NOW.toISOString(), journal, open: [] });

  test('the counts are whole; what they no longer say goes to lines of their own', () => {
    expect(report.redemptions.done).toBe(3);
    expect(report.pointsDeducted).toBe(100);
    expect(report.registrations.done).toBe(1);
    expect(report.detailsRemoved).toEqual({ entries: 3, afterDays: 90 });
    expect(report.byCashier).toEqual([
      {
        cashier: null,
        detailsRemoved: true,
        counts: { done: 2, queued: 0, conflict: 0, failed: 0, refused: 0 },
        points: 50,
        registrations: 1,
        corrections: 0,
      },
      {
        cashier: 'Omar',
        counts: { done: 1, queued: 0, conflict: 0, failed: 0, refused: 0 },
        points: 50,
        registrations: 0,
        corrections: 0,
      },
    ]);
    expect(report.byReward).toEqual([
      { reward: 'Free coffee', counts: { done: 2, queued: 0, conflict: 0, failed: 0, refused: 0 }, points: 100 },
      {
        reward: '',
        detailsRemoved: true,
        counts: { done: 1, queued: 0, conflict: 0, failed: 0, refused: 0 },
        points: 0,
      },
    ]);
  });

  test('the shop’s part carries them as counts, with a name the wire accepts', () => {
    const part = toReportPart(report);
    expect(part.byReward.map((line) => line.reward)).toEqual(['Free coffee', '—']);
    expect(part.byCashier.map((line) => line.cashier)).toEqual([null, 'Omar']);
    expect(part.totals).toMatchObject({ done: 3, points: 100, registrations: 1 });
  });

  test('the CSV has a row for each, worded, and nothing of the customer', () => {
    expect(journalRow(journal[0]!)).toEqual([
      journal[0]!.doneAt,
      '',
      'details removed after 90 days',
      '',
      '',
      'redeemed',
      '',
      '',
      'done',
      'Free coffee',
      '50',
    ]);
    const csv = journalToCsv(journal.slice(0, 3));
    expect(csv.trim().split('\r\n')).toHaveLength(4);
    expect(csv).not.toMatch(/Layla|966501234567|RW-|ORD-|Omar/);
  });
});
