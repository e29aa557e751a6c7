/**
 * The end-to-end harness: the built renderer in Debian's headless Chromium, served by the
 * browser shell's page server (electron/browser-shell/) with the real main-process handler
 * table behind it, talking to a real sandbox over HTTP on 127.0.0.1. Nothing of the app is
 * replaced: the page's `window.till` is the shell's page bridge, `createTillApi` over the
 * shell's WebSocket, behind its access guard. The core is made here, in the test's process,
 * so that the tests can move its clocks and read its log.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build as esbuild } from 'esbuild';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { vi } from 'vitest';
import type { AppCore } from '../../electron/bridge/app-core';
import { machinePolicySource } from '../../electron/policy/machine-policy';
import type { TillOperations } from '../../common/contract';
import type { LinkReceipt } from '../../electron/links/link-inbox';
import { ServiceClock } from '../../electron/service/service-clock';
import { DEFAULT_DB_NAME } from '../../renderer/offline/db/schema';
import { REPLAY_LOCK_NAME } from '../../renderer/offline/outbox/replayer';
import { startSandbox, type Dialect, type RedemptionRecord, type Sandbox } from '../../sandbox';
import type { CapturedLog } from '../support/captured-log';
import { builtRenderer } from './renderer-build';
import { bundleBridges, startTillServer, type BridgeCall, type TillCall } from './till-server';

export type { BridgeCall } from './till-server';

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
export const VIEWPORT = { width: 1366, height: 768 };

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const SCREENSHOT_DIR = join(ROOT, 'test/e2e/screenshots');

/** The key the harness's sandbox accepts; its last four show in Settings as "ending in 4821". */
export const SERVICE_KEY = 'e2e-till-key-4821';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

/** Fails loudly instead of skipping: a missing browser must turn CI red, not green. */
export function requireChromium(): void {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `End-to-end tests need Debian's Chromium at ${CHROMIUM_PATH}, and it is missing. ` +
        'Install it with `apt-get install -y chromium` (.ci/run does this), then run the tests again.',
    );
  }
}

export { buildRenderer, builtRenderer } from './renderer-build';

/** A static server for a folder (the benchmark's page): nothing outside it. */
export async function serveFolder(
  folder: string,
  /** Paths answered by a handler instead of a file (the bench's bridge). */
  routes: Record<string, (request: IncomingMessage, response: ServerResponse) => Promise<void>> = {},
  /** Sent with every file (the bench page's cross-origin isolation). */
  headers: Record<string, string> = {},
): Promise<{ server: Server; origin: string }> {
  const root = resolve(folder);
  const server = createServer((request, response) => {
    void (async () => {
      const path = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
      const route = routes[path];
      if (route) return route(request, response);
      const file = normalize(join(root, path === '/' ? 'index.html' : path));
      if (!file.startsWith(root + sep)) {
        response.writeHead(403).end();
        return;
      }
      try {
        const body = await readFile(file);
        response.writeHead(200, {
          ...headers,
          'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
        });
        response.end(body);
      } catch {
        response.writeHead(404).end();
      }
    })();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return { server, origin: `http://127.0.0.1:${port}` };
}

/** Every Content-Security-Policy violation is recorded, so tests can prove the built page runs under its policy. */
const CSP_VIOLATION_RECORDER = `
window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', (event) => {
  window.__cspViolations.push(event.violatedDirective + ' ' + (event.blockedURI || ''));
});`;

/** The same factory the preload runs, bundled for the page, with a binding as `invoke` (the benchmark's page). */
export async function bridgeInitScript(): Promise<string> {
  const bundle = await esbuild({
    entryPoints: [join(ROOT, 'common/contract.ts')],
    bundle: true,
    format: 'iife',
    globalName: 'TillContract',
    platform: 'browser',
    target: 'chrome130',
    write: false,
    logLevel: 'silent',
  });
  const code = bundle.outputFiles[0]?.text;
  if (!code) throw new Error('Bundling common/contract.ts produced nothing.');
  return `${code}
${CSP_VIOLATION_RECORDER}
// The push channel, as the preload's ipcRenderer.on: the harness calls __tillPush from Node.
const tillPushListeners = new Set();
Object.defineProperty(window, '__tillPush', {
  value: (channel, payload) => { for (const listener of tillPushListeners) if (listener.channel === channel) listener.fn(payload); },
});
Object.defineProperty(window, 'till', {
  value: TillContract.createTillApi(
    (channel, payload) => window.tillInvoke(channel, payload),
    (channel, fn) => { const entry = { channel, fn }; tillPushListeners.add(entry); return () => tillPushListeners.delete(entry); },
  ),
  writable: false,
  configurable: false,
});`;
}

/**
 * Types like a keyboard-wedge scanner: real key events, each stamped 5–15 ms after the one
 * before, then Enter. The page reads `KeyboardEvent.timeStamp`, which Chromium takes from
 * the event's own time (as it does for a USB scanner's), so a busy test machine delaying
 * delivery does not stretch the burst.
 */
export async function scannerBurst(
  page: Page,
  text: string,
  gapsMs: readonly number[] = [5, 9, 13, 7, 11, 15, 6, 10, 14, 8, 12],
): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  try {
    let time = Date.now() / 1000;
    let index = 0;
    const next = () => (time += (gapsMs[index++ % gapsMs.length] ?? 10) / 1000);
    for (const char of text) {
      const at = next();
      await cdp.send('Input.dispatchKeyEvent', {
        type: 'keyDown',
        key: char,
        text: char,
        unmodifiedText: char,
        timestamp: at,
      });
      await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', key: char, timestamp: at + 0.002 });
    }
    const at = next();
    const enter = { key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13 };
    await cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', ...enter, text: '\r', timestamp: at });
    await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', ...enter, timestamp: at + 0.002 });
  } finally {
    await cdp.detach();
  }
}

export interface Harness {
  page: Page;
  context: BrowserContext;
  /** The till's service; a new object after `restartSandbox`. */
  readonly sandbox: Sandbox;
  core: AppCore;
  /** The served page, e.g. `http://127.0.0.1:41234/index.html`. */
  appUrl: string;
  /** Calls a bridge handler as the app's own page would (for setting up a scenario). */
  call: TillCall;
  /** Points the app at the harness's sandbox with its key, as Settings would. */
  configureService(): Promise<void>;
  /** Loads the app and waits until it has read its state. */
  openApp(): Promise<void>;
  /**
   * A `loyalty-till://` link, delivered as main.ts delivers one from a second instance's
   * command line: through the core's link inbox, pushed to the page on the link channel.
   */
  deliverLink(url: string): LinkReceipt;
  screenshot(name: string): Promise<string>;
  /** Every call the pages made over the bridge, in order (all windows of the context). */
  bridgeCalls: BridgeCall[];
  /** What the main process wrote to its log (nothing is printed). */
  log: CapturedLog;
  /** The till's user-data folder (settings, the key, the manager PIN's hash). */
  userDataDir: string;
  /**
   * Resolves once the work the pages had started has run its course, so that an absence
   * check ("nothing was sent twice") asserts after whatever could have sent it had its
   * chance, not after a guessed pause. See `settlePages`.
   */
  settled(): Promise<void>;
  /** Content-Security-Policy violations the page has hit since it loaded. */
  cspViolations(): Promise<string[]>;
  /** Stops the sandbox, for the "service down" scenario. Safe to call twice. */
  stopSandbox(): Promise<void>;
  /** Starts the sandbox again on the same port with the same data: the till can reconnect. */
  restartSandbox(): Promise<Sandbox>;
  /**
   * While the till's sandbox is stopped, serves the same data on another port for the
   * duration of `work`: "the service, used by another till, while this one is offline".
   */
  elsewhere<T>(work: (service: Sandbox) => Promise<T>): Promise<T>;
  /** Another till, still connected, redeems a reward on the service `elsewhere`; throws unless it is redeemed. */
  otherTillRedeems(redemption: { code: string; phone: string; orderReference: string }): Promise<void>;
  /**
   * Every redemption the service made since the harness started, across restarts and the
   * service "elsewhere": the judge of whose redemption each one was.
   */
  allRedemptions(): RedemptionRecord[];
  /** Sets the service's clock to run `ms` ahead of the till's (negative: behind). */
  skewServiceClock(ms: number): void;
  /**
   * Lets `ms` pass, without waiting, on the clocks the main process and the service read:
   * the service's (its times and `Date` header), the till's own under its estimate of the
   * service's clock (monotonic and wall; moved together with the service's, so the estimate
   * holds still, as it would over `ms` of waiting), and the link rate limit's. Real timers
   * do not fire. The page's clock is Playwright's: a test that installed it moves it too.
   */
  passTime(ms: number): void;
  /** This harness's own till, as `openAnotherTill` gives the others. */
  till: TillPage;
  /** Another till on the same sandbox: its own core, user data, page and IndexedDB. */
  openAnotherTill(): Promise<TillPage>;
  close(): Promise<void>;
}

/** One till of several on the harness's sandbox (a shop): what a test drives it by. */
export interface TillPage {
  page: Page;
  context: BrowserContext;
  core: AppCore;
  appUrl: string;
  call: Harness['call'];
  /** Points this till at the sandbox with the key, and names it. */
  configureService(tillName?: string): Promise<void>;
  openApp(): Promise<void>;
  screenshot(name: string): Promise<string>;
  bridgeCalls: BridgeCall[];
  /** What the till's main process logged. */
  log: CapturedLog;
  userDataDir: string;
  settled(): Promise<void>;
  /** The customer display's address, as the browser shell prints it. */
  displayUrl: string;
}

export interface HarnessOptions {
  /** Deadline for one service request in the app core; short so "service down" is quick. */
  requestTimeoutMs?: number;
  /** Waits before each retry of the POS callback. */
  callbackRetryDelaysMs?: readonly number[];
  /** Which service's legal choices the sandbox answers with (docs/sandbox.md); the spec's by default. */
  dialect?: Dialect;
  /** The organisation's policy, read from this file as from the machine's (none by default). */
  policyFile?: string;
  /** The computer's name a policy's `{computerName}` becomes. */
  computerName?: string;
}

/** Points a till at a service with the harness's key, names it, and saves `more` of its settings with them. */
export async function configureTill(
  call: TillCall,
  { baseUrl, tillName, ...more }: { baseUrl: string; tillName: string } & TillOperations['updateSettings']['payload'],
): Promise<void> {
  const settings = await call('updateSettings', { baseUrl, defaultCountry: 'SA', tillName, ...more });
  if (!settings.ok) throw new Error(`Settings refused: ${settings.error.message}`);
  const key = await call('setApiKey', { apiKey: SERVICE_KEY });
  if (!key.ok) throw new Error(`Key refused: ${key.error.message}`);
}

/** Loads the app and waits until it has read its state. */
export async function openTillPage(page: Page, appUrl: string): Promise<void> {
  // The page's socket takes the pushes (links, customer entries), as the Electron window's webContents does.
  await page.goto(appUrl);
  await page.locator('main.screen > *').first().waitFor();
}

/** What the cashier sees now, as `test/e2e/screenshots/<name>.png`. */
export async function screenshotOf(page: Page, name: string): Promise<string> {
  const file = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  return file;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  requireChromium();
  // A page waiting on a real service and browser on a shared two-core machine can take more
  // than expect.poll's default second; a real failure still ends each wait in ten.
  // Only under Vitest: the benchmark (npm run bench, plain tsx) starts the harness too.
  if (process.env.VITEST) vi.setConfig({ expect: { poll: { timeout: 10_000, interval: 50 } } });
  const work = await mkdtemp(join(tmpdir(), 'till-e2e-'));
  const cleanups: Array<() => Promise<unknown> | unknown> = [() => rm(work, { recursive: true, force: true })];
  const cleanup = async (): Promise<void> => {
    for (const step of cleanups.reverse()) await Promise.resolve(step()).catch(() => undefined);
  };

  try {
    const [rendererDir, bridges] = await Promise.all([builtRenderer(join(work, 'renderer')), bundleBridges()]);

    // The service keeps its state in a file, so that it can be stopped ("the network is
    // down") and started again on the same port with the same data ("it is back").
    const sandboxKeys = { [SERVICE_KEY]: 'coffee-club' };
    const dialect = options.dialect ?? 'spec';
    const dataFile = join(work, 'sandbox.json');
    let serviceSkewMs = 0;
    // Time let pass by `passTime`: on every clock below, never on the real one.
    let passedMs = 0;
    const tillWallNow = () => Date.now() + passedMs;
    const serviceNow = () => new Date(tillWallNow() + serviceSkewMs);
    let sandbox = await startSandbox({ port: 0, keys: sandboxKeys, dataFile, now: serviceNow, dialect });
    const sandboxPort = Number(new URL(sandbox.url).port);
    let sandboxOpen = true;
    const pastRedemptions: RedemptionRecord[] = [];
    const stopSandbox = async (): Promise<void> => {
      if (!sandboxOpen) return;
      sandboxOpen = false;
      pastRedemptions.push(...sandbox.redemptions());
      await sandbox.close();
    };
    const restartSandbox = async (): Promise<Sandbox> => {
      if (sandboxOpen) return sandbox;
      sandbox = await startSandbox({ port: sandboxPort, keys: sandboxKeys, dataFile, now: serviceNow, dialect });
      sandboxOpen = true;
      return sandbox;
    };
    const elsewhere = async <T>(work: (service: Sandbox) => Promise<T>): Promise<T> => {
      if (sandboxOpen) throw new Error('Stop the sandbox first: the same data may be served by one service at a time.');
      const other = await startSandbox({ port: 0, keys: sandboxKeys, dataFile, now: serviceNow, dialect });
      try {
        return await work(other);
      } finally {
        pastRedemptions.push(...other.redemptions());
        await other.close();
      }
    };
    const otherTillRedeems: Harness['otherTillRedeems'] = ({ code, phone, orderReference }) =>
      elsewhere(async (service) => {
        const response = await fetch(`${service.url}/v1/rewards/redeem`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${SERVICE_KEY}`,
            accept: 'application/json',
            'content-type': 'application/json',
          },
          body: JSON.stringify({ reward_code: code, phone, order_reference: orderReference }),
        });
        if (response.status !== 200) throw new Error(`The other till's redemption answered ${response.status}.`);
      });
    cleanups.push(stopSandbox);

    const browser: Browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    cleanups.push(() => browser.close());

    /**
     * One till: its own user data, app core and page server, and a browser context of its
     * own (so its own IndexedDB), on the harness's one sandbox.
     */
    const startTill = async (userDataDir: string): Promise<TillPage> => {
      const server = await startTillServer({
        userDataDir,
        rendererDir,
        bridges,
        core: {
          requestTimeoutMs: options.requestTimeoutMs ?? 3000,
          // The core's defaults, read through `passedMs`.
          serviceClock: new ServiceClock({
            monotonicNow: () => performance.timeOrigin + performance.now() + passedMs,
            wallNow: tillWallNow,
          }),
          linkRateLimitNow: tillWallNow,
          ...(options.callbackRetryDelaysMs ? { callbackRetryDelaysMs: options.callbackRetryDelaysMs } : {}),
          ...(options.policyFile
            ? {
                policySource: machinePolicySource({ platform: 'linux', file: options.policyFile }),
                policyPollMs: 500,
              }
            : {}),
          ...(options.computerName ? { computerName: () => options.computerName! } : {}),
        },
      });
      cleanups.push(() => server.close());
      const { core: appCore, appUrl, call, bridgeCalls, inFlight } = server;

      const context = await browser.newContext({ viewport: VIEWPORT, locale: 'en-GB' });
      await context.addInitScript({ content: CSP_VIOLATION_RECORDER });
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      return {
        page,
        context,
        core: appCore,
        appUrl,
        call,
        async configureService(tillName = 'Till 2') {
          await configureTill(call, { baseUrl: sandbox.url, tillName });
        },
        openApp: () => openTillPage(page, appUrl),
        screenshot: (name) => screenshotOf(page, name),
        bridgeCalls,
        log: server.log,
        userDataDir,
        settled: () => settlePages(context, bridgeCalls, inFlight),
        displayUrl: server.displayUrl,
      };
    };

    const first = await startTill(join(work, 'user-data'));
    const { page, context, core: appCore, appUrl, call } = first;
    let tills = 1;

    return {
      page,
      context,
      get sandbox() {
        return sandbox;
      },
      core: appCore,
      appUrl,
      call,
      configureService: () => first.configureService(),
      openApp: () => first.openApp(),
      deliverLink: (url: string) => appCore.links.receive(url, 'second-instance'),
      screenshot: (name) => first.screenshot(name),
      cspViolations: () => page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations),
      bridgeCalls: first.bridgeCalls,
      log: first.log,
      userDataDir: first.userDataDir,
      settled: () => first.settled(),
      till: first,
      openAnotherTill: async () => startTill(join(work, `user-data-${++tills}`)),
      stopSandbox,
      restartSandbox,
      elsewhere,
      otherTillRedeems,
      allRedemptions: () => [...pastRedemptions, ...(sandboxOpen ? sandbox.redemptions() : [])],
      skewServiceClock(ms: number) {
        serviceSkewMs = ms;
      },
      passTime(ms: number) {
        if (!(ms >= 0)) throw new Error(`Time passes forward only, not by ${ms} ms.`);
        passedMs += ms;
      },
      close: cleanup,
    };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

/**
 * Waits, in rounds, until the pages have nothing left under way that could still reach the
 * service. In each round every window: waits for the outbox replay's Web Lock (shared by all
 * windows of the origin) to be free, then runs a read-write transaction over every store of
 * the offline database, which IndexedDB starts only after every transaction begun before it
 * has finished (each redemption reads the reward's pending mark there before it calls the
 * bridge), then lets their continuations run. Then every bridge call made so far is awaited.
 * The rounds end when one saw no bridge call in flight and none new: an answer that led to
 * further work would have shown up as a new call.
 */
/** Calls that are work (a long poll re-armed is not). */
const workCalls = (calls: BridgeCall[]): number => calls.filter((call) => !call.longPoll).length;

async function settlePages(
  context: BrowserContext,
  bridgeCalls: BridgeCall[],
  inFlight: Set<Promise<unknown>>,
): Promise<void> {
  for (let round = 0; round < 50; round++) {
    const before = workCalls(bridgeCalls);
    const wasQuiet = inFlight.size === 0;
    for (const page of context.pages()) {
      await page.evaluate(
        async ({ dbName, lockName }) => {
          await navigator.locks.request(lockName, async () => undefined);
          const known = await indexedDB.databases();
          if (known.some((db) => db.name === dbName)) {
            const db = await new Promise<IDBDatabase>((resolve, reject) => {
              const opening = indexedDB.open(dbName);
              opening.onsuccess = () => resolve(opening.result);
              opening.onerror = () => reject(opening.error);
            });
            try {
              const stores = [...db.objectStoreNames];
              if (stores.length > 0) {
                await new Promise<void>((resolve, reject) => {
                  const barrier = db.transaction(stores, 'readwrite');
                  barrier.oncomplete = () => resolve();
                  barrier.onerror = barrier.onabort = () => reject(barrier.error);
                });
              }
            } finally {
              db.close();
            }
          }
          // The continuations of the transactions that finished before the barrier run first.
          await new Promise((resolve) => setTimeout(resolve, 0));
        },
        { dbName: DEFAULT_DB_NAME, lockName: REPLAY_LOCK_NAME },
      );
    }
    await Promise.allSettled([...inFlight]);
    if (wasQuiet && workCalls(bridgeCalls) === before && inFlight.size === 0) return;
  }
  throw new Error('The pages kept calling the bridge: they never settled.');
}
