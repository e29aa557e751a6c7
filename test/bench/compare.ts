/**
 * Compares benchmark runs from before a change with runs after it (compare-runs.ts):
 *
 *   npm run bench:compare -- --before a.json,b.json --after c.json,d.json [--tolerance 10]
 *
 * Each file is a copy of test/bench/results.json from one whole run. Exits 0 whatever it
 * finds: it informs a note, it does not judge one.
 */
import { readFileSync } from 'node:fs';
import { compareRuns } from './compare-runs';
import type { Figure } from './report';

function readRuns(list: string | undefined): Figure[][] {
  if (!list) throw new Error('Give --before and --after, each a comma-separated list of results.json copies.');
  return list.split(',').map((path) => (JSON.parse(readFileSync(path, 'utf8')) as { figures: Figure[] }).figures);
}

function option(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? undefined : process.argv[at + 1];
}

const tolerance = Number(option('tolerance') ?? '10');
const rows = compareRuns(readRuns(option('before')), readRuns(option('after')), tolerance);
const show = (values: number[]) => values.map((value) => value.toPrecision(3)).join(' / ');
for (const row of rows) {
  const mark = row.outside ? `  <- ${row.outside}` : '';
  console.log(
    `${row.id.padEnd(52)} ${show(row.before).padEnd(22)} -> ${show(row.after).padEnd(22)} ${row.unit}${mark}`,
  );
}
const outside = rows.filter((row) => row.outside);
console.log(
  `\n${rows.length - outside.length} of ${rows.length} figures within ${tolerance}% of the before runs' range; ` +
    `${outside.filter((row) => row.outside === 'higher').length} higher, ${outside.filter((row) => row.outside === 'lower').length} lower.`,
);
