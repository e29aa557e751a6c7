/**
 * Dates as the cashier reads them. The service sends ISO 8601 timestamps with an offset;
 * they are shown in the till's own time zone.
 */

const LOCALE = 'en-GB';

const DAY = new Intl.DateTimeFormat(LOCALE, { day: 'numeric', month: 'short', year: 'numeric' });
const DAY_TIME = new Intl.DateTimeFormat(LOCALE, {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

function parse(iso: string): Date | null {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

export function formatDay(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = parse(iso);
  return date ? DAY.format(date) : iso;
}

export function formatDayTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = parse(iso);
  return date ? DAY_TIME.format(date) : iso;
}

/** A birthday is a calendar date (YYYY-MM-DD), not an instant: read it without time zones. */
export function formatBirthday(day: string | null | undefined): string {
  if (!day) return '—';
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return day;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return new Intl.DateTimeFormat(LOCALE, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(date);
}

function sameLocalDay(a: Date, b: Date): boolean {
  return a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
}

export type ExpiryState = 'none' | 'expired' | 'today' | 'later';

export interface Expiry {
  state: ExpiryState;
  /** Plain words: "No expiry", "Expires today", "Expired on 3 Nov 2026", "Expires on 9 Dec 2026". */
  text: string;
}

export function describeExpiry(expiresAt: string | null, now: Date = new Date()): Expiry {
  if (!expiresAt) return { state: 'none', text: 'No expiry' };
  const date = parse(expiresAt);
  if (!date) return { state: 'later', text: `Expires ${expiresAt}` };
  if (date.getTime() <= now.getTime()) return { state: 'expired', text: `Expired on ${DAY.format(date)}` };
  if (sameLocalDay(date, now)) return { state: 'today', text: 'Expires today' };
  return { state: 'later', text: `Expires on ${DAY.format(date)}` };
}
