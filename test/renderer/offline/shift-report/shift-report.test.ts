import { describe, expect, test } from 'vitest';
import { buildShiftReport } from '../../../../renderer/offline/shift-report/shift-report';
import type { JournalEntry, OutboxItem, RedemptionItem } from '../../../../renderer/offline/db/schema';

const SINCE = '2026-03-01T06:00:00.000Z';

function entry(overrides: Partial<JournalEntry>): JournalEntry {
  return {
    uid: crypto.randomUUID(),
    outboxUid: null,
    outboxSeq: null,
    kind: 'redeem',
    doneAt: '2026-03-01T09:00:00.000Z',
    outcome: 'redeemed',
    code: 'RW-A',
    customerId: 'c-1',
    customerName: 'Layla',
    phoneE164: '+966501234567',
    orderReference: null,
    branchId: null,
    queuedAt: '2026-03-01T09:00:00.000Z',
    firstAttemptAt: null,
    note: null,
    ...overrides,
  };
}

function item(overrides: Partial<RedemptionItem>): OutboxItem {
  return {
    uid: crypto.randomUUID(),
    kind: 'redeem',
    state: 'pending',
    queuedAt: '2026-02-28T20:00:00.000Z',
    firstAttemptAt: null,
    lastAttemptAt: null,
    attempts: 0,
    nextAttemptAt: null,
    lastError: null,
    note: null,
    code: 'RW-Q',
    phoneE164: '+966501234567',
    branchId: null,
    orderReference: null,
    customerId: 'c-1',
    customerName: 'Layla',
    serviceReward: null,
    ...overrides,
  };
}

describe('the end-of-shift report', () => {
  const report = buildShiftReport({
    since: SINCE,
    until: '2026-03-01T18:00:00.000Z',
    journal: [
      // Before the shift: not counted.
      entry({ doneAt: '2026-03-01T05:59:59.000Z', cashier: 'Omar', rewardName: 'Cake', points: 500 }),
      entry({ cashier: 'Sara (12)', rewardName: 'Coffee', points: 50 }),
      entry({ cashier: 'Sara (12)', rewardName: 'Coffee', points: 50, outcome: 'redeemed_answer_lost' }),
      entry({ cashier: 'Omar', rewardName: null, code: 'RW-X', points: null }),
      entry({ cashier: 'Omar', rewardName: 'Coffee', outcome: 'conflict_acknowledged', points: 50 }),
      entry({ cashier: null, rewardName: 'Cake', outcome: 'failure_acknowledged' }),
      // Refused here: Till 1 of the shop held it. Nothing redeemed, yet counted, and no points.
      entry({
        cashier: 'Omar',
        rewardName: 'Coffee',
        outcome: 'refused_elsewhere',
        points: null,
        heldBy: { till: 'Till 1', at: '2026-03-01T08:35:00.000Z' },
      }),
      entry({ kind: 'register', outcome: 'registered', code: null, cashier: 'Omar' }),
      entry({ kind: 'register', outcome: 'failure_acknowledged', code: null, cashier: 'Omar' }),
      entry({ kind: 'correct', outcome: 'corrected', code: null, cashier: 'Sara (12)' }),
    ],
    open: [
      // Open items count whenever they were queued: they still need someone.
      item({ state: 'pending', cashier: 'Omar', rewardName: 'Coffee', points: 50 }),
      item({ state: 'conflict', cashier: 'Sara (12)', rewardName: 'Cake' }),
      item({ state: 'failed', cashier: null, rewardName: null, code: 'RW-F' }),
      {
        uid: crypto.randomUUID(),
        kind: 'register',
        state: 'pending',
        queuedAt: SINCE,
        firstAttemptAt: null,
        lastAttemptAt: null,
        attempts: 0,
        nextAttemptAt: null,
        lastError: null,
        note: null,
        name: 'Nour',
        phoneE164: '+966553334444',
        email: null,
        birthday: null,
        customerPk: 1,
        localCustomerId: 'local-1',
      },
    ],
  });

  test('counts redemptions done since the start, and everything still open, by state', () => {
    expect(report.redemptions).toEqual({ done: 3, queued: 1, conflict: 2, failed: 2, refused: 1 });
  });

  test('deducts only the points of redemptions done', () => {
    expect(report.pointsDeducted).toBe(100);
  });

  test('by reward, named where known, by code otherwise, most first', () => {
    expect(report.byReward).toEqual([
      { reward: 'Coffee', counts: { done: 2, queued: 1, conflict: 1, failed: 0, refused: 1 }, points: 100 },
      { reward: 'Cake', counts: { done: 0, queued: 0, conflict: 1, failed: 1, refused: 0 }, points: 0 },
      { reward: 'RW-F', counts: { done: 0, queued: 0, conflict: 0, failed: 1, refused: 0 }, points: 0 },
      { reward: 'RW-X', counts: { done: 1, queued: 0, conflict: 0, failed: 0, refused: 0 }, points: 0 },
    ]);
  });

  test('by cashier, with their registrations and corrections; work of nobody named kept apart', () => {
    expect(report.byCashier).toEqual([
      {
        cashier: 'Omar',
        counts: { done: 1, queued: 1, conflict: 1, failed: 0, refused: 1 },
        points: 0,
        registrations: 1,
        corrections: 0,
      },
      {
        cashier: 'Sara (12)',
        counts: { done: 2, queued: 0, conflict: 1, failed: 0, refused: 0 },
        points: 100,
        registrations: 0,
        corrections: 1,
      },
      {
        cashier: null,
        counts: { done: 0, queued: 0, conflict: 0, failed: 2, refused: 0 },
        points: 0,
        registrations: 0,
        corrections: 0,
      },
    ]);
  });

  test('registrations done, queued and failed, and corrections', () => {
    expect(report.registrations).toEqual({ done: 1, queued: 1, failed: 1 });
    expect(report.corrections).toBe(1);
    expect(report.open).toHaveLength(4);
  });
});

describe('the end of the period', () => {
  const AT = '2026-03-01T18:00:00.000Z';
  const read = (upToNow: boolean) =>
    buildShiftReport({ since: SINCE, until: AT, upToNow, journal: [entry({ doneAt: AT, points: 50 })], open: [] });

  test('a chosen end leaves out what was done at that very moment (it belongs to the next period)', () => {
    expect(read(false).redemptions.done).toBe(0);
  });

  test('"up to now" counts what was journalled in the millisecond the report was read', () => {
    expect(read(true).redemptions.done).toBe(1);
    expect(read(true).pointsDeducted).toBe(50);
  });
});
