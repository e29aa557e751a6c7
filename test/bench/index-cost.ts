/**
 * What each index of the customer blocks adds to a write as the base grows (see
 * page/index-cost.ts): in the bench browser, a base of `--customers` written in
 * transactions of `--per-transaction` customers, into stores with each index set. Beside
 * the time in transactions, the browser process's processor time a customer, counted until
 * a few seconds after the last commit: IndexedDB's compactions run after the commits, so
 * only this shows what an index costs a machine whose cores are busy.
 *
 *   npx tsx test/bench/index-cost.ts [--customers=1000000] [--per-transaction=192]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBenchBrowser } from './bench-browser';
import { startCpuSampler } from './cpu-sampler';
import { INDEX_SCHEMAS } from './page/index-cost';

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const customers = Number(arg('customers') ?? 1_000_000);
const perTransaction = Number(arg('per-transaction') ?? 192);
const ms = (value: number) => value.toFixed(3);
/** Long enough for the compactions a base of 100,000 leaves behind to finish. */
const SETTLE_MS = 3_000;

console.log(`${customers.toLocaleString('en-GB')} customers, ${perTransaction} a transaction: ms a customer`);
// A browser and profile each: the files a dropped million-customer database leaves to
// clean up slowed the next schema's writes by half or more.
for (const schema of INDEX_SCHEMAS) {
  const dir = await mkdtemp(join(tmpdir(), 'index-cost-'));
  const bench = await startBenchBrowser(dir);
  try {
    const started = performance.now();
    const cpu = startCpuSampler();
    const startedAtEpoch = Date.now();
    const result = await bench.page.evaluate((args) => window.bench.indexCost(args), {
      schema,
      customers,
      perTransaction,
    });
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    cpu.stop();
    const browser = cpu.available
      ? `, browser processor ${ms(((cpu.between(startedAtEpoch, Date.now()).get('browser') ?? 0) * 1000) / customers)}`
      : '';
    const { all, firstTenth, lastTenth } = result.msPerCustomer;
    console.log(
      `${schema.padEnd(16)} all ${ms(all)}, first tenth ${ms(firstTenth)}, last tenth ${ms(lastTenth)}${browser} (${((performance.now() - started) / 1000).toFixed(0)} s)`,
    );
  } finally {
    await bench.close();
    await rm(dir, { recursive: true, force: true });
  }
}
