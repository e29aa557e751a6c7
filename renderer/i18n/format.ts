/**
 * Every number and date the till shows goes through here, with the interface locale, so
 * points, counts, dates and money always use the same digits: in Arabic, Arabic-Indic
 * (٠١٢٣) or Latin (0123) as Settings say; in English, the British day-month-year order
 * the till has always used.
 *
 * The locale lives in a ref: a computed that formats re-runs when the language or the
 * digits change.
 */
import { ref } from 'vue';
import type { ArabicDigits, InterfaceLanguage } from '../../common/contract';
import { BASE_LANGUAGE } from './languages';

export interface InterfaceLocale {
  language: InterfaceLanguage;
  arabicDigits: ArabicDigits;
}

const locale = ref<InterfaceLocale>({ language: BASE_LANGUAGE, arabicDigits: 'arab' });

export function setFormattingLocale(next: InterfaceLocale): void {
  locale.value = { ...next };
}

/**
 * The BCP 47 tag handed to Intl. Arabic carries its numbering system explicitly (`-u-nu-`),
 * because what `ar` defaults to differs between ICU versions and regions; the calendar is
 * left at `ar`'s Gregorian (`ar-SA` would switch to the Islamic calendar).
 */
export function intlLocale(current: InterfaceLocale = locale.value): string {
  if (current.language === 'ar') return `ar-u-nu-${current.arabicDigits}`;
  return 'en-GB';
}

const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();

function numberFormat(options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const tag = intlLocale();
  const key = `n|${tag}|${JSON.stringify(options)}`;
  let format = formatters.get(key) as Intl.NumberFormat | undefined;
  if (!format) formatters.set(key, (format = new Intl.NumberFormat(tag, options)));
  return format;
}

function dateFormat(options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const tag = intlLocale();
  const key = `d|${tag}|${JSON.stringify(options)}`;
  let format = formatters.get(key) as Intl.DateTimeFormat | undefined;
  if (!format) formatters.set(key, (format = new Intl.DateTimeFormat(tag, options)));
  return format;
}

/** A count or a points balance: grouped, no decimals. */
export function formatInteger(value: number): string {
  return numberFormat({ maximumFractionDigits: 0 }).format(value);
}

export const formatPoints = formatInteger;
export const formatCount = formatInteger;

/**
 * An amount of money in an ISO 4217 currency; without a valid currency, the bare number
 * (the service sends amounts without one).
 */
export function formatMoney(amount: number, currency?: string | null): string {
  if (currency) {
    try {
      return numberFormat({ style: 'currency', currency }).format(amount);
    } catch {
      // Not a currency Intl knows: fall through to the number alone.
    }
  }
  return numberFormat({ maximumFractionDigits: 2 }).format(amount);
}

const DAY: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short', year: 'numeric' };
const DAY_TIME: Intl.DateTimeFormatOptions = { ...DAY, hour: '2-digit', minute: '2-digit' };
const CALENDAR_DAY: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' };
const DAY_TIME_SECONDS: Intl.DateTimeFormatOptions = { ...DAY_TIME, second: '2-digit' };
const TIME: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit' };
const TIME_SECONDS: Intl.DateTimeFormatOptions = { ...TIME, second: '2-digit' };

/** An instant's day, in the till's time zone: "21 Nov 2026". */
export function formatDate(date: Date): string {
  return dateFormat(DAY).format(date);
}

/** An instant's day and time, in the till's time zone: "21 Nov 2026, 14:02". */
export function formatDateTime(date: Date): string {
  return dateFormat(DAY_TIME).format(date);
}

/** To the second, where decisions are made to the second (outbox conflicts). */
export function formatDateTimeSeconds(date: Date): string {
  return dateFormat(DAY_TIME_SECONDS).format(date);
}

/** An instant's time of day: "14:02". */
export function formatTime(date: Date): string {
  return dateFormat(TIME).format(date);
}

/** A time of day to the second, where attempts are told apart by seconds: "14:02:21". */
export function formatTimeSeconds(date: Date): string {
  return dateFormat(TIME_SECONDS).format(date);
}

/** A calendar date (a birthday), given as UTC midnight so no time zone moves it: "12 April 1990". */
export function formatCalendarDay(utcMidnight: Date): string {
  return dateFormat(CALENDAR_DAY).format(utcMidnight);
}
