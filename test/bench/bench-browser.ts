/**
 * The benchmark's browser: Debian's headless Chromium with a persistent profile (so
 * IndexedDB lives on disk, as in the app, not in an incognito profile's memory), showing
 * the bench page (test/bench/page, bundled with esbuild) with `window.till` wired to the
 * real main-process core exactly as the e2e harness wires the app's page.
 *
 * Every request the page makes that is not for 127.0.0.1 is refused (by a proxy that
 * answers nothing, refusing-proxy.ts) and counted.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build as esbuild } from 'esbuild';
import { chromium, type BrowserContext, type CDPSession, type Page } from 'playwright-core';
import { createAppCore, type AppCore } from '../../electron/bridge/app-core';
import { CHANNELS, type Channel, type Operation, type TillOperations } from '../../common/contract';
import type { Sandbox } from '../../sandbox';
import { bridgeInitScript, CHROMIUM_ARGS, CHROMIUM_PATH, serveFolder } from '../e2e/harness';
import { createTestCipher } from '../support/test-cipher';
import {
  answerBridgeCalls,
  BRIDGE_PATH,
  BRIDGE_WORKER_FILE,
  bridgeWorkerScript,
  invokeScript,
  type BridgeHandler,
} from './socket-bridge';
import { startRefusingProxy } from './refusing-proxy';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BENCH_KEY = 'bench-till-key-7301';

async function buildBenchPage(outDir: string): Promise<void> {
  await mkdir(outDir, { recursive: true });
  await esbuild({
    entryPoints: [join(ROOT, 'test/bench/page/bench-page.ts')],
    outfile: join(outDir, 'bench.js'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'chrome130',
    minify: true,
    logLevel: 'warning',
  });
  await writeFile(
    join(outDir, 'index.html'),
    '<!doctype html><html><head><meta charset="utf-8"><title>Loyalty Till bench</title>' +
      '<script type="module" src="./bench.js"></script></head><body></body></html>\n',
  );
  await writeFile(join(outDir, BRIDGE_WORKER_FILE), bridgeWorkerScript(BRIDGE_PATH));
}

export interface BenchBrowser {
  page: Page;
  context: BrowserContext;
  core: AppCore;
  /** The bench page's URL, e.g. `http://127.0.0.1:41234/index.html`. */
  pageUrl: string;
  chromiumVersion: string;
  /** Requests refused because they were not for 127.0.0.1 (should stay 0). */
  blockedRequests: string[];
  /** Warnings and errors the core logged (faults are expected to produce some). */
  coreLog: string[];
  /**
   * Every bridge call the page made, with the time its handler took in the core (the app's
   * own part: validation, axios, the sandbox); the rest of the page's wait is the test
   * bridge (a WebSocket on loopback, socket-bridge.ts), which Electron's IPC does not pay.
   */
  coreCalls: { channel: string; startedAt: number; ms: number }[];
  /** Points the core at a sandbox, with the bench key, as Settings would. */
  useSandbox(sandbox: Pick<Sandbox, 'url'>): Promise<void>;
  /** JS heap in use after a full garbage collection, in bytes. */
  heapUsedAfterGc(): Promise<number>;
  close(): Promise<void>;
}

export async function startBenchBrowser(workDir: string): Promise<BenchBrowser> {
  const pageDir = join(workDir, 'page');
  const [, initScript] = await Promise.all([buildBenchPage(pageDir), bridgeInitScript()]);
  const coreCalls: BenchBrowser['coreCalls'] = [];
  // Set once the core exists; the bridge answers only after the page has loaded.
  let invokeCore: BridgeHandler = async () => {
    throw new Error('The core is not ready.');
  };
  const { server, origin } = await serveFolder(
    pageDir,
    {},
    // Cross-origin isolation gives performance.now() microsecond resolution (100 µs
    // otherwise), which the in-memory index's sub-millisecond answers need to be measured.
    { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' },
  );
  const bridge = answerBridgeCalls(server, BRIDGE_PATH, (...call) => invokeCore(...call));
  const pageUrl = `${origin}/index.html`;
  const coreLog: string[] = [];
  const core = await createAppCore({
    userDataDir: join(workDir, 'user-data'),
    cipher: createTestCipher(),
    appOrigin: origin,
    requestTimeoutMs: 5_000,
    log: { info: () => undefined, warn: (m) => coreLog.push(m), error: (m) => coreLog.push(m) },
  });
  invokeCore = async (channel, payload) => {
    const handler = core.handlers[channel as Channel];
    if (!handler) throw new Error(`No such bridge channel: ${channel}`);
    const startedAt = Date.now();
    const started = performance.now();
    try {
      return await handler({ url: pageUrl }, payload);
    } finally {
      coreCalls.push({ channel, startedAt, ms: performance.now() - started });
    }
  };
  // Anything not for 127.0.0.1 goes to a proxy that refuses it (refusing-proxy.ts); the page's
  // attempts fail, and only failed requests cross over to be counted, not every bridge call.
  const proxy = await startRefusingProxy();
  const context = await chromium.launchPersistentContext(join(workDir, 'profile'), {
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 800 },
    proxy: { server: proxy.url, bypass: '127.0.0.1' },
  });
  const blockedRequests: string[] = [];
  context.on('requestfailed', (request) => {
    if (new URL(request.url()).hostname !== '127.0.0.1') blockedRequests.push(request.url());
  });
  await context.addInitScript({ content: `${invokeScript(BRIDGE_WORKER_FILE)}\n${initScript}` });
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(30_000);
  await page.goto(pageUrl);
  await page.waitForFunction(() => typeof window.bench === 'object');
  if (!(await page.evaluate(() => window.crossOriginIsolated)))
    throw new Error('The bench page is not cross-origin isolated: its timer would be too coarse.');
  // A persistent context has no Browser object to ask, and the user agent shows only the
  // major version: the DevTools protocol has the full one.
  const versionSession = await context.newCDPSession(page);
  const { product } = await versionSession.send('Browser.getVersion');
  await versionSession.detach();
  const chromiumVersion = product.replace(/^(Headless)?Chrome\//, '');

  const call = <K extends Operation>(operation: K, payload: TillOperations[K]['payload']) =>
    core.handlers[CHANNELS[operation]]({ url: pageUrl }, payload) as Promise<TillOperations[K]['result']>;

  let cdp: CDPSession | null = null;
  return {
    page,
    context,
    core,
    pageUrl,
    chromiumVersion,
    blockedRequests,
    coreLog,
    coreCalls,
    async useSandbox(sandbox) {
      // Another service is a switch, and a switch forgets the old one's customers and queue
      // (docs/privacy.md). An earlier section's redemptions, queued for a service now gone,
      // are confirmed lost as a manager would confirm them; the sections measure their own.
      const copy = await call('workCopy', { journalLimit: 0 });
      const waiting = copy.ok ? copy.data.items.length : 0;
      if (waiting > 0) {
        const confirmed = await call('confirmWaitingLoss', { waiting });
        if (!confirmed.ok) throw new Error(`Loss not confirmed: ${confirmed.error.message}`);
      }
      const settings = await call('updateSettings', {
        baseUrl: sandbox.url,
        defaultCountry: 'SA',
        tillName: 'Bench till',
      });
      if (!settings.ok) throw new Error(`Settings refused: ${settings.error.message}`);
      const key = await call('setApiKey', { apiKey: BENCH_KEY });
      if (!key.ok) throw new Error(`Key refused: ${key.error.message}`);
    },
    async heapUsedAfterGc() {
      cdp ??= await context.newCDPSession(page);
      await cdp.send('HeapProfiler.collectGarbage');
      const usage = await cdp.send('Runtime.getHeapUsage');
      return usage.usedSize;
    },
    async close() {
      await cdp?.detach().catch(() => undefined);
      await context.close().catch(() => undefined);
      await core.dispose();
      bridge.close();
      await new Promise<void>((done) => (server as Server).close(() => done()));
      await proxy.close();
    },
  };
}
