/**
 * The shop's report as a CSV: one row per till, per reward and per cashier, then the silent
 * tills, with the same figures as the report on screen (offline/shift-report/shop-report.ts merges them).
 */
import { t } from '../i18n';
import { csvText } from '../lib/journal-csv';

/**
 * The merged report (the offline core's `ShopShiftReport`), taken by the shape of what the
 * CSV shows: lib/ imports nothing of the core. `S`: a redemption's state.
 */
export interface ShopReportFacts<S extends string> {
  redemptions: Record<S, number>;
  pointsDeducted: number;
  byTill: ReadonlyArray<{ till: string; counts: Record<S, number>; points: number }>;
  byReward: ReadonlyArray<{ reward: string; counts: Record<S, number>; points: number }>;
  byCashier: ReadonlyArray<{ cashier: string | null; counts: Record<S, number>; points: number }>;
  silent: readonly string[];
}

/** `states`: the columns, in order; `stateWord`: a state's heading, as the report on screen words it. */
export function shopReportToCsv<S extends string>(
  report: ShopReportFacts<S>,
  states: readonly S[],
  stateWord: (state: S) => string,
): string {
  const header = [
    t('shopReport.csv.group'),
    t('shopReport.csv.name'),
    ...states.map(stateWord),
    t('shiftReport.points'),
  ];
  const row = (group: string, who: string, counts: Record<S, number>, points: number): string[] => [
    group,
    who,
    ...states.map((state) => String(counts[state])),
    String(points),
  ];
  const rows = [
    header,
    row(t('shopReport.csv.shop'), '', report.redemptions, report.pointsDeducted),
    ...report.byTill.map((line) => row(t('shopReport.csv.till'), line.till, line.counts, line.points)),
    ...report.byReward.map((line) => row(t('shopReport.csv.reward'), line.reward, line.counts, line.points)),
    ...report.byCashier.map((line) =>
      row(t('shopReport.csv.cashier'), line.cashier ?? t('shiftReport.nobodyNamed'), line.counts, line.points),
    ),
    ...report.silent.map((till) => [t('shopReport.csv.silent'), till]),
  ];
  return csvText(rows);
}
