/**
 * The first start of a till upgraded from before sealing: the search section's cache, seeded in
 * clear, sealed by the app's sealing pass (renderer/offline/sealing-pass.ts) in the bench page.
 * Target at 100,000 customers: under 30 s (issue 50).
 */
import type { BenchBrowser } from './bench-browser';
import type { SealingBenchResult } from './page/sealing-bench';
import type { Report } from './report';

export async function sealingFigures(bench: BenchBrowser, report: Report, dbName: string, size: number): Promise<void> {
  const result = (await bench.page.evaluate((db) => window.bench.sealingBench(db), dbName)) as SealingBenchResult;
  if (!result.done) throw new Error(`The sealing pass at ${size} stopped before it was done.`);
  const sizeLabel = size.toLocaleString('en-GB');
  report.add({
    id: `sealing.${size}.seconds`,
    section: `2 ready @${sizeLabel}`,
    label: `first start after the upgrade: ${sizeLabel} customers' cache sealed by the sealing pass`,
    unit: 's',
    value: result.ms / 1000,
    note: `${result.sealed.toLocaleString('en-GB')} records sealed (customer blocks, search and listing chunks, phone digests) in ${result.transactions} transactions, no cashier searching.`,
    ...(size >= 100_000 && size < 1_000_000
      ? { target: { text: '100,000 in < 30 s', met: (result.ms / 1000) * (100_000 / size) < 30 } }
      : {}),
  });
}
