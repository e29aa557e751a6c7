import type { KeyCipher } from '../../electron/storage/key-cipher';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { machinePolicySource } from '../../electron/policy/machine-policy';
import { createAppCore, type AppCore } from '../../electron/bridge/app-core';
import type { DiscoveryFactory } from '../../electron/bridge/shop-ledger-switch';
import type { SaveFile } from '../../electron/bridge/exports';
import { CHANNELS, type KeyProtection, type Operation, type TillOperations } from '../../common/contract';
import { createTestCipher } from './test-cipher';
import { createCapturedLog, type CapturedLog } from './captured-log';

export const TEST_ORIGIN = 'app://till';
export const APP_SENDER = { url: `${TEST_ORIGIN}/index.html` };
/** The customer display's own origin, as the Electron shell gives it. */
export const TEST_DISPLAY_ORIGIN = 'app://display';

export interface CoreFixture {
  core: AppCore;
  log: CapturedLog;
  userDataDir: string;
  /** Calls a bridge handler as the app's own page would. */
  call<K extends Operation>(
    operation: K,
    payload?: TillOperations[K]['payload'] | unknown,
  ): Promise<TillOperations[K]['result']>;
  /** Builds a fresh core over the same user-data folder, as a restart of the app would. */
  restart(): Promise<void>;
  dispose(): Promise<void>;
}

export async function createCoreFixture(
  options: {
    protection?: KeyProtection;
    /** The cipher the keys are sealed with (the test's own, of `protection`, when absent). */
    cipher?: KeyCipher;
    requestTimeoutMs?: number;
    /** Stands in for the wait before a GET's retry (a real timer when absent). */
    retrySleep?: (ms: number) => Promise<void>;
    userDataDir?: string;
    systemLanguages?: string[];
    /** How long `shopCheck` waits for the other tills. */
    shopCheckWaitMs?: number;
    /** Stands in for mDNS: the test feeds the peers it "finds". */
    shopDiscovery?: DiscoveryFactory;
    /** The organisation's policy, read from this file (none when absent). */
    policyFile?: string;
    /** The computer's name a policy's `{computerName}` becomes. */
    computerName?: string;
    /** The clock activity reports are stamped with. */
    now?: () => number;
    /** The clock of the manager PIN's back-off (tests move it on instead of waiting). */
    pinNow?: () => number;
    /** Stands in for the Electron shell's "Save as PDF". */
    reportPdf?: (fileName: string) => Promise<'saved' | 'cancelled'>;
    /** Stands in for the shell's way out for an export (save dialog, one-time download). */
    saveFile?: SaveFile;
  } = {},
): Promise<CoreFixture> {
  const userDataDir = options.userDataDir ?? (await mkdtemp(join(tmpdir(), 'till-core-')));
  const log = createCapturedLog();
  const build = () =>
    createAppCore({
      userDataDir,
      cipher: options.cipher ?? createTestCipher(options.protection ?? 'os'),
      appOrigin: TEST_ORIGIN,
      displayOrigin: TEST_DISPLAY_ORIGIN,
      log,
      requestTimeoutMs: options.requestTimeoutMs ?? 3000,
      ...(options.retrySleep ? { retrySleep: options.retrySleep } : {}),
      ...(options.systemLanguages ? { systemLanguages: () => options.systemLanguages! } : {}),
      ...(options.shopCheckWaitMs ? { shopCheckWaitMs: options.shopCheckWaitMs } : {}),
      ...(options.shopDiscovery ? { shopDiscovery: options.shopDiscovery } : {}),
      ...(options.policyFile
        ? { policySource: machinePolicySource({ platform: 'linux', file: options.policyFile }), policyPollMs: 200 }
        : {}),
      ...(options.computerName ? { computerName: () => options.computerName! } : {}),
      ...(options.now ? { now: options.now } : {}),
      ...(options.pinNow ? { pinNow: options.pinNow } : {}),
      ...(options.reportPdf ? { reportPdf: options.reportPdf } : {}),
      ...(options.saveFile ? { saveFile: options.saveFile } : {}),
    });
  let core = await build();
  const fixture: CoreFixture = {
    get core() {
      return core;
    },
    log,
    userDataDir,
    call: (operation, payload) => core.handlers[CHANNELS[operation]](APP_SENDER, payload) as never,
    async restart() {
      await core.dispose();
      core = await build();
    },
    async dispose() {
      await core.dispose();
      if (!options.userDataDir) await rm(userDataDir, { recursive: true, force: true });
    },
  };
  return fixture;
}

/** Points the core at a service: base URL and key, the way the settings screen does. */
export async function configureService(fixture: CoreFixture, baseUrl: string, apiKey: string): Promise<void> {
  const settings = await fixture.call('updateSettings', { baseUrl });
  if (!settings.ok) throw new Error(`settings refused: ${JSON.stringify(settings.error)}`);
  const key = await fixture.call('setApiKey', { apiKey });
  if (!key.ok) throw new Error(`key refused: ${JSON.stringify(key.error)}`);
}
