// The shop's report (renderer/offline/shift-report/shop-report.ts, report-requests.ts): this till's
// figures as they leave it, the merge by till, cashier and reward with the silent tills
// named, its CSV, and the long poll that answers the other tills.
import { describe, expect, test, vi } from 'vitest';
import type { ShopReportPart } from '../../../../common/contract';
import { serveReportRequests } from '../../../../renderer/offline/shift-report/report-requests';
import { REDEMPTION_STATES, type ShiftReport } from '../../../../renderer/offline/shift-report/shift-report';
import { mergeShopReport, toReportPart } from '../../../../renderer/offline/shift-report/shop-report';
import { shopReportToCsv } from '../../../../renderer/shift-report/shop-report-csv';

const counts = (done: number, refused = 0) => ({ done, queued: 0, conflict: 0, failed: 0, refused });

const HERE: ShiftReport = {
  since: '2026-11-26T06:00:00.000Z',
  until: '2026-11-26T18:00:00.000Z',
  redemptions: counts(3, 1),
  pointsDeducted: 150,
  byReward: [{ reward: 'Coffee', counts: counts(3, 1), points: 150 }],
  byCashier: [{ cashier: 'Omar', counts: counts(3, 1), points: 150, registrations: 1, corrections: 0 }],
  registrations: { done: 1, queued: 0, failed: 0 },
  corrections: 0,
  open: [],
};

const TILL_2: ShopReportPart = {
  totals: {
    ...counts(2),
    points: 100,
    registrations: 0,
    registrationsQueued: 1,
    registrationsFailed: 0,
    corrections: 2,
  },
  byReward: [
    { reward: 'Coffee', ...counts(1), points: 50 },
    { reward: 'Cake', ...counts(1), points: 50 },
  ],
  byCashier: [{ cashier: 'Omar', ...counts(2), points: 100, registrations: 0, corrections: 2 }],
};

describe('the shop’s report', () => {
  test('this till’s figures leave it as counts and names only, with its outbox’s counts and oldest age', () => {
    const open = [
      {
        state: 'pending',
        queuedAt: '2026-11-26T15:00:00.000Z',
        customerName: 'Layla Haddad',
        phoneE164: '+966501234567',
        code: 'RW-LAYLA001',
      },
      {
        state: 'conflict',
        queuedAt: '2026-11-25T17:30:00.000Z',
        customerName: 'Layla Haddad',
        phoneE164: '+966501234567',
        code: 'RW-LAYLA002',
      },
      { state: 'failed', queuedAt: '2026-11-26T17:00:00.000Z', name: 'Sami Nasser', phoneE164: '+966551112233' },
    ];
    const part = toReportPart({ ...HERE, open: open as never }, new Date(HERE.until));
    expect(part).toEqual({
      totals: {
        ...counts(3, 1),
        points: 150,
        registrations: 1,
        registrationsQueued: 0,
        registrationsFailed: 0,
        corrections: 0,
      },
      byReward: [{ reward: 'Coffee', ...counts(3, 1), points: 150 }],
      byCashier: [{ cashier: 'Omar', ...counts(3, 1), points: 150, registrations: 1, corrections: 0 }],
      // The oldest (the conflict) was queued 24 h 30 min before the report was made.
      outbox: { waiting: 1, failed: 1, conflicts: 1, oldestMinutes: 24 * 60 + 30 },
    });
    expect(JSON.stringify(part)).not.toMatch(/\+966|Layla|Sami|RW-/);
    expect(toReportPart(HERE, new Date(HERE.until)).outbox).toEqual({
      waiting: 0,
      failed: 0,
      conflicts: 0,
      oldestMinutes: null,
    });
  });

  test('merged by till, by cashier and by reward, with the silent till named; the CSV carries the same', () => {
    const stuck = { waiting: 2, failed: 0, conflicts: 1, oldestMinutes: 26 * 60 + 5 };
    const merged = mergeShopReport({
      here: { till: 'Till 1', report: HERE },
      // Till 2 runs this version and says its outbox; Till 4 an earlier one, which says none.
      others: [
        { till: 'Till 2', report: { ...TILL_2, outbox: stuck } },
        { till: 'Till 4', report: TILL_2 },
      ],
      silent: ['Till 3'],
      now: new Date(HERE.until),
    });
    expect(merged.redemptions).toEqual(counts(7, 1));
    expect(merged.pointsDeducted).toBe(350);
    expect(merged.registrations).toEqual({ done: 1, queued: 2, failed: 0 });
    expect(merged.corrections).toBe(4);
    const none = { waiting: 0, failed: 0, conflicts: 0, oldestMinutes: null };
    expect(merged.byTill).toEqual([
      { till: 'Till 1', here: true, counts: counts(3, 1), points: 150, outbox: none },
      { till: 'Till 2', here: false, counts: counts(2), points: 100, outbox: stuck },
      { till: 'Till 4', here: false, counts: counts(2), points: 100, outbox: null },
    ]);
    expect(merged.byReward).toEqual([
      { reward: 'Coffee', counts: counts(5, 1), points: 250 },
      { reward: 'Cake', counts: counts(2), points: 100 },
    ]);
    expect(merged.byCashier).toEqual([
      { cashier: 'Omar', counts: counts(7, 1), points: 350, registrations: 1, corrections: 4 },
    ]);
    expect(merged.silent).toEqual(['Till 3']);
    const words = {
      done: 'Redeemed',
      queued: 'Waiting',
      conflict: 'In conflict',
      failed: 'Failed',
      refused: 'Refused (another till)',
    };
    const csv = shopReportToCsv(merged, REDEMPTION_STATES, (state) => words[state]).split('\r\n');
    expect(csv[0]).toBe(
      'group,name,Redeemed,Waiting,In conflict,Failed,Refused (another till),Points deducted,outbox waiting,outbox failed,outbox in conflict,oldest item (hours)',
    );
    expect(csv).toContain('whole shop,,7,0,0,0,1,350');
    expect(csv).toContain('till,Till 1,3,0,0,0,1,150,0,0,0,');
    // Till 2's stuck outbox, from any till: 2 waiting, 1 in conflict, the oldest 26 hours old.
    expect(csv).toContain('till,Till 2,2,0,0,0,0,100,2,0,1,26');
    expect(csv).toContain('till,Till 4,2,0,0,0,0,100');
    expect(csv).toContain('reward,Coffee,5,0,0,0,1,250');
    expect(csv).toContain('cashier,Omar,7,0,0,0,1,350');
    expect(csv).toContain('no report from,Till 3');
  });
});

describe('answering the other tills', () => {
  const timers = {
    setTimeout: (callback: () => void, ms: number) => setTimeout(callback, ms),
    clearTimeout: (handle: unknown) => clearTimeout(handle as never),
  };

  test('a request is answered with this till’s report from the asked time, and the next call waits again', async () => {
    const answers: Array<{ id: number; report: ShopReportPart | null }> = [];
    let calls = 0;
    const api = {
      shopReportRequest: vi.fn(async () => {
        calls += 1;
        if (calls === 1)
          return { ok: true as const, data: { request: { id: 7, since: HERE.since, until: HERE.until } } };
        return new Promise<never>(() => undefined); // the next long poll stays open
      }),
      shopReportAnswer: vi.fn(async (payload: { id: number; report: ShopReportPart | null }) => {
        answers.push(payload);
        return { ok: true as const, data: null };
      }),
    };
    const build = vi.fn(async () => TILL_2);
    const stop = serveReportRequests({ api, build, timers });
    await vi.waitFor(() => expect(answers).toEqual([{ id: 7, report: TILL_2 }]));
    expect(build).toHaveBeenCalledWith(HERE.since, HERE.until);
    await vi.waitFor(() => expect(api.shopReportRequest).toHaveBeenCalledTimes(2));
    stop();
  });

  test('a failing call is tried again later, not in a tight loop', async () => {
    const api = {
      shopReportRequest: vi.fn(async () => {
        throw new Error('no such channel');
      }),
      shopReportAnswer: vi.fn(),
    };
    const stop = serveReportRequests({ api, build: async () => TILL_2, timers });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(api.shopReportRequest).toHaveBeenCalledTimes(1);
    stop();
  });
});
