/**
 * `npm run bench`: what makes a till fast, beside the naive way, in one run, in Debian's
 * headless Chromium against the sandbox on 127.0.0.1. Prints a table and writes
 * test/bench/results.json, and rewrites the figures table of docs/benchmark.md from it.
 *
 *   npm run bench                     the default run (10,000 and 100,000 cached customers)
 *   npm run bench -- --million        also 1,000,000 cached customers (several minutes more)
 *   npm run bench -- --only=search,fill,scan,replay,size,shop,display   some sections only
 */
// First: no multicast or broadcast on the machine's own network (docs/tests.md).
import '../support/host-network-guard-setup';
import { readFile } from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { requireChromium } from '../e2e/harness';
import { startBenchBrowser } from './bench-browser';
import { displayFigures, serialFigures } from './display-section';
import { fillFigures } from './fill-section';
import { replayFigures } from './replay-section';
import { readFigures, Report, writeDocTable } from './report';
import { scanFigures } from './scan-section';
import { readinessFigures, searchFigures, seedSearchCache } from './search-section';
import { sealingFigures } from './sealing-section';
import { shopFigures } from './shop-section';
import { sizeFigures } from './size-section';
import { waitForQuietBrowser } from './settle';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const RESULTS_FILE = join(ROOT, 'test/bench/results.json');
const DOC_FILE = join(ROOT, 'docs/benchmark.md');
const SECTIONS = ['search', 'fill', 'replay', 'scan', 'size', 'shop', 'display'] as const;
/** What the fill over a wire adds to every call: a service across the internet, seen from a shop. */
const WIRE_LATENCY_MS = 25;
type Section = (typeof SECTIONS)[number];

function parseArgs(argv: readonly string[]): { million: boolean; only: Set<Section>; docOnly: boolean } {
  let million = false;
  let docOnly = false;
  let only = new Set<Section>(SECTIONS);
  for (const arg of argv) {
    if (arg === '--million') million = true;
    else if (arg === '--doc-only') docOnly = true;
    else if (arg.startsWith('--only=')) {
      const wanted = arg.slice('--only='.length).split(',');
      const unknown = wanted.filter((name) => !(SECTIONS as readonly string[]).includes(name));
      if (unknown.length > 0)
        throw new UsageError(`Unknown section "${unknown.join(', ')}"; sections are ${SECTIONS.join(', ')}.`);
      only = new Set(wanted as Section[]);
    } else throw new UsageError(`Unknown option "${arg}".`);
  }
  return { million, only, docOnly };
}

class UsageError extends Error {}

async function packageVersions(): Promise<Record<string, string>> {
  const names = [
    'dexie',
    'vue',
    'pinia',
    'vite',
    'esbuild',
    'playwright-core',
    'typescript',
    'fastify',
    'axios',
    'libphonenumber-js',
    'zod',
    'electron',
  ];
  const versions: Record<string, string> = {};
  for (const name of names) {
    const manifest = JSON.parse(await readFile(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as {
      version: string;
    };
    versions[name] = manifest.version;
  }
  return versions;
}

const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

async function timed<T>(label: string, step: () => Promise<T>): Promise<T> {
  const started = performance.now();
  process.stdout.write(`- ${label}...\n`);
  const result = await step();
  process.stdout.write(`  done in ${seconds(started)}\n`);
  return result;
}

async function main(): Promise<void> {
  const { million, only, docOnly } = parseArgs(process.argv.slice(2));
  if (docOnly) {
    await writeDocTable(DOC_FILE, await readFigures(RESULTS_FILE));
    console.log(`Figures table in ${DOC_FILE} rewritten from ${RESULTS_FILE}.`);
    return;
  }
  requireChromium();
  const started = performance.now();
  // The machine may be shared: the load before and after says how much to trust the times.
  const loadBefore = loadavg();
  const report = new Report();
  const work = await mkdtemp(join(tmpdir(), 'till-bench-'));
  const timings: Record<string, number> = {};
  let chromiumVersion = 'unknown';
  let blockedRequests: string[] = [];
  try {
    const needsBenchPage = only.has('search') || only.has('fill') || only.has('replay') || only.has('display');
    if (needsBenchPage) {
      const bench = await startBenchBrowser(join(work, 'bench'));
      chromiumVersion = bench.chromiumVersion;
      try {
        if (only.has('search')) {
          const sizes = million ? [10_000, 100_000, 1_000_000] : [10_000, 100_000];
          for (const size of sizes) {
            const sizeStarted = performance.now();
            const db = await timed(`seeding ${size.toLocaleString('en-GB')} customers`, () =>
              seedSearchCache(bench, report, size),
            );
            const repeats = size >= 1_000_000 ? 1 : 3;
            // Seeded in clear: the readiness of a till before sealing, then its first start's pass.
            const before =
              size >= 100_000
                ? await timed(`readiness at ${size.toLocaleString('en-GB')}, records in clear`, () =>
                    readinessFigures(bench, report, db, size, repeats, { beforeSealing: true }),
                  )
                : undefined;
            await timed(`sealing ${size.toLocaleString('en-GB')} customers (the first start's pass)`, () =>
              sealingFigures(bench, report, db, size),
            );
            await timed(`search at ${size.toLocaleString('en-GB')}`, () => searchFigures(bench, report, db, size));
            if (size >= 100_000) {
              await timed(`readiness at ${size.toLocaleString('en-GB')}, sealed`, () =>
                readinessFigures(bench, report, db, size, repeats, { beforeSealing: false, before }),
              );
            }
            await bench.page.evaluate((name) => window.indexedDB.deleteDatabase(name), db);
            timings[`search_${size}_s`] = (performance.now() - sizeStarted) / 1000;
          }
        }
        if (only.has('fill')) {
          // Not the search section's leftovers: its databases' deletion runs on in the browser.
          const settled = await timed('waiting for the browser to settle', waitForQuietBrowser);
          if (settled) {
            report.note(
              `The fill section waited ${settled.seconds.toFixed(0)} s for the browser to settle${settled.quiet ? '' : ', and it never did'}.`,
            );
          }
          await timed('cache fill from 100,000 customers, two unchanged refreshes, then a fill over a wire', () =>
            fillFigures(bench, report, {
              customers: 100_000,
              sequentialPages: 150,
              unchanged: true,
              wireLatencyMs: WIRE_LATENCY_MS,
            }),
          );
          if (million) {
            await timed('cache fill from 1,000,000 customers', () =>
              fillFigures(bench, report, { customers: 1_000_000, sequentialPages: 0, unchanged: false }),
            );
          }
        }
        if (only.has('replay')) await timed('replay of 1,000 redemptions', () => replayFigures(bench, report, 1_000));
        if (only.has('display'))
          await timed('card serial to customer offline at 100,000', () => serialFigures(bench, report, 100_000, 200));
      } finally {
        blockedRequests = bench.blockedRequests;
        if (bench.coreLog.length > 0)
          report.note(
            `The core logged ${bench.coreLog.length} warnings/errors (expected under injected faults); first: ${bench.coreLog[0]}`,
          );
        await bench.close();
      }
    }
    if (only.has('scan')) await timed('scan to answer in the app page', () => scanFigures(report, 20));
    if (only.has('size')) await timed('renderer size', () => sizeFigures(report, join(work, 'renderer')));
    if (only.has('shop')) await timed('shop ledger: 500 offline redemptions', () => shopFigures(report, 500));
    if (only.has('display')) await timed('till state to customer display', () => displayFigures(report, 40));
  } finally {
    await rm(work, { recursive: true, force: true });
  }

  if (blockedRequests.length > 0)
    report.note(
      `Blocked ${blockedRequests.length} requests not for 127.0.0.1: ${blockedRequests.slice(0, 3).join(', ')}`,
    );
  const totalSeconds = (performance.now() - started) / 1000;
  console.log(`\n${report.table()}\n`);
  for (const note of report.notes) console.log(`note: ${note}`);
  const missed = report.missed;
  console.log(
    `\n${report.figures.filter((f) => f.target).length - missed.length} targets met, ${missed.length} missed${missed.length ? `: ${missed.map((f) => f.id).join(', ')}` : ''}.`,
  );
  console.log(
    `Load average (1, 5, 15 min) before ${loadBefore.map((n) => n.toFixed(1)).join(' ')}, after ${loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')} on ${cpus().length} CPUs.`,
  );
  if (timings.search_1000000_s !== undefined) {
    console.log(
      `The 1,000,000 search section (seeding, search, readiness) took ${timings.search_1000000_s.toFixed(0)} s.`,
    );
  }
  console.log(`Run took ${totalSeconds.toFixed(0)} s${million ? ' (with --million)' : ''}; results in ${RESULTS_FILE}`);
  const loadAfter = loadavg();
  const figures = await report.write(
    RESULTS_FILE,
    {
      when: new Date().toISOString(),
      options: { million, sections: [...only] },
      durationSeconds: totalSeconds,
      sectionSeconds: timings,
      loadAverage: { before: loadBefore, after: loadavg() },
      machine: {
        cpus: cpus().length,
        cpuModel: cpus()[0]?.model ?? 'unknown',
        memoryGiB: totalmem() / 2 ** 30,
        node: process.version,
        platform: `${process.platform} ${process.arch}`,
      },
      chromium: chromiumVersion,
      packages: await packageVersions(),
      blockedRequests,
    },
    { when: new Date().toISOString(), loadBefore: loadBefore[0]!, loadAfter: loadAfter[0]!, cpus: cpus().length },
  );
  // The one table of figures in the docs is this file's, never typed by hand.
  await writeDocTable(DOC_FILE, figures);
  console.log(`Figures table in ${DOC_FILE} rewritten from results.json.`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof UsageError ? `bench: ${error.message}` : error);
    process.exit(error instanceof UsageError ? 2 : 1);
  },
);
