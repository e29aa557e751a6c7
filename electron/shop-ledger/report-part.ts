import type { ShopOutboxFigures, ShopReportCounts, ShopReportPart, ShopReportTotals } from '../../common/contract';
import { isRecord } from '../../common/is-record';
import { hasControlCharacters } from '../validation/control-characters';

/**
 * One till's end-of-shift figures as they cross the LAN for the shop's report
 * (docs/shop-ledger.md, "The shop's report"): counts, points, and the names of rewards and
 * cashiers, and its outbox's counts and oldest age, nothing else (no phone, customer, code or
 * order). Checked field by field whichever way it travels, bounded so that one report always
 * fits in one message.
 */

/** Lines of one till's report; a longer report is cut (the most used first), and says so by its totals. */
export const MAX_REWARD_LINES = 60;
export const MAX_CASHIER_LINES = 40;
/** A reward's or a cashier's name as the report shows it. */
const MAX_NAME = 120;
/** Far above any shift's count; only refuses what is no count. */
const MAX_COUNT = 10_000_000;

const COUNT_FIELDS = ['done', 'queued', 'conflict', 'failed', 'refused', 'points'] as const;
const TOTAL_FIELDS = [...COUNT_FIELDS, 'registrations', 'registrationsQueued', 'registrationsFailed', 'corrections'];

function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0 && (value as number) <= MAX_COUNT;
}

/** No control characters: it is shown and printed as it is. */
function isName(value: unknown): value is string {
  return typeof value === 'string' && value.length >= 1 && value.length <= MAX_NAME && !hasControlCharacters(value);
}

function hasExactly(record: Record<string, unknown>, fields: readonly string[]): boolean {
  return Object.keys(record).length === fields.length && fields.every((field) => Object.hasOwn(record, field));
}

function countsOk(record: Record<string, unknown>, fields: readonly string[]): boolean {
  return fields.every((field) => isCount(record[field]));
}

function isRewardLine(value: unknown): value is ShopReportCounts & { reward: string } {
  return (
    isRecord(value) &&
    hasExactly(value, ['reward', ...COUNT_FIELDS]) &&
    isName(value.reward) &&
    countsOk(value, COUNT_FIELDS)
  );
}

function isCashierLine(value: unknown): value is ShopReportPart['byCashier'][number] {
  const fields = [...COUNT_FIELDS, 'registrations', 'corrections'];
  return (
    isRecord(value) &&
    hasExactly(value, ['cashier', ...fields]) &&
    (value.cashier === null || isName(value.cashier)) &&
    countsOk(value, fields)
  );
}

const OUTBOX_FIELDS = ['waiting', 'failed', 'conflicts'] as const;

/** A till's outbox in figures: three counts and the oldest item's age in minutes (or null). */
function isOutbox(value: unknown): value is ShopOutboxFigures {
  return (
    isRecord(value) &&
    hasExactly(value, [...OUTBOX_FIELDS, 'oldestMinutes']) &&
    countsOk(value, OUTBOX_FIELDS) &&
    (value.oldestMinutes === null || isCount(value.oldestMinutes))
  );
}

export function isReportTotals(value: unknown): value is ShopReportTotals {
  return isRecord(value) && hasExactly(value, TOTAL_FIELDS) && countsOk(value, TOTAL_FIELDS);
}

/**
 * Whether a value read from a peer (or the page) is one till's report, exactly: with its
 * outbox's figures, or without them (a till of an earlier version).
 */
export function isReportPart(value: unknown): value is ShopReportPart {
  const withOutbox = isRecord(value) && value.outbox !== undefined;
  return (
    isRecord(value) &&
    hasExactly(value, ['byCashier', 'byReward', 'totals', ...(withOutbox ? ['outbox'] : [])]) &&
    (!withOutbox || isOutbox(value.outbox)) &&
    isReportTotals(value.totals) &&
    Array.isArray(value.byReward) &&
    value.byReward.length <= MAX_REWARD_LINES &&
    value.byReward.every(isRewardLine) &&
    Array.isArray(value.byCashier) &&
    value.byCashier.length <= MAX_CASHIER_LINES &&
    value.byCashier.every(isCashierLine)
  );
}
