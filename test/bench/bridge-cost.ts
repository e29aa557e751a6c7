/**
 * What the bench's test bridge costs a call: in the bench browser, the page calls
 * `window.till.getState` (a small answer) and `window.till.customerPage` (pages of 100
 * customers the sandbox has not served before) one at a time and 3 at a time; the page's
 * wait is set beside the time the core's handler took and the Node process's CPU time.
 *
 *   npx tsx test/bench/bridge-cost.ts [--customers=100000] [--only=getState|customerPage] [--calls=150]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '../../sandbox';
import { BENCH_KEY, startBenchBrowser } from './bench-browser';

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const customers = Number(arg('customers') ?? 100_000);
const only = arg('only');
const CALLS = Number(arg('calls') ?? 150);
const dir = await mkdtemp(join(tmpdir(), 'bridge-cost-'));
const sandbox = await startSandbox({ customers, keys: { [BENCH_KEY]: 'coffee-club' } });
const bench = await startBenchBrowser(dir);
try {
  await bench.useSandbox(sandbox);
  for (const round of [1, 2]) {
    for (const [operation, inFlight, first] of [
      ['getState', 1, 0],
      ['customerPage', 1, 1 + (round - 1) * 400],
      ['customerPage', 3, 201 + (round - 1) * 400],
    ] as const) {
      if (only && only !== operation) continue;
      const before = bench.coreCalls.length;
      const cpu = process.cpuUsage();
      const { ms, calls } = await bench.page.evaluate(
        async ({ operation, inFlight, first, calls }) => {
          let next = 0;
          const started = performance.now();
          // No named functions here: tsx would wrap them in a helper the page does not have.
          await Promise.all(
            Array.from({ length: inFlight }, async () => {
              while (next < calls) {
                const n = next++;
                const result =
                  operation === 'getState'
                    ? await window.till.getState()
                    : await window.till.customerPage({ page: first + n, per_page: 100 });
                if (!result.ok) throw new Error(JSON.stringify(result.error));
              }
            }),
          );
          return { ms: performance.now() - started, calls };
        },
        { operation, inFlight, first, calls: CALLS },
      );
      const { user, system } = process.cpuUsage(cpu);
      const core = bench.coreCalls.slice(before).reduce((sum, call) => sum + call.ms, 0);
      console.log(
        `${operation.padEnd(13)} ${inFlight} in flight: ${(ms / calls).toFixed(2)} ms a call in the page, ` +
          `core ${(core / calls).toFixed(2)} ms, Node CPU ${((user + system) / 1000 / calls).toFixed(2)} ms a call (system ${(system / 1000 / calls).toFixed(2)})`,
      );
    }
  }
} finally {
  await bench.close();
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
}
