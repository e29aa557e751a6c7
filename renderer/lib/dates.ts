/**
 * Dates as the cashier reads them. The service sends ISO 8601 timestamps with an offset;
 * they are shown in the till's own time zone, in the interface locale (i18n/format.ts).
 */
import { t } from '../i18n';
import { formatCalendarDay, formatDate, formatDateTime } from '../i18n/format';

function parse(iso: string): Date | null {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

export function formatDay(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = parse(iso);
  return date ? formatDate(date) : iso;
}

export function formatDayTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = parse(iso);
  return date ? formatDateTime(date) : iso;
}

/** A birthday is a calendar date (YYYY-MM-DD), not an instant: read it without time zones. */
export function formatBirthday(day: string | null | undefined): string {
  if (!day) return '—';
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return day;
  return formatCalendarDay(new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))));
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
  if (!expiresAt) return { state: 'none', text: t('expiry.none') };
  const date = parse(expiresAt);
  if (!date) return { state: 'later', text: t('expiry.unreadable', { date: expiresAt }) };
  if (date.getTime() <= now.getTime())
    return { state: 'expired', text: t('expiry.expiredOn', { date: formatDate(date) }) };
  if (sameLocalDay(date, now)) return { state: 'today', text: t('expiry.today') };
  return { state: 'later', text: t('expiry.expiresOn', { date: formatDate(date) }) };
}
