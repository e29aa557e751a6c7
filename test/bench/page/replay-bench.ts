/**
 * Replay of a large outbox through the real bridge: rewards are cached the app's way
 * (`getCustomer` written through), redemptions queued with the app's Outbox as an offline
 * till would, then the app's Replayer works through them while the runner makes the
 * sandbox fail on purpose. The page loops as the app's replay timer does: run, and when
 * the queue waits on a back-off, wait until it is due.
 */
import { Dexie } from 'dexie';
import type { BackoffPolicy } from '../../../renderer/offline/connection/backoff';
import { CustomerCache } from '../../../renderer/offline/cache/customer-cache';
import { benchDb } from './bench-db';
import { type JournalOutcome, type OfflineDb } from '../../../renderer/offline/db/schema';
import { Outbox } from '../../../renderer/offline/outbox/outbox';
import { Replayer } from '../../../renderer/offline/outbox/replayer';
import { COUNTRY } from './search-bench';

const DB_NAME = 'bench-replay';

let state: { db: OfflineDb; cache: CustomerCache; outbox: Outbox } | null = null;

export interface QueuedRedemption {
  code: string;
  orderReference: string;
}

export interface PrepareResult {
  queued: QueuedRedemption[];
  refused: string[];
  ms: number;
}

export async function prepareReplay(options: {
  customerIds: string[];
  /** The rewards to queue (upper case); others the customers hold are left alone. */
  codes: string[];
  count: number;
  branchId: string;
  orderPrefix: string;
}): Promise<PrepareResult> {
  const started = performance.now();
  await Dexie.delete(DB_NAME);
  const db = benchDb(DB_NAME);
  const cache = new CustomerCache(db, { defaultCountry: () => COUNTRY });
  await cache.loadIndex();
  const outbox = new Outbox(db, cache);
  state = { db, cache, outbox };

  const settings = { allowOfflineRedemption: true, branchId: options.branchId, defaultCountry: COUNTRY };
  const wanted = new Set(options.codes);
  const queued: QueuedRedemption[] = [];
  const refused: string[] = [];
  for (const id of options.customerIds) {
    if (queued.length >= options.count) break;
    const found = await window.till.getCustomer({ id });
    if (!found.ok) throw new Error(`Could not read customer ${id}: ${found.error.message}`);
    const stored = await cache.putCustomerWithRewards(found.data);
    for (const row of stored.rewards) {
      if (queued.length >= options.count || row.reward.status !== 'available' || !wanted.has(row.code)) continue;
      const orderReference = `${options.orderPrefix}${String(queued.length + 1).padStart(4, '0')}`;
      const outcome = await outbox.queueRedemption(
        { code: row.code, phone: stored.record.phoneE164, orderReference },
        settings,
      );
      if (outcome.ok) queued.push({ code: row.code, orderReference });
      else refused.push(`${row.code}: ${outcome.reason}`);
    }
  }
  return { queued, refused, ms: performance.now() - started };
}

export interface ReplayResult {
  ms: number;
  passes: number;
  /** Requests the replayer sent: redemptions, and reward checks to reconcile a 422. */
  requests: { redeem: number; check: number };
  journal: Record<JournalOutcome, number>;
  outbox: { pending: number; failed: number; conflict: number };
  paused: boolean;
  /** Failures and conflicts as the app recorded them, for the report. */
  notes: string[];
  /** Per code, what the till concluded: done (journal) or conflict (outbox), with its order reference. */
  verdicts: Array<{ code: string; orderReference: string | null; verdict: 'done' | 'conflict' }>;
  timedOut: boolean;
}

export async function runReplay(options: { backoff: BackoffPolicy; timeLimitMs: number }): Promise<ReplayResult> {
  if (!state) throw new Error('prepareReplay first.');
  const { db, cache, outbox } = state;
  const requests = { redeem: 0, check: 0 };
  const till = window.till;
  const api: typeof till = {
    ...till,
    redeemReward: (payload) => (requests.redeem++, till.redeemReward(payload)),
    checkReward: (payload) => (requests.check++, till.checkReward(payload)),
  };
  const replayer = new Replayer({ db, api, cache, outbox, locks: navigator.locks, backoff: options.backoff });
  const started = performance.now();
  let passes = 0;
  let paused = false;
  let timedOut = false;
  for (;;) {
    const run = await replayer.runOnce();
    passes += 1;
    if (run.stoppedBy === 'paused') {
      paused = true;
      break;
    }
    const next = await replayer.nextAttemptAt();
    if ((await db.outbox.where('state').equals('pending').count()) === 0) break;
    if (performance.now() - started > options.timeLimitMs) {
      timedOut = true;
      break;
    }
    const wait = next === null ? 0 : Math.max(0, Date.parse(next) - Date.now());
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
  const ms = performance.now() - started;

  const journal = {
    redeemed: 0,
    redeemed_answer_lost: 0,
    registered: 0,
    conflict_acknowledged: 0,
    failure_acknowledged: 0,
    corrected: 0,
    refused_elsewhere: 0,
    restored: 0,
    not_kept: 0,
  };
  const verdicts: ReplayResult['verdicts'] = [];
  for (const entry of await db.journal.toArray()) {
    journal[entry.outcome] += 1;
    if (entry.code && (entry.outcome === 'redeemed' || entry.outcome === 'redeemed_answer_lost')) {
      verdicts.push({ code: entry.code, orderReference: entry.orderReference, verdict: 'done' });
    }
  }
  const items = await db.outbox.toArray();
  for (const item of items) {
    if (item.kind === 'redeem' && item.state === 'conflict')
      verdicts.push({ code: item.code, orderReference: item.orderReference, verdict: 'conflict' });
  }
  const count = (which: string) => items.filter((item) => item.state === which).length;
  return {
    ms,
    passes,
    requests,
    journal,
    outbox: { pending: count('pending'), failed: count('failed'), conflict: count('conflict') },
    paused,
    notes: items.map(
      (item) =>
        `${item.state}: ${item.kind === 'redeem' ? item.code : ''} ${item.note ?? item.lastError?.message ?? ''}`,
    ),
    timedOut,
    verdicts,
  };
}

export async function closeReplay(): Promise<void> {
  state?.db.close();
  state = null;
  await Dexie.delete(DB_NAME);
}
