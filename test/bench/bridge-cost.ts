/**
 * What the bench's test bridge costs a call: in the bench browser, the page calls
 * `window.till.getState` (a small answer) and `window.till.customerPage` (pages of 100
 * customers the sandbox has not served before, then the same pages answered 304) one at a
 * time and 3 at a time; the page's
 * wait is set beside the time the core's handler took and the Node process's CPU time.
 *
 *   npx tsx test/bench/bridge-cost.ts [--customers=100000] [--only=getState|customerPage|customerPage304] [--calls=150]
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '../../sandbox';
import { BENCH_KEY, startBenchBrowser } from './bench-browser';

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const customers = Number(arg('customers') ?? 100_000);
const only = arg('only');
const CALLS = Number(arg('calls') ?? 150);
/**
 * The Node main thread's own time on a CPU and waiting for one, in ms (Linux's schedstat;
 * zeros elsewhere): the process's CPU time also counts the GC's and other threads.
 */
function mainThreadTimes(): { onCpu: number; waiting: number } {
  try {
    const [onCpu = 0, waiting = 0] = readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ').map(Number);
    return { onCpu: onCpu / 1e6, waiting: waiting / 1e6 };
  } catch {
    return { onCpu: 0, waiting: 0 };
  }
}

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
      // The same pages again with the tags they came with: every answer a 304.
      ['customerPage304', 3, 201 + (round - 1) * 400],
    ] as const) {
      if (only && only !== operation) continue;
      const before = bench.coreCalls.length;
      const cpu = process.cpuUsage();
      const thread = mainThreadTimes();
      const { ms, calls } = await bench.page.evaluate(
        async ({ operation, inFlight, first, calls }) => {
          let next = 0;
          const tags = ((window as unknown as { benchTags?: Map<number, string> }).benchTags ??= new Map());
          const started = performance.now();
          // No named functions here: tsx would wrap them in a helper the page does not have.
          await Promise.all(
            Array.from({ length: inFlight }, async () => {
              while (next < calls) {
                const n = next++;
                if (operation === 'getState') {
                  const state = await window.till.getState();
                  if (!state.ok) throw new Error(JSON.stringify(state.error));
                  continue;
                }
                const tag = operation === 'customerPage304' ? tags.get(first + n) : undefined;
                const result = await window.till.customerPage({
                  page: first + n,
                  per_page: 100,
                  ...(tag ? { if_none_match: tag } : {}),
                });
                if (!result.ok) throw new Error(JSON.stringify(result.error));
                if (result.etag) tags.set(first + n, result.etag);
                if (tag && !result.notModified) throw new Error(`Page ${first + n} was not a 304.`);
              }
            }),
          );
          return { ms: performance.now() - started, calls };
        },
        { operation, inFlight, first, calls: CALLS },
      );
      const { user, system } = process.cpuUsage(cpu);
      const { onCpu, waiting } = mainThreadTimes();
      const core = bench.coreCalls.slice(before).reduce((sum, call) => sum + call.ms, 0);
      const perCall = (ms: number) => (ms / calls).toFixed(2);
      console.log(
        `${operation.padEnd(15)} ${inFlight} in flight: ${perCall(ms)} ms a call in the page; core handler ${perCall(core)} ms; ` +
          `Node process CPU ${perCall((user + system) / 1000)} ms, main thread on CPU ${perCall(onCpu - thread.onCpu)} ms, ` +
          `waiting for a CPU ${perCall(waiting - thread.waiting)} ms`,
      );
    }
  }
} finally {
  await bench.close();
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
}
