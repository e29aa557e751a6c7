/**
 * The shop's report (F7, "The whole shop"; docs/shop-ledger.md): this till's end-of-shift
 * report and the other tills' reports for the same period, gathered over the ledger, merged
 * by till, by cashier and by reward, with the tills that did not answer named, and each till's
 * outbox (waiting, failed, in conflict, the oldest item's age) so a stuck till is seen from any
 * till. Also what this till sends when another till asks: its figures only (counts, points,
 * reward and cashier names, its outbox's counts), bounded as the wire bounds them.
 *
 * Pure: the same reports give the same merge, so the screen, its PDF and its CSV
 * (renderer/shift-report/shop-report-csv.ts) agree.
 */
import type { ShopOutboxFigures, ShopReportCounts, ShopReportPart } from '../../../common/contract';
import { oldestQueued, outboxStateCounts } from '../../../common/outbox-figures';
import {
  REDEMPTION_STATES,
  type CashierLine,
  type RewardLine,
  type ShiftReport,
  type StateCounts,
} from './shift-report';

/** What the wire carries at most (electron/shop-ledger/report-part.ts). */
const MAX_REWARD_LINES = 60;
const MAX_CASHIER_LINES = 40;
const MAX_NAME = 120;

export interface TillLine {
  till: string;
  /** This till's own line. */
  here: boolean;
  counts: StateCounts;
  points: number;
  /** The till's outbox as it stood when it reported; null from a till of an earlier version. */
  outbox: ShopOutboxFigures | null;
}

export interface ShopShiftReport {
  since: string;
  until: string;
  redemptions: StateCounts;
  pointsDeducted: number;
  byTill: TillLine[];
  byReward: RewardLine[];
  byCashier: CashierLine[];
  registrations: { done: number; queued: number; failed: number };
  corrections: number;
  /** Tills of the shop that did not answer in time: their figures are missing. */
  silent: string[];
}

const name = (text: string): string => (text.length > MAX_NAME ? `${text.slice(0, MAX_NAME - 1)}…` : text);
const countsOf = (line: ShopReportCounts): StateCounts => ({
  done: line.done,
  queued: line.queued,
  conflict: line.conflict,
  failed: line.failed,
  refused: line.refused,
});
const wire = (counts: StateCounts, points: number): ShopReportCounts => ({ ...counts, points });

/** The outbox's figures from what is still open: counts by state and the oldest item's age at `now`. */
function outboxOf(open: ShiftReport['open'], now: Date): ShopOutboxFigures {
  const oldest = oldestQueued(open);
  return {
    ...outboxStateCounts(open),
    oldestMinutes: oldest ? Math.max(0, Math.floor((now.getTime() - Date.parse(oldest.queuedAt)) / 60_000)) : null,
  };
}

/** This till's report as another till receives it, with its outbox as it stands `now`. */
export function toReportPart(report: ShiftReport, now = new Date()): ShopReportPart {
  const { redemptions, pointsDeducted, registrations, corrections } = report;
  return {
    totals: {
      ...wire(redemptions, pointsDeducted),
      registrations: registrations.done,
      registrationsQueued: registrations.queued,
      registrationsFailed: registrations.failed,
      corrections,
    },
    byReward: report.byReward
      .slice(0, MAX_REWARD_LINES)
      // A reward known only by a code the journal no longer keeps: the wire wants a name.
      .map((line) => ({ reward: line.detailsRemoved ? '—' : name(line.reward), ...wire(line.counts, line.points) })),
    byCashier: report.byCashier.slice(0, MAX_CASHIER_LINES).map((line) => ({
      cashier: line.cashier === null ? null : name(line.cashier),
      ...wire(line.counts, line.points),
      registrations: line.registrations,
      corrections: line.corrections,
    })),
    outbox: outboxOf(report.open, now),
  };
}

function add(into: StateCounts, more: StateCounts): StateCounts {
  const sum = { ...into };
  for (const state of REDEMPTION_STATES) sum[state] += more[state];
  return sum;
}

const total = (counts: StateCounts): number => REDEMPTION_STATES.reduce((sum, state) => sum + counts[state], 0);

/** Merges this till's report with the other tills' (each as its part), naming the silent ones. */
export function mergeShopReport(input: {
  here: { till: string; report: ShiftReport };
  others: ReadonlyArray<{ till: string; report: ShopReportPart }>;
  silent: readonly string[];
  now?: Date;
}): ShopShiftReport {
  const parts = [{ till: input.here.till, here: true, part: toReportPart(input.here.report, input.now) }].concat(
    input.others.map(({ till, report }) => ({ till, here: false, part: report })),
  );
  const none: StateCounts = { done: 0, queued: 0, conflict: 0, failed: 0, refused: 0 };
  const rewards = new Map<string, RewardLine>();
  const cashiers = new Map<string | null, CashierLine>();
  let redemptions = none;
  let pointsDeducted = 0;
  const registrations = { done: 0, queued: 0, failed: 0 };
  let corrections = 0;
  for (const { part } of parts) {
    redemptions = add(redemptions, countsOf(part.totals));
    pointsDeducted += part.totals.points;
    registrations.done += part.totals.registrations;
    registrations.queued += part.totals.registrationsQueued;
    registrations.failed += part.totals.registrationsFailed;
    corrections += part.totals.corrections;
    for (const line of part.byReward) {
      const kept = rewards.get(line.reward) ?? { reward: line.reward, counts: none, points: 0 };
      rewards.set(line.reward, {
        ...kept,
        counts: add(kept.counts, countsOf(line)),
        points: kept.points + line.points,
      });
    }
    for (const line of part.byCashier) {
      const kept = cashiers.get(line.cashier) ?? {
        cashier: line.cashier,
        counts: none,
        points: 0,
        registrations: 0,
        corrections: 0,
      };
      cashiers.set(line.cashier, {
        cashier: line.cashier,
        counts: add(kept.counts, countsOf(line)),
        points: kept.points + line.points,
        registrations: kept.registrations + line.registrations,
        corrections: kept.corrections + line.corrections,
      });
    }
  }
  const most = <T extends { counts: StateCounts }>(a: T, b: T): number => total(b.counts) - total(a.counts);
  return {
    since: input.here.report.since,
    until: input.here.report.until,
    redemptions,
    pointsDeducted,
    byTill: parts.map(({ till, here, part }) => ({
      till,
      here,
      counts: countsOf(part.totals),
      points: part.totals.points,
      outbox: part.outbox ?? null,
    })),
    byReward: [...rewards.values()].sort(most),
    byCashier: [...cashiers.values()].sort(
      (a, b) => most(a, b) || (a.cashier === null ? 1 : b.cashier === null ? -1 : 0),
    ),
    registrations,
    corrections,
    silent: [...input.silent],
  };
}
