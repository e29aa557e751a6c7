/** Figure 3: filling an empty cache from the sandbox, ours beside sequential paging. */
import { startSandbox } from '../../sandbox';
import { BENCH_KEY, type BenchBrowser } from './bench-browser';
import type { FillBenchResult } from './page/fill-bench';
import type { Report } from './report';
import { summarize } from './stats';

const SECTION = '3 cache fill';
/** What a cashier types while the fill runs: names, two words, digits, a full local number. */
const CASHIER_QUERIES = ['lay', 'omar al', 'müll', '4567', '0501234567', 'sør', 'fatima kh', '5812'];

export async function fillFigures(bench: BenchBrowser, report: Report, options: { customers: number; sequentialPages: number }): Promise<void> {
  const generating = performance.now();
  const sandbox = await startSandbox({ customers: options.customers, keys: { [BENCH_KEY]: 'coffee-club' } });
  report.note(`Fill: the sandbox generated ${options.customers.toLocaleString('en-GB')} extra customers in ${((performance.now() - generating) / 1000).toFixed(1)} s.`);
  try {
    await bench.useSandbox(sandbox);
    const result = (await bench.page.evaluate(
      (args) => window.bench.fillBench(args),
      { perPage: 100, sequentialPages: options.sequentialPages, cashierQueries: CASHIER_QUERIES },
    )) as FillBenchResult;
    const { refresh, sequential } = result;
    if (refresh.state !== 'idle') throw new Error(`The refresh stopped: ${refresh.stoppedBecause ?? refresh.state}`);
    if (sequential.stoppedBecause) throw new Error(`Sequential paging stopped: ${sequential.stoppedBecause}`);

    const split = (run: typeof refresh) =>
      `fetch (page -> bridge -> core -> sandbox and back) ${(run.fetchMs / 1000).toFixed(1)} s, write-through (putCustomers) ${(run.writeMs / 1000).toFixed(1)} s`;
    report.note(`Fill, CacheRefresh: ${split(refresh)}, summed over its concurrent pages, in ${(refresh.ms / 1000).toFixed(1)} s of wall time.`);
    report.note(`Fill, sequential: ${split(sequential)} in ${(sequential.ms / 1000).toFixed(1)} s.`);
    const ourRate = refresh.customers / (refresh.ms / 1000);
    const sequentialRate = sequential.customers / (sequential.ms / 1000);
    report.add({
      id: 'fill.refresh.seconds',
      section: SECTION,
      label: `CacheRefresh: ${refresh.customers.toLocaleString('en-GB')} customers, ${refresh.pages} pages of 100`,
      unit: 's',
      value: refresh.ms / 1000,
      target: { text: `100,000 in < 30 s`, met: (100_000 / ourRate) < 30 },
    });
    report.add({ id: 'fill.refresh.rate', section: SECTION, label: 'CacheRefresh rate', unit: 'customers/s', value: ourRate });
    report.add({
      id: 'fill.sequential.rate',
      section: SECTION,
      label: `sequential paging rate (${sequential.pages} pages, same writes)`,
      unit: 'customers/s',
      value: sequentialRate,
    });
    const ratio = ourRate / sequentialRate;
    report.add({ id: 'fill.ratio', section: SECTION, label: 'CacheRefresh / sequential', unit: 'x', value: ratio, target: { text: '>= 2x', met: ratio >= 2 } });
    const during = summarize(result.searchDuringFill);
    report.add({
      id: 'fill.search_during_fill',
      section: SECTION,
      label: "cashier's search (CustomerCache.search) during the fill",
      unit: 'ms',
      summary: during,
      target: { text: 'p95 < 10 ms', met: during.p95 < 10 },
    });
    const indexDuring = summarize(result.indexSearchDuringFill);
    report.add({
      id: 'fill.index_search_during_fill',
      section: SECTION,
      label: "the same searches' in-memory index part alone",
      unit: 'ms',
      summary: indexDuring,
      note: 'Beside the full search: a small figure here means the cashier waits on IndexedDB, not on a busy page.',
    });
  } finally {
    await sandbox.close();
  }
}
