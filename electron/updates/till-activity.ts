import type { TillActivity } from '../../common/contract';

/**
 * A report older than this says nothing: the page reports at least every minute, so a page
 * that has stopped (crashed, reloading, frozen) leaves the till counted as busy, never idle.
 */
export const ACTIVITY_STALE_MS = 3 * 60_000;

export interface ActivityBoard {
  report(activity: TillActivity, at: number): void;
  /** Whether the till is idle at `now`: no customer open, nothing in flight, the outbox on disk, and a fresh report saying so. */
  idle(now: number): boolean;
}

/** What the page last said about the till's work, and when. */
export function createActivityBoard(): ActivityBoard {
  let last: { activity: TillActivity; at: number } | null = null;
  return {
    report(activity, at) {
      last = { activity: { ...activity }, at };
    },
    idle(now) {
      if (!last || now - last.at > ACTIVITY_STALE_MS || now < last.at) return false;
      const { customerOpen, inFlight, outboxDurable } = last.activity;
      return !customerOpen && inFlight === 0 && outboxDurable;
    },
  };
}
