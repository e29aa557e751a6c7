/**
 * One till's main process as the end-to-end tests run it: its app core (`createAppCore`)
 * behind the browser shell's page server (electron/browser-shell/), with every call its pages
 * make over the bridge recorded. Nothing of the app is replaced: the page's `window.till` is
 * the shell's page bridge over the shell's WebSocket, behind its access guard.
 *
 * The harness (harness.ts) runs it in the test's own process, so that tests can move its
 * clocks; test/support/netns/app-till.ts runs it inside a host of a test's LAN, with the shop
 * ledger on that host's address and mDNS discovery, as the shells run it.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { createAppCore, type AppCore, type AppCoreOptions, type BridgeHandlers } from '../../electron/bridge/app-core';
import { createAppProtocolHandler } from '../../electron/app-page/app-protocol';
import { newAccessSecret } from '../../electron/browser-shell/access-guard';
import { bundlePageBridge } from '../../electron/browser-shell/page-bridge-bundle';
import { startPageServer } from '../../electron/browser-shell/page-server';
import { CHANNELS, type Channel, type ErrorKind, type Operation, type TillOperations } from '../../common/contract';
import { createCapturedLog, type CapturedLog } from '../support/captured-log';
import { createTestCipher } from '../support/test-cipher';

const APP_VERSION = (
  JSON.parse(await readFile(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8')) as {
    version: string;
  }
).version;

export interface BridgeCall {
  channel: Channel;
  payload: unknown;
  at: number;
  /** `ok`, or the kind of error the bridge answered with; unset while the call is in flight. */
  outcome?: 'ok' | ErrorKind;
  /**
   * A long poll (the page waiting for another till's request for the shop's report): always
   * waiting, by design, so no work under way; `settled()` neither waits for it nor counts it.
   */
  longPoll?: true;
  /** What a long poll brought back (its answer's data): `{ request: null }` when nothing came. */
  answer?: unknown;
}

/** Channels the page keeps a call waiting on: recorded with their answer, never waited for. */
const LONG_POLLS: ReadonlySet<Channel> = new Set([CHANNELS.shopReportRequest]);

/** The bundled page bridges the page server hands out: the till's and the customer display's. */
export interface PageBridges {
  page: string;
  display: string;
}

export async function bundleBridges(): Promise<PageBridges> {
  const [page, display] = await Promise.all([bundlePageBridge(), bundlePageBridge('display-bridge.ts')]);
  return { page, display };
}

/** What the core is made with beyond what every test till shares (the test cipher, a captured log). */
export type TillCoreOptions = Omit<
  AppCoreOptions,
  'userDataDir' | 'cipher' | 'appOrigin' | 'displayOrigin' | 'displayAddress' | 'log' | 'saveFile'
>;

export interface TillServerOptions {
  userDataDir: string;
  /** The built renderer (`buildRenderer`). */
  rendererDir: string;
  bridges: PageBridges;
  core: TillCoreOptions;
  /** The page server's port on 127.0.0.1: the same one again after a restart keeps the page's origin, and so its IndexedDB. */
  port?: number;
}

/** Calls a bridge handler as the app's own page would (for setting up a scenario). */
export type TillCall = <K extends Operation>(
  operation: K,
  payload?: TillOperations[K]['payload'],
) => Promise<TillOperations[K]['result']>;

export interface TillServer {
  core: AppCore;
  /** The served page, e.g. `http://127.0.0.1:41234/<secret>/index.html`. */
  appUrl: string;
  /** The customer display's address, as the browser shell prints it. */
  displayUrl: string;
  port: number;
  call: TillCall;
  /** Every call the pages made over the bridge, in order. */
  bridgeCalls: BridgeCall[];
  /** Bridge calls not answered yet (long polls aside). */
  inFlight: Set<Promise<unknown>>;
  /** What the main process wrote to its log (nothing is printed). */
  log: CapturedLog;
  /** Stops the page server, then the core. */
  close(): Promise<void>;
}

export async function startTillServer(options: TillServerOptions): Promise<TillServer> {
  const { userDataDir, rendererDir, bridges } = options;
  const bridgeCalls: BridgeCall[] = [];
  const inFlight = new Set<Promise<unknown>>();
  // The core itself, for `call` and the tests; the page server gets it with a recording table.
  const made: { core?: AppCore } = {};
  const log = createCapturedLog();
  const shell = await startPageServer({
    secret: newAccessSecret(),
    bridgeScript: bridges.page,
    displayScript: bridges.display,
    ...(options.port ? { port: options.port } : {}),
    // What the Electron shell registers for app://, reading files as its net.fetch does.
    appProtocol: createAppProtocolHandler({
      rootDir: rendererDir,
      fetchFile: async (fileUrl) => new Response(await readFile(fileURLToPath(fileUrl))),
    }),
    createCore: async (appOrigin, { saveFile, displayOrigin, displayAddress }) => {
      const core = await createAppCore({
        // The app as the browser shell names it (its version; --health's and the support file's).
        about: { version: APP_VERSION, shell: 'browser' },
        ...options.core,
        userDataDir,
        saveFile,
        cipher: createTestCipher(),
        appOrigin,
        displayOrigin,
        displayAddress,
        // What would reach the till's log file (failed calls are warnings there): kept, not printed.
        log,
      });
      made.core = core;
      // The pages' calls, and only theirs, are recorded.
      return { ...core, handlers: recordingHandlers(core.handlers, bridgeCalls, inFlight) };
    },
  });
  const core = made.core;
  if (!core) throw new Error('The page server made no core.');
  const appUrl = `${shell.address}index.html`;
  const sender = { url: appUrl };
  const call = (<K extends Operation>(operation: K, payload?: TillOperations[K]['payload']) =>
    core.handlers[CHANNELS[operation]](sender, payload)) as TillCall;
  return {
    core,
    appUrl,
    displayUrl: shell.displayAddress,
    port: Number(new URL(shell.address).port),
    call,
    bridgeCalls,
    inFlight,
    log,
    async close() {
      await shell.close();
      await core.dispose();
    },
  };
}

/** The handler table, each call recorded with its outcome and tracked until answered. */
function recordingHandlers(
  handlers: BridgeHandlers,
  bridgeCalls: BridgeCall[],
  inFlight: Set<Promise<unknown>>,
): BridgeHandlers {
  const recording = {} as BridgeHandlers;
  for (const channel of Object.keys(handlers) as Channel[]) {
    const longPoll = LONG_POLLS.has(channel);
    recording[channel] = async (sender, payload) => {
      // The key's own channel is not recorded: the key stays out of test output too.
      const call: BridgeCall = { channel, payload: channel === CHANNELS.setApiKey ? null : payload, at: Date.now() };
      if (longPoll) call.longPoll = true;
      bridgeCalls.push(call);
      const answered = handlers[channel](sender, payload);
      if (!longPoll) inFlight.add(answered);
      try {
        const result = (await answered) as { ok: boolean; data?: unknown; error?: { kind: ErrorKind } };
        call.outcome = result.ok ? 'ok' : (result.error?.kind ?? 'bad_response');
        if (longPoll && result.ok) call.answer = result.data;
        return result;
      } finally {
        inFlight.delete(answered);
      }
    };
  }
  return recording;
}
