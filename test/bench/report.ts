/**
 * The benchmark's figures: each with its summary, the target it answers to and whether it
 * met it, printed as one table and written to test/bench/results.json.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { format, resolveConfig } from 'prettier';
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
  /** When the figure was measured and how loaded the machine was (a partial run keeps older figures). */
  measured?: Measured;
}

export interface Measured {
  when: string;
  /** 1-minute load average before and after the run, and the CPU count. */
  loadBefore: number;
  loadAfter: number;
  cpus: number;
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
      const median = f.summary
        ? formatNumber(f.summary.median, f.unit)
        : f.value !== undefined
          ? formatNumber(f.value, f.unit)
          : '';
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
    const line = (row: string[]) =>
      row.map((cell, c) => (c >= 2 && c <= 4 ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!))).join('  ');
    return [line(rows[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n');
  }

  /**
   * Writes results.json: this run's figures, plus those of an earlier run that this one did
   * not measure (a run of some sections only), each with when and under what load it was
   * measured. Returns every figure written.
   */
  async write(file: string, environment: Record<string, unknown>, measured: Measured): Promise<Figure[]> {
    for (const figure of this.figures) figure.measured = measured;
    const ours = new Set(this.figures.map((f) => f.id));
    const earlier = (await readFigures(file)).filter((f) => !ours.has(f.id));
    const figures = [...this.figures, ...earlier].sort((a, b) => a.section.localeCompare(b.section));
    const body = {
      ...environment,
      figures,
      targets: {
        total: figures.filter((f) => f.target).length,
        missed: figures.filter((f) => f.target && !f.target.met).map((f) => f.id),
      },
      notes: this.notes,
    };
    await writeFile(file, `${JSON.stringify(body, null, 2)}\n`);
    return figures;
  }
}

/** The figures of a results.json (none when there is none); older files without `measured` get the file's own time and load. */
export async function readFigures(file: string): Promise<Figure[]> {
  let body: {
    figures?: Figure[];
    when?: string;
    loadAverage?: { before?: number[]; after?: number[] };
    machine?: { cpus?: number };
  };
  try {
    body = JSON.parse(await readFile(file, 'utf8')) as typeof body;
  } catch {
    return [];
  }
  const figures = Array.isArray(body.figures)
    ? body.figures.filter((f) => typeof f.id === 'string' && typeof f.section === 'string')
    : [];
  const fallback: Measured | undefined =
    body.when && body.loadAverage?.before && body.loadAverage.after
      ? {
          when: body.when,
          loadBefore: body.loadAverage.before[0] ?? NaN,
          loadAfter: body.loadAverage.after[0] ?? NaN,
          cpus: body.machine?.cpus ?? NaN,
        }
      : undefined;
  return figures.map((f) => (f.measured || !fallback ? f : { ...f, measured: fallback }));
}

const TABLE_START = '<!-- bench-figures:start (written by npm run bench from test/bench/results.json; do not edit) -->';
const TABLE_END = '<!-- bench-figures:end -->';

/** The figures as one Markdown table, for docs/benchmark.md. */
export function markdownTable(figures: readonly Figure[]): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  const rows = figures.map((f) => {
    const value = f.summary
      ? formatNumber(f.summary.median, f.unit)
      : f.value !== undefined
        ? formatNumber(f.value, f.unit)
        : '';
    const p95 = f.summary ? formatNumber(f.summary.p95, f.unit) : '';
    const met = f.target ? (f.target.met ? 'yes' : '**no**') : '';
    const when = f.measured
      ? `${f.measured.when.slice(0, 16).replace('T', ' ')} UTC, load ${f.measured.loadBefore.toFixed(1)} → ${f.measured.loadAfter.toFixed(1)} on ${f.measured.cpus} CPUs`
      : '';
    return `| ${[f.section, f.label, value, p95, f.target?.text ?? '', met, when].map(cell).join(' | ')} |`;
  });
  return [
    '| Section | Figure | Median or value | p95 | Target | Met | Measured |',
    '|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

/** Replaces the table between the markers of `docFile` with the figures; the rest of the file is left as it is. */
export async function writeDocTable(docFile: string, figures: readonly Figure[]): Promise<void> {
  const doc = await readFile(docFile, 'utf8');
  const start = doc.indexOf(TABLE_START);
  const end = doc.indexOf(TABLE_END);
  if (start < 0 || end < start)
    throw new Error(`${docFile} has lost its figure table markers; put back ${TABLE_START} and ${TABLE_END}.`);
  const table = markdownTable(figures);
  const text = `${doc.slice(0, start + TABLE_START.length)}\n${table}\n${doc.slice(end)}`;
  // Written as Prettier writes it, so the lint run of `npm test` stays clean after a bench.
  const options = await resolveConfig(docFile);
  await writeFile(docFile, await format(text, { ...options, filepath: docFile }));
}

/** A number with its unit, rounded for reading: 0.043 ms, 12.4 ms, 1,234 customers/s. */
export function formatNumber(value: number, unit: string): string {
  if (!Number.isFinite(value)) return 'n/a';
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : Math.abs(value) >= 1 ? 2 : 3;
  return `${value.toLocaleString('en-GB', { maximumFractionDigits: digits, minimumFractionDigits: 0 })} ${unit}`.trim();
}
