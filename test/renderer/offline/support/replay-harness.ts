/**
 * A till's offline core against the real sandbox: the outbox, cache and replayer over a
 * `TillApi` built on the main process's handler table. The sandbox and the till share a
 * clock that a test moves forward (back-off waits, "redeemed before our first attempt").
 */
import { createTillApi, type TillApi } from '../../../../common/contract';
import { startSandbox, type Sandbox } from '../../../../sandbox';
import { CustomerCache } from '../../../../renderer/offline/cache/customer-cache';
import type { OfflineDb } from '../../../../renderer/offline/db/schema';
import { Outbox, type OutboxSettings } from '../../../../renderer/offline/outbox/outbox';
import { Replayer, type LockManagerLike } from '../../../../renderer/offline/outbox/replayer';
import { APP_SENDER, configureService, createCoreFixture, type CoreFixture } from '../../../support/app-core-fixture';
import { dropDb, freshDb } from './fixtures';

export const BRANCH_ID = '0b6e4a52-7d1f-4c8a-9e3b-5f2d1c0a9b99';
export const SETTINGS: OutboxSettings = { allowOfflineRedemption: true, branchId: BRANCH_ID, defaultCountry: 'SA' };

export interface Clock {
  now(): Date;
  advance(ms: number): void;
}

export function createClock(): Clock {
  let offset = 0;
  return {
    now: () => new Date(Date.now() + offset),
    advance: (ms) => {
      offset += ms;
    },
  };
}

export interface Till {
  db: OfflineDb;
  cache: CustomerCache;
  outbox: Outbox;
  replayer: Replayer;
}

export interface ReplayHarness {
  sandbox: Sandbox;
  core: CoreFixture;
  api: TillApi;
  clock: Clock;
  /** A till window; `second` shares its database (another window of the same app). */
  till: Till;
  openWindow(locks: LockManagerLike | null): Till;
  close(): Promise<void>;
}

export async function startReplayHarness(
  options: {
    locks?: LockManagerLike | null;
    /** Stands in for some of the main process's answers (the shop ledger's, say). */
    answers?: Partial<TillApi>;
  } = {},
): Promise<ReplayHarness> {
  const clock = createClock();
  const sandbox = await startSandbox({ now: clock.now });
  const core = await createCoreFixture({ requestTimeoutMs: 2_000 });
  await configureService(core, sandbox.url, 'demo-key');
  const api: TillApi = {
    ...createTillApi((channel, payload) => core.core.handlers[channel](APP_SENDER, payload)),
    ...options.answers,
  };
  const db = freshDb();
  const windows: Till[] = [];
  const openWindow = (locks: LockManagerLike | null): Till => {
    const cache = new CustomerCache(db, { defaultCountry: () => 'SA', now: clock.now });
    const outbox = new Outbox(db, cache, { now: clock.now });
    // A fixed jitter draw makes back-off delays exact: half the step plus half of half.
    const replayer = new Replayer({ db, api, cache, outbox, locks, now: clock.now, random: () => 0.5 });
    const till = { db, cache, outbox, replayer };
    windows.push(till);
    return till;
  };
  const till = openWindow(options.locks ?? null);
  return {
    sandbox,
    core,
    api,
    clock,
    till,
    openWindow,
    async close() {
      await dropDb(db);
      await core.dispose();
      await sandbox.close();
    },
  };
}

/** Caches a customer the way a cashier's earlier online lookup would have. */
export async function cacheCustomer(harness: ReplayHarness, id: string): Promise<void> {
  const found = await harness.api.getCustomer({ id });
  if (!found.ok) throw new Error(`lookup failed: ${found.error.message}`);
  await harness.till.cache.putCustomerWithRewards(found.data);
}
