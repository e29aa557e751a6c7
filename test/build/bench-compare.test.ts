import { expect, test } from 'vitest';
import { compareRuns } from '../bench/compare-runs';
import type { Figure } from '../bench/report';

const timing = (id: string, p95: number): Figure => ({
  id,
  section: 's',
  label: id,
  unit: 'ms',
  summary: { median: p95 / 2, p95, count: 50 },
});
const single = (id: string, value: number): Figure => ({ id, section: 's', label: id, unit: 'x', value });

test('a figure is outside only when no after run comes within the tolerance of the before runs', () => {
  const before = [
    [timing('steady', 1.0), timing('noisy', 1.0), single('rate', 100), timing('slower', 2.0), timing('gone', 1)],
    [timing('steady', 1.05), timing('noisy', 1.6), single('rate', 104), timing('slower', 2.1)],
  ];
  const after = [
    [timing('steady', 1.1), timing('noisy', 1.7), single('rate', 80), timing('slower', 2.5)],
    [timing('steady', 1.2), timing('noisy', 0.95), single('rate', 85), timing('slower', 2.9)],
  ];
  const rows = compareRuns(before, after, 10);
  expect(rows.map((row) => [row.id, row.outside])).toEqual([
    // 1.1 is within 10% of the before range's top (1.05): one after run close enough is enough.
    ['steady', null],
    // The before runs themselves spanned 1.0 to 1.6: that is the noise the after runs are read against.
    ['noisy', null],
    ['rate', 'lower'],
    ['slower', 'higher'],
    // Missing from a run: not compared, rather than compared with nothing.
  ]);
  expect(rows.find((row) => row.id === 'slower')).toMatchObject({ before: [2.0, 2.1], after: [2.5, 2.9] });
});
