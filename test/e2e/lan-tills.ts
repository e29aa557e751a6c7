/**
 * Whole tills on hosts of a test's own LAN (test/support/network-namespace.ts `createLan`):
 * on each host, the till's main process (test/support/netns/app-till.ts: its app core and page
 * server, its shop ledger on the host's LAN address, mDNS discovery) and its page in a Chromium
 * started inside the same namespace. Playwright talks to that Chromium over a pipe, so nothing
 * crosses from one namespace to another but the LAN itself; the page reaches its own till on
 * the host's 127.0.0.1, as a till's window reaches its main process.
 */
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { RedemptionRecord } from '../../sandbox';
import type { LanHost } from '../support/network-namespace';
import { commandChild, type CommandChild } from '../support/netns/command-child';
import { CHROMIUM_ARGS, CHROMIUM_PATH, openTillPage, VIEWPORT } from './harness';
import type { BridgeCall, TillCall } from './till-server';

const APP_TILL = 'test/support/netns/app-till.ts';
const SERVICE_HOST = 'test/support/netns/service-host.ts';

/** What every till on the LAN is started from: the built renderer and the bundled page bridges. */
export interface LanTillFiles {
  /** Where each till keeps its folder and its browser's launcher. */
  workDir: string;
  rendererDir: string;
  /** `PageBridges` as JSON (till-server.ts `bundleBridges`). */
  bridgesFile: string;
  /** The service on the LAN, `host:port`: each till reaches it at http://127.0.0.1:<port> of its own host. */
  service: string;
}

export interface LanTill {
  readonly host: LanHost;
  /** The page, in a Chromium inside the till's namespace; the same one across a restart. */
  readonly page: Page;
  /** Calls a bridge handler of the till's core, as its page would (for setting up a scenario). */
  call: TillCall;
  /** Opens the till's page (once it is configured), as the app opens its window. */
  open(): Promise<void>;
  /** Every call the page made over the bridge since the till's main process last started. */
  bridgeCalls(): Promise<BridgeCall[]>;
  /** What the till's main process logged since it last started (nothing is printed). */
  log(): Promise<string[]>;
  /** Every ledger frame the till received since its main process last started, base64: what a host recording the LAN holds. */
  captured(): Promise<string[]>;
  /**
   * Stops the till's main process (the page server, the core, its ledger and discovery, as on
   * closing the app), starts it again on the same user data and page port, and opens the page
   * again: the page's origin, and so its IndexedDB, are the same.
   */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** A Chromium whose every process lives in `host`'s namespace: a launcher that enters it, then runs Debian's Chromium. */
async function browserIn(host: LanHost, dir: string): Promise<Browser> {
  const launcher = join(dir, `chromium-in-${host.name}.sh`);
  await writeFile(launcher, `#!/bin/sh\nexec ip netns exec '${host.name}' ${CHROMIUM_PATH} "$@"\n`);
  await chmod(launcher, 0o755);
  return chromium.launch({ executablePath: launcher, args: CHROMIUM_ARGS });
}

async function startMainProcess(
  host: LanHost,
  files: LanTillFiles,
  userDataDir: string,
  port: number,
): Promise<{ client: CommandChild; appUrl: string; port: number }> {
  const child = host.spawnTsx(APP_TILL, [
    '--user-data',
    userDataDir,
    '--renderer',
    files.rendererDir,
    '--bridges',
    files.bridgesFile,
    '--service',
    files.service,
    '--port',
    String(port),
  ]);
  const { client, ready } = await commandChild(child, `The till on ${host.name}`);
  return { client, appUrl: String(ready.appUrl), port: Number(ready.port) };
}

/** Starts a whole till on `host`, with a user-data folder of its own, and opens its page. */
export async function startLanTill(host: LanHost, files: LanTillFiles, name: string): Promise<LanTill> {
  const userDataDir = join(files.workDir, `user-data-${name.replace(/\W+/g, '-')}`);
  let main = await startMainProcess(host, files, userDataDir, 0);
  const browser = await browserIn(host, files.workDir);
  try {
    const context = await browser.newContext({ viewport: VIEWPORT, locale: 'en-GB' });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    const call = ((operation, payload) => main.client.ask('call', { operation, payload })) as TillCall;
    return {
      host,
      page,
      call,
      open: () => openTillPage(page, main.appUrl),
      bridgeCalls: () => main.client.ask<BridgeCall[]>('calls'),
      log: () => main.client.ask<string[]>('log'),
      captured: () => main.client.ask<string[]>('captured'),
      async restart() {
        await main.client.stop();
        main = await startMainProcess(host, files, userDataDir, main.port);
        await openTillPage(page, main.appUrl);
      },
      async close() {
        await browser.close().catch(() => undefined);
        await main.client.stop().catch(() => undefined);
      },
    };
  } catch (error) {
    await browser.close();
    await main.client.stop();
    throw error;
  }
}

/** The loyalty service on `host` of the LAN, at its LAN address. */
export async function startLanService(
  host: LanHost,
  options: { key: string; dataFile: string; port: number },
): Promise<{
  /** Where it listens on the LAN, `host:port`. */
  at: string;
  /** Where a till reaches it, through its host's relay (app-till.ts). */
  url: string;
  /** Every redemption the service made. */
  redemptions(): Promise<RedemptionRecord[]>;
  close(): Promise<void>;
}> {
  const child = host.spawnTsx(SERVICE_HOST, [
    '--key',
    options.key,
    '--data',
    options.dataFile,
    '--port',
    String(options.port),
  ]);
  const { client } = await commandChild(child, `The service on ${host.name}`);
  return {
    at: `${host.address}:${options.port}`,
    url: `http://127.0.0.1:${options.port}`,
    redemptions: () => client.ask('redemptions'),
    close: () => client.stop(),
  };
}
