import { describe, expect, test } from 'vitest';
import { refreshDue, type RefreshProgress } from '../../../../renderer/offline/refresh/cache-refresh';
import {
  DEFAULT_REFRESH_SCHEDULE,
  nextRefreshAt,
  windowHours,
} from '../../../../renderer/offline/refresh/refresh-schedule';
import type { TillApi } from '../../../../common/contract';
import { createOfflineServices } from '../../../../renderer/offline';
import { writeMeta } from '../../../../renderer/offline/db/meta';
import { dropDb, freshDb } from '../support/fixtures';

// Local times throughout: the window is in the till's own time zone, whatever the machine's.
const local = (day: number, hour: number, minute = 0) => new Date(2026, 2, day, hour, minute);
const HOUR = 3_600_000;

describe('the next complete refresh', () => {
  test("by default: once a day, inside the 02:00-05:00 window, at the till's own moment of it", () => {
    const afternoon = local(10, 14);
    expect(nextRefreshAt(afternoon, DEFAULT_REFRESH_SCHEDULE, 0)).toEqual(local(11, 2));
    expect(nextRefreshAt(afternoon, DEFAULT_REFRESH_SCHEDULE, 0.5)).toEqual(local(11, 3, 30));
    // A refresh done inside the window is next done the following night, not the same one.
    expect(nextRefreshAt(local(11, 3, 10), DEFAULT_REFRESH_SCHEDULE, 0)).toEqual(local(12, 2));
  });

  test('jitter stays inside the window for every draw, and spreads a fleet over it', () => {
    const last = local(10, 14);
    const draws = Array.from({ length: 200 }, (_, i) =>
      nextRefreshAt(last, DEFAULT_REFRESH_SCHEDULE, i / 200).getTime(),
    );
    for (const at of draws) {
      expect(at).toBeGreaterThanOrEqual(local(11, 2).getTime());
      expect(at).toBeLessThan(local(11, 5).getTime());
    }
    // Different draws, different moments: tills do not synchronise.
    expect(new Set(draws).size).toBe(200);
    expect(Math.max(...draws) - Math.min(...draws)).toBeGreaterThan(2.9 * HOUR);
  });

  test('a window past midnight, and intervals of more than a day', () => {
    const lateNight = { everyHours: 24, windowFromHour: 22, windowToHour: 4 };
    expect(windowHours(lateNight)).toBe(6);
    expect(nextRefreshAt(local(10, 9), lateNight, 0)).toEqual(local(10, 22));
    expect(nextRefreshAt(local(10, 9), lateNight, 0.999).getTime()).toBeLessThan(local(11, 4).getTime());
    const weekly = { ...DEFAULT_REFRESH_SCHEDULE, everyHours: 168 };
    expect(nextRefreshAt(local(10, 3), weekly, 0)).toEqual(local(14, 2));
  });

  test('shorter intervals ignore the window; their jitter is a tenth of the interval, at most 30 minutes', () => {
    const sixHours = { ...DEFAULT_REFRESH_SCHEDULE, everyHours: 6 };
    const last = local(10, 14);
    expect(nextRefreshAt(last, sixHours, 0)).toEqual(local(10, 20));
    expect(nextRefreshAt(last, sixHours, 0.999).getTime()).toBeLessThan(local(10, 20, 30).getTime());
    expect(nextRefreshAt(last, sixHours, 0.5)).toEqual(local(10, 20, 15));
    const hourly = { ...DEFAULT_REFRESH_SCHEDULE, everyHours: 1 };
    expect(nextRefreshAt(last, hourly, 0.5)).toEqual(local(10, 15, 3));
  });

  test('a refresh is due once its planned moment has come', () => {
    const done: RefreshProgress = {
      state: 'idle',
      unreadable: 0,
      pagesDone: 4,
      lastPage: 4,
      fetched: 305,
      total: 305,
      lastCompleteRefreshAt: local(10, 14).toISOString(),
      stoppedBecause: null,
      stoppedAt: null,
      resumable: false,
    };
    const plan = (last: Date) => nextRefreshAt(last, DEFAULT_REFRESH_SCHEDULE, 0.5);
    expect(refreshDue(done, local(10, 23), plan, 60_000)).toBe(false);
    expect(refreshDue(done, local(11, 3, 29), plan, 60_000)).toBe(false);
    expect(refreshDue(done, local(11, 3, 30), plan, 60_000)).toBe(true);
  });
});

describe("the facade's plan", () => {
  test("follows the till's schedule setting, and draws the till's jitter once per completed refresh", async () => {
    const db = freshDb();
    try {
      await writeMeta(db, 'lastCompleteRefresh', { at: local(10, 14).toISOString(), total: 305 });
      // A different draw on every call: a plan that re-drew would move at each look.
      const draws = [0.25, 0.9, 0.1, 0.6];
      let schedule = DEFAULT_REFRESH_SCHEDULE;
      const services = createOfflineServices({
        api: {} as TillApi,
        db,
        locks: null,
        random: () => draws.shift() ?? 0.5,
        settings: () => ({
          defaultCountry: 'SA',
          branchId: null,
          allowOfflineRedemption: true,
          refreshSchedule: schedule,
        }),
      });
      expect(services.plannedRefreshAt()).toBeNull();
      await services.loadRefreshProgress();
      expect(services.plannedRefreshAt()).toEqual(local(11, 2, 45));
      expect(services.plannedRefreshAt()).toEqual(local(11, 2, 45));
      schedule = { ...DEFAULT_REFRESH_SCHEDULE, everyHours: 6 };
      // The same draw, now a quarter of the 30-minute jitter of a 6-hour interval.
      expect(services.plannedRefreshAt()).toEqual(new Date(2026, 2, 10, 20, 7, 30));
    } finally {
      await dropDb(db);
    }
  });
});
