/**
 * When the next complete cache refresh starts.
 *
 * A chain may run hundreds of tills against one service, each paging the whole base, so
 * the default is once a day inside a night window (outside opening hours), each till at its
 * own random moment of that window: the fleet's load is spread over the window instead of
 * arriving at once. Shorter intervals (for a base that changes during the day) ignore the
 * window and add a jitter of up to a tenth of the interval (at most 30 minutes).
 */

import type { CacheRefreshSchedule } from '../../../common/contract';

export type RefreshSchedule = CacheRefreshSchedule;

export const DEFAULT_REFRESH_SCHEDULE: RefreshSchedule = Object.freeze({
  everyHours: 24,
  windowFromHour: 2,
  windowToHour: 5,
});

const HOUR = 3_600_000;
const MAX_SHORT_JITTER_MS = 30 * 60_000;

/** Hours the window stays open: 02-05 is 3, 22-05 is 7, 02-02 is the whole day. */
export function windowHours(schedule: RefreshSchedule): number {
  return (schedule.windowToHour - schedule.windowFromHour + 24) % 24 || 24;
}

/**
 * The start of the next complete refresh after one completed at `last`. `jitter` (0 <= jitter < 1)
 * is drawn once per till and refresh, so the answer is stable while the till waits for it.
 */
export function nextRefreshAt(last: Date, schedule: RefreshSchedule, jitter: number): Date {
  const everyMs = schedule.everyHours * HOUR;
  if (schedule.everyHours < 24) {
    return new Date(last.getTime() + everyMs + jitter * Math.min(everyMs / 10, MAX_SHORT_JITTER_MS));
  }
  // The first window that opens at least half an interval after the last refresh: a till
  // filled in the afternoon refreshes the coming night, one filled at night the next night.
  const earliest = last.getTime() + everyMs / 2;
  const opens = new Date(earliest);
  opens.setHours(schedule.windowFromHour, 0, 0, 0);
  // setDate, not +24 h: a day with a daylight-saving change is 23 or 25 hours long.
  while (opens.getTime() < earliest) opens.setDate(opens.getDate() + 1);
  return new Date(opens.getTime() + jitter * windowHours(schedule) * HOUR);
}
