/**
 * A till's user-data folder in a chosen state, made by the till's own core (the settings
 * saved, the key sealed, the outbox kept, the page's cache reported, the service called), and
 * left as a till leaves it when it stops: what `--health` reads (test/e2e/health-check.test.ts,
 * test/electron/shell/health-shell.test.ts).
 */
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import type { KeptItem } from '../../common/contract';
import type { KeyCipher } from '../../electron/storage/key-cipher';
import { configureService, createCoreFixture, type CoreFixture } from './app-core-fixture';

export const HOUR_MS = 3_600_000;

/** An outbox item as the page keeps it, queued `hoursAgo` hours ago. */
export function keptItem(state: KeptItem['state'], hoursAgo: number, more: Partial<KeptItem> = {}): KeptItem {
  return {
    uid: randomUUID(),
    kind: 'redeem',
    state,
    queuedAt: new Date(Date.now() - hoursAgo * HOUR_MS).toISOString(),
    code: 'RW-LAYLA001',
    phoneE164: '+966501234567',
    customerName: 'Layla Haddad',
    orderReference: 'POS-118842',
    attempts: state === 'pending' ? 0 : 1,
    ...more,
  };
}

export interface TillState {
  /**
   * The service the till is set up with (a sandbox on loopback) and its key; `demo`: the till
   * started the demo (its own sandbox, on loopback too); `none`: it ran and was never set up.
   */
  service: { baseUrl: string; apiKey: string } | 'demo' | 'none';
  tillName: string;
  items?: KeptItem[];
  /** When the page last said its cache was refreshed in full; none: never. */
  cacheRefreshedHoursAgo?: number;
  /** The cipher its keys are sealed with, as the shell that reads the folder opens them. */
  cipher?: KeyCipher;
}

/** Sets the till up as `service` says; with a service, it answers the till's own probe. */
async function setUp(till: CoreFixture, service: TillState['service']): Promise<void> {
  if (service === 'none') return;
  if (service === 'demo') {
    const started = await till.call('startDemo');
    if (!started.ok) throw new Error(started.error.message);
    return;
  }
  await configureService(till, service.baseUrl, service.apiKey);
  // The service answers the till's own probe: the health's connection is "online" from now.
  const status = await till.call('connectionStatus');
  if (!status.ok || status.data.reachable !== true) throw new Error('the service did not answer');
}

/** Makes the folder's state with the till's core, then stops it as the app stops. */
export async function tillInState(userDataDir: string, state: TillState): Promise<void> {
  // The shells make the folder before the core opens it (the browser shell's key file lives in it).
  await mkdir(userDataDir, { recursive: true });
  const till: CoreFixture = await createCoreFixture({ userDataDir, ...(state.cipher ? { cipher: state.cipher } : {}) });
  try {
    await setUp(till, state.service);
    const named = await till.call('updateSettings', { tillName: state.tillName });
    if (!named.ok) throw new Error(named.error.message);
    if (state.items?.length) {
      const kept = await till.call('keepWork', { changes: state.items.map((item) => ({ op: 'item', item })) });
      if (!kept.ok) throw new Error(kept.error.message);
    }
    if (state.cacheRefreshedHoursAgo !== undefined) {
      const at = new Date(Date.now() - state.cacheRefreshedHoursAgo * HOUR_MS).toISOString();
      const told = await till.call('noteCache', { lastCompleteRefreshAt: at, customers: 1200 });
      if (!told.ok) throw new Error(told.error.message);
    }
  } finally {
    await till.dispose();
  }
}
