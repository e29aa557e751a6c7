/**
 * Whose redemption was it? After a 422 `reward_unavailable` on replay, the service's check
 * says when the reward was redeemed (`redeemed_at`, its own clock, to the second). It counts
 * as this till's only if that time lies inside the window of one of this till's unanswered
 * attempts: from just before the request was sent until the till gave up on it, both on the
 * service's clock (estimated from the `Date` headers of its answers), widened by that
 * estimate's uncertainty and by one second each side for the timestamps' resolution.
 * Anything else is a conflict for a person. What it cannot tell: another redemption inside
 * the very window of an unanswered attempt of ours (two redemptions in the same seconds).
 */
import type { AttemptTiming, ServiceClockReading } from '../../../common/contract';
import type { AttemptRecord, Attribution } from '../db/schema';

/** The service's timestamps are to the second (truncated or rounded: either side). */
export const TIMESTAMP_RESOLUTION_MS = 1000;

export interface AttemptWindow {
  /** Service-clock ms. */
  from: number;
  to: number;
  /** When the attempt started, service clock ms (for the words). */
  startedAt: number;
}

/** An attempt record opened before the request leaves, from the clock as it stands. */
export function openAttempt(clock: ServiceClockReading | null): AttemptRecord | null {
  if (!clock) return null;
  return {
    start: clock.offsetMs === null ? null : clock.localNow + clock.offsetMs,
    end: null,
    uncertaintyMs: clock.uncertaintyMs,
    localStart: clock.localNow,
    localEnd: null,
  };
}

/** The record of a finished attempt, from the main process's own timing. */
export function closedAttempt(timing: AttemptTiming): AttemptRecord {
  return {
    start: timing.start,
    end: timing.end,
    uncertaintyMs: timing.uncertaintyMs,
    localStart: timing.localStart,
    localEnd: timing.localEnd,
  };
}

/**
 * The window of one attempt on the service's clock, or null when it cannot be placed (the
 * service's clock was unknown then and is unknown now). An attempt recorded while the clock
 * was unknown is placed with today's estimate, one second less sure. An attempt still open
 * (the page went away before the answer) ends at the latest when the request's deadline did.
 */
export function attemptWindow(record: AttemptRecord, clock: ServiceClockReading | null): AttemptWindow | null {
  const later = clock && clock.offsetMs !== null && clock.uncertaintyMs !== null ? clock : null;
  let start = record.start;
  let uncertainty = record.uncertaintyMs;
  let end = record.end;
  if (start === null || uncertainty === null) {
    if (!later || !Number.isFinite(record.localStart)) return null;
    start = record.localStart + later.offsetMs!;
    uncertainty = later.uncertaintyMs! + 1000;
    end = record.localEnd === null ? null : record.localEnd + later.offsetMs!;
  }
  if (end === null) {
    const deadline = clock?.requestTimeoutMs ?? 30_000;
    end = record.localEnd === null ? start + deadline : start + (record.localEnd - record.localStart);
  }
  return {
    from: start - uncertainty - TIMESTAMP_RESOLUTION_MS,
    to: end + uncertainty + TIMESTAMP_RESOLUTION_MS,
    startedAt: start,
  };
}

/**
 * The attempts of an item queued by an earlier version, which kept only this till's own
 * first and last attempt times: one attempt spanning them, placed on the service's clock
 * with today's estimate of this till's clock offset, one second less sure. Unplaceable
 * (the service's clock unknown) it still counts, as an attempt whose window is unknown.
 */
export function legacyAttempts(
  item: { firstAttemptAt: string | null; lastAttemptAt: string | null },
  clock: ServiceClockReading | null,
): AttemptRecord[] {
  if (!item.firstAttemptAt) return [];
  const first = Date.parse(item.firstAttemptAt);
  const last = Date.parse(item.lastAttemptAt ?? item.firstAttemptAt);
  if (!clock || clock.tillClockOffMs === null || clock.uncertaintyMs === null || Number.isNaN(first)) {
    return [{ start: null, end: null, uncertaintyMs: null, localStart: Number.NaN, localEnd: null }];
  }
  const start = first + clock.tillClockOffMs;
  return [
    {
      start,
      end: (Number.isNaN(last) ? first : last) + clock.tillClockOffMs + clock.requestTimeoutMs,
      uncertaintyMs: clock.uncertaintyMs + 1000,
      localStart: Number.NaN,
      localEnd: Number.NaN,
    },
  ];
}

export type AttributionResult = { ours: true; attemptAt: string } | { ours: false; attribution: Attribution };

/** Decides a redeemed reward: ours (during one of our unanswered attempts) or not. */
export function attribute(
  redeemedAt: string,
  attempts: readonly AttemptRecord[],
  clock: ServiceClockReading | null,
): AttributionResult {
  const windows = attempts.map((record) => attemptWindow(record, clock));
  const at = Date.parse(redeemedAt);
  const placed = windows.filter((w): w is AttemptWindow => w !== null);
  const inside = placed.find((w) => at >= w.from && at <= w.to);
  if (inside) return { ours: true, attemptAt: new Date(inside.startedAt).toISOString() };
  const attemptsAt = placed.map((w) => new Date(w.startedAt).toISOString());
  if (windows.length === 0)
    return { ours: false, attribution: { verdict: 'no_unanswered_attempt', redeemedAt, attemptsAt } };
  if (placed.length < windows.length)
    return { ours: false, attribution: { verdict: 'clock_unknown', redeemedAt, attemptsAt } };
  return { ours: false, attribution: { verdict: 'outside_attempts', redeemedAt, attemptsAt } };
}

/** The service's time now, ISO, or null while its clock is unknown. */
export function serviceNow(clock: ServiceClockReading | null): string | null {
  return clock && clock.offsetMs !== null ? new Date(clock.localNow + clock.offsetMs).toISOString() : null;
}
