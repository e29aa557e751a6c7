/**
 * What one page of the cache fill costs on the Node side, without the browser: the core's
 * `till:customers:page` handler against a sandbox with 100,000 generated customers: pages
 * the sandbox has not served before (as in a first fill), pages served before, and pages
 * answered 304 (their entity tag sent back), one at a time and 3 at a time; also the sandbox
 * alone (a plain GET). Wall and CPU time per page; the CPU time is steadier on a busy machine.
 *
 *   npx tsx test/bench/page-cost.ts [--customers=100000] [--pages=100]
 *   node --cpu-prof --import tsx test/bench/page-cost.ts      # where the time goes
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAppCore } from '../../electron/bridge/app-core';
import { CHANNELS } from '../../common/contract';
import { startSandbox } from '../../sandbox';
import { createTestCipher } from '../support/test-cipher';

const arg = (name: string, fallback: number) => {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  return found ? Number(found.slice(name.length + 3)) : fallback;
};
const CUSTOMERS = arg('customers', 100_000);
const PAGES = arg('pages', 100);
const KEY = 'page-cost-key-0001';
const ORIGIN = 'http://127.0.0.1:1';

const dir = await mkdtemp(join(tmpdir(), 'page-cost-'));
const generating = performance.now();
const sandbox = await startSandbox({ customers: CUSTOMERS, keys: { [KEY]: 'coffee-club' } });
console.log(`sandbox: ${CUSTOMERS} extra customers in ${((performance.now() - generating) / 1000).toFixed(1)} s`);
const core = await createAppCore({
  userDataDir: dir,
  cipher: createTestCipher(),
  appOrigin: ORIGIN,
  log: { info: () => undefined, warn: (m) => console.warn(m), error: (m) => console.error(m) },
});
const handler = core.handlers[CHANNELS.customerPage];
const sender = { url: `${ORIGIN}/index.html` };
await core.handlers[CHANNELS.updateSettings](sender, { baseUrl: sandbox.url, defaultCountry: 'SA' });
await core.handlers[CHANNELS.setApiKey](sender, { apiKey: KEY });

type PageResult = { ok: boolean; notModified?: boolean; etag?: string; error?: unknown };
const tags = new Map<number, string>();
/** Pages 1-200 are fetched again and again (warm); each round's cold pages are new to the sandbox. */
const WARM = (i: number) => 1 + i;
const COLD = (round: number) => (i: number) => 1 + round * PAGES + i;

async function corePage(page: number, conditional: boolean): Promise<void> {
  const tag = conditional ? tags.get(page) : undefined;
  const result = (await handler(sender, { page, per_page: 100, ...(tag ? { if_none_match: tag } : {}) })) as PageResult;
  if (!result.ok) throw new Error(`page ${page}: ${JSON.stringify(result.error)}`);
  if (conditional && !result.notModified) throw new Error(`page ${page} was not a 304`);
  if (result.etag) tags.set(page, result.etag);
}

async function plainGet(page: number, conditional: boolean): Promise<void> {
  const tag = conditional ? tags.get(page) : undefined;
  const response = await fetch(`${sandbox.url}/v1/customers?page=${page}&per_page=100`, {
    headers: { accept: 'application/json', authorization: `Bearer ${KEY}`, ...(tag ? { 'if-none-match': tag } : {}) },
  });
  await response.arrayBuffer();
}

async function measure(
  label: string,
  call: (page: number, conditional: boolean) => Promise<void>,
  inFlight: number,
  conditional: boolean,
  pageOf: (i: number) => number = WARM,
): Promise<void> {
  let next = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const worker = async () => {
    while (next < PAGES) await call(pageOf(next++), conditional);
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  const ms = performance.now() - started;
  const { user, system } = process.cpuUsage(cpu);
  const cpuMs = (user + system) / 1000;
  console.log(
    `${label.padEnd(34)} ${(ms / PAGES).toFixed(2).padStart(6)} ms/page wall, ${(cpuMs / PAGES).toFixed(2).padStart(6)} ms/page CPU  (${PAGES} pages, ${inFlight} in flight)`,
  );
}

try {
  // Learns the warm pages' tags (and warms the JIT).
  await measure('core handler, sequential, 200, cold', corePage, 1, false);
  for (const round of [1, 2, 3]) {
    console.log(`-- round ${round}`);
    await measure('core handler, sequential, 200, cold', corePage, 1, false, COLD(round));
    await measure('core handler, 3 in flight, 200, cold', corePage, 3, false, COLD(round + 3));
    await measure('sandbox alone (fetch), 200', plainGet, 1, false);
    await measure('sandbox alone (fetch), 304', plainGet, 1, true);
    await measure('core handler, sequential, 200', corePage, 1, false);
    await measure('core handler, 3 in flight, 200', corePage, 3, false);
    await measure('core handler, sequential, 304', corePage, 1, true);
    await measure('core handler, 3 in flight, 304', corePage, 3, true);
  }
} finally {
  await core.dispose();
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
}
