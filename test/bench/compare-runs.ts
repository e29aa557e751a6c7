/**
 * Benchmark runs from before a change against runs after it, figure by figure (compare.ts is
 * the command). A figure is "outside" when no after run comes within the tolerance of the
 * range the before runs spanned: with two runs or more a side, that range is the machine's own
 * noise, which for figures of a few microseconds is often wider than 10%. Timings compare by
 * their p95, single figures by their value.
 */
import type { Figure } from './report';

export interface Compared {
  id: string;
  label: string;
  unit: string;
  before: number[];
  after: number[];
  /** No after run within the tolerance of the before runs' range: 'higher' or 'lower' than it. */
  outside: 'higher' | 'lower' | null;
}

/** The number a figure is compared by: its p95 for timings, its value otherwise. */
export function comparedValue(figure: Figure): number | null {
  const value = figure.summary ? figure.summary.p95 : figure.value;
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** Every run gave the figure a number. */
function allKnown(values: (number | null)[]): values is number[] {
  return values.every((value) => value !== null);
}

/** Every figure the runs of both sides share, in the first before run's order. */
export function compareRuns(before: Figure[][], after: Figure[][], tolerancePercent: number): Compared[] {
  const slack = tolerancePercent / 100;
  const byId = (runs: Figure[][], id: string) =>
    runs.map((run) => run.find((figure) => figure.id === id)).map((figure) => (figure ? comparedValue(figure) : null));
  const compared: Compared[] = [];
  for (const figure of before[0] ?? []) {
    const was = byId(before, figure.id);
    const now = byId(after, figure.id);
    if (!allKnown(was) || !allKnown(now) || now.length === 0) continue;
    const low = Math.min(...was) * (1 - slack);
    const high = Math.max(...was) * (1 + slack);
    const outside = now.every((value) => value > high) ? 'higher' : now.every((value) => value < low) ? 'lower' : null;
    compared.push({ id: figure.id, label: figure.label, unit: figure.unit, before: was, after: now, outside });
  }
  return compared;
}
