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
  test('this till’s figures leave it as counts and names only', () => {
    const part = toReportPart({ ...HERE, open: [{} as never] });
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
    });
    expect(JSON.stringify(part)).not.toMatch(/\+966|Layla|RW-/);
  });

  test('merged by till, by cashier and by reward, with the silent till named; the CSV carries the same', () => {
    const merged = mergeShopReport({
      here: { till: 'Till 1', report: HERE },
      others: [{ till: 'Till 2', report: TILL_2 }],
      silent: ['Till 3'],
    });
    expect(merged.redemptions).toEqual(counts(5, 1));
    expect(merged.pointsDeducted).toBe(250);
    expect(merged.registrations).toEqual({ done: 1, queued: 1, failed: 0 });
    expect(merged.corrections).toBe(2);
    expect(merged.byTill).toEqual([
      { till: 'Till 1', here: true, counts: counts(3, 1), points: 150 },
      { till: 'Till 2', here: false, counts: counts(2), points: 100 },
    ]);
    expect(merged.byReward).toEqual([
      { reward: 'Coffee', counts: counts(4, 1), points: 200 },
      { reward: 'Cake', counts: counts(1), points: 50 },
    ]);
    expect(merged.byCashier).toEqual([
      { cashier: 'Omar', counts: counts(5, 1), points: 250, registrations: 1, corrections: 2 },
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
    expect(csv[0]).toBe('group,name,Redeemed,Waiting,In conflict,Failed,Refused (another till),Points deducted');
    expect(csv).toContain('whole shop,,5,0,0,0,1,250');
    expect(csv).toContain('till,Till 2,2,0,0,0,0,100');
    expect(csv).toContain('reward,Coffee,4,0,0,0,1,200');
    expect(csv).toContain('cashier,Omar,5,0,0,0,1,250');
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
