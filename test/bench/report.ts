/**
 * The benchmark's figures: each with its summary, the target it answers to and whether it
 * met it, printed as one table and written to test/bench/results.json.
 */
import { writeFile } from 'node:fs/promises';
import type { Summary } from './stats';

export interface Target {
  /** As the issue states it, e.g. "p95 < 2 ms". */
  text: string;
  met: boolean;
}

export interface Figure {
  /** Stable key for results.json, e.g. `search.100000.exact_phone.index`. */
  id: string;
  section: string;
  label: string;
  unit: string;
  /** Timing figures: median, p95 and count of samples. */
  summary?: Summary;
  /** Single figures (a rate, a size, a count). */
  value?: number;
  target?: Target;
  note?: string;
}

export class Report {
  readonly figures: Figure[] = [];
  readonly notes: string[] = [];

  add(figure: Figure): Figure {
    this.figures.push(figure);
    return figure;
  }

  note(text: string): void {
    this.notes.push(text);
  }

  get missed(): Figure[] {
    return this.figures.filter((figure) => figure.target && !figure.target.met);
  }

  table(): string {
    const rows = [['section', 'figure', 'median', 'p95', 'count', 'target', 'met?']];
    for (const f of this.figures) {
      const median = f.summary ? formatNumber(f.summary.median, f.unit) : f.value !== undefined ? formatNumber(f.value, f.unit) : '';
      rows.push([
        f.section,
        f.label,
        median,
        f.summary ? formatNumber(f.summary.p95, f.unit) : '',
        f.summary ? String(f.summary.count) : '',
        f.target?.text ?? '',
        f.target ? (f.target.met ? 'yes' : 'NO') : '',
      ]);
    }
    const widths = rows[0]!.map((_, c) => Math.max(...rows.map((row) => row[c]!.length)));
    const line = (row: string[]) => row.map((cell, c) => (c >= 2 && c <= 4 ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!))).join('  ');
    return [line(rows[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n');
  }

  async write(file: string, environment: Record<string, unknown>): Promise<void> {
    const body = {
      ...environment,
      figures: this.figures,
      targets: { total: this.figures.filter((f) => f.target).length, missed: this.missed.map((f) => f.id) },
      notes: this.notes,
    };
    await writeFile(file, `${JSON.stringify(body, null, 2)}\n`);
  }
}

/** A number with its unit, rounded for reading: 0.043 ms, 12.4 ms, 1,234 customers/s. */
export function formatNumber(value: number, unit: string): string {
  if (!Number.isFinite(value)) return 'n/a';
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : Math.abs(value) >= 1 ? 2 : 3;
  return `${value.toLocaleString('en-GB', { maximumFractionDigits: digits, minimumFractionDigits: 0 })} ${unit}`.trim();
}
