// Against the real sandbox over HTTP, through the main process's own handler table (it
// runs in this test process, as it runs in Electron's main process); IndexedDB is
// fake-indexeddb (the project's setup file).
import { createServer } from 'node:net';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { DEMO_FIXTURES } from '../../../../sandbox';
import type { TillApi } from '../../../../common/contract';
import { journalToCsv } from '../../../../renderer/lib/journal-csv';
import { noteWords, replayPauseWords } from '../../../../renderer/lib/outbox-words';
import { createFakeLocks } from '../support/fixtures';
import { BRANCH_ID, SETTINGS, cacheCustomer, startReplayHarness, type ReplayHarness } from '../support/replay-harness';
import { getCustomerRow } from '../../../support/offline-rows';

const { layla } = DEMO_FIXTURES;
const CODE_A = layla.rewards.availableProduct;
const CODE_B = layla.rewards.availablePoints;

let harness: ReplayHarness;

beforeEach(async () => {
  harness = await startReplayHarness();
  await cacheCustomer(harness, layla.id);
});
afterEach(() => harness.close());

/** A fresh harness whose main process gives these answers (the shop ledger's). */
async function withAnswers(answers: Partial<TillApi>): Promise<void> {
  await harness.close();
  harness = await startReplayHarness({ answers });
  await cacheCustomer(harness, layla.id);
}

async function queue(code: string, orderReference: string) {
  const queued = await harness.till.outbox.queueRedemption({ code, phone: layla.phone, orderReference }, SETTINGS);
  if (!queued.ok) throw new Error(`not queued: ${queued.reason}`);
  return queued.item;
}

describe('replaying the outbox', () => {
  test('in order, each redeemed once with its order reference, then journaled', async () => {
    await queue(CODE_A, 'ORD-1');
    await queue(CODE_B, 'ORD-2');
    const registration = await harness.till.outbox.queueRegistration(
      { name: 'Zeynep Kaya', phone: '+90 555 111 22 33' },
      SETTINGS,
    );
    if (!registration.ok) throw new Error('not queued');

    const run = await harness.till.replayer.runOnce();

    expect(run).toEqual({ ran: true, done: 3, conflicts: 0, failed: 0, stoppedBy: null });
    expect(harness.sandbox.redemptions().map((r) => [r.code, r.order_reference, r.branch_id])).toEqual([
      [CODE_A, 'ORD-1', BRANCH_ID],
      [CODE_B, 'ORD-2', BRANCH_ID],
    ]);
    expect(await harness.till.db.outbox.count()).toBe(0);
    const journal = await harness.till.outbox.journal();
    expect(journal.map((entry) => [entry.outcome, entry.code ?? entry.customerName])).toEqual([
      ['redeemed', CODE_A],
      ['redeemed', CODE_B],
      ['registered', 'Zeynep Kaya'],
    ]);
    // The cache follows: redeemed, no longer pending; the points left the card.
    const cached = await harness.till.db.rewards.get(CODE_B);
    expect(cached?.reward.status).toBe('redeemed');
    expect(cached?.pendingOutboxSeq).toBeUndefined();
    // The locally registered customer became the service's customer, on the same row.
    const row = await getCustomerRow(harness.till.db, registration.customer.pk!);
    expect(row?.localOnly).toBeUndefined();
    expect(row?.id).toBe(journal[2]!.customerId);
    expect(row?.id).not.toMatch(/^local-/);
    // Replaying again changes nothing.
    expect(await harness.till.replayer.runOnce()).toMatchObject({ done: 0 });
    expect(harness.sandbox.redemptions()).toHaveLength(2);
  });

  test('backs off on 5xx with the first item holding the queue, then goes on', async () => {
    const first = await queue(CODE_A, 'ORD-1');
    const second = await queue(CODE_B, 'ORD-2');
    harness.sandbox.faults.set({ errorRate: 1 });

    const start = harness.clock.now().getTime();
    expect(await harness.till.replayer.runOnce()).toMatchObject({ ran: true, done: 0, stoppedBy: 'backoff' });
    const waiting = await harness.till.db.outbox.get(first.seq!);
    expect(waiting).toMatchObject({ state: 'pending', attempts: 1, lastError: { kind: 'server' } });
    // base 2 s, first failure: 1 s fixed + 0.5 of the other second (fixed jitter draw).
    const delay = Date.parse(waiting!.nextAttemptAt!) - start;
    expect(delay).toBeGreaterThanOrEqual(1_500);
    expect(delay).toBeLessThan(1_500 + 1_000);
    expect((await harness.till.db.outbox.get(second.seq!))?.attempts).toBe(0);

    // Before the back-off ends nothing is sent, even though the service is fine again.
    harness.sandbox.faults.reset();
    expect(await harness.till.replayer.runOnce()).toMatchObject({ stoppedBy: 'backoff' });
    expect((await harness.till.db.outbox.get(first.seq!))?.attempts).toBe(1);

    // A second failure doubles the step.
    harness.clock.advance(2_000);
    harness.sandbox.faults.set({ errorRate: 1 });
    const before = harness.clock.now().getTime();
    await harness.till.replayer.runOnce();
    const again = await harness.till.db.outbox.get(first.seq!);
    expect(Date.parse(again!.nextAttemptAt!) - before).toBeGreaterThanOrEqual(3_000);

    harness.sandbox.faults.reset();
    harness.clock.advance(4_000);
    expect(await harness.till.replayer.runOnce()).toMatchObject({ done: 2, stoppedBy: null });
    expect(harness.sandbox.redemptions().map((r) => r.code)).toEqual([CODE_A, CODE_B]);
  });

  test('a 429 waits at least as long as Retry-After says', async () => {
    const item = await queue(CODE_A, 'ORD-1');
    harness.sandbox.faults.set({ rateLimitRate: 1, retryAfterSeconds: 30 });
    const start = harness.clock.now().getTime();
    await harness.till.replayer.runOnce();
    const waiting = await harness.till.db.outbox.get(item.seq!);
    expect(waiting?.lastError?.kind).toBe('rate_limited');
    expect(Date.parse(waiting!.nextAttemptAt!) - start).toBeGreaterThanOrEqual(30_000);
  });

  test('a rejected key pauses the whole queue until resumed', async () => {
    const item = await queue(CODE_A, 'ORD-1');
    await harness.core.call('setApiKey', { apiKey: 'rejected-key-0000' });

    expect(await harness.till.replayer.runOnce()).toMatchObject({ done: 0, stoppedBy: 'paused' });
    const pause = await harness.till.replayer.pause();
    expect(pause).toMatchObject({ reason: 'unauthorized' });
    expect(replayPauseWords(pause!)).not.toContain('rejected-key-0000');
    // Stored as a reason, without words: they are made when read, in the interface language.
    expect((await harness.till.db.meta.get('replayPause'))?.value).toEqual({
      reason: 'unauthorized',
      since: pause!.since,
    });
    expect((await harness.till.db.outbox.get(item.seq!))?.lastError?.kind).toBe('unauthorized');

    // Paused: nothing is sent, even once the key is right again, until a person resumes.
    // A refused key is not a failed attempt: nothing counts towards the back-off.
    await harness.core.call('setApiKey', { apiKey: 'demo-key' });
    expect(await harness.till.replayer.runOnce()).toMatchObject({ stoppedBy: 'paused' });
    expect(await harness.till.db.outbox.get(item.seq!)).toMatchObject({ attempts: 0, nextAttemptAt: null });

    await harness.till.replayer.resume();
    expect(await harness.till.replayer.runOnce()).toMatchObject({ done: 1 });
    expect(harness.sandbox.redemptions()).toHaveLength(1);
  });

  test('a refused item is kept as failed and the queue goes on', async () => {
    // Cached, but unknown to the service (as if the code had been mistyped into the cache).
    await harness.till.cache.putReward(
      { ...(await harness.till.db.rewards.get(CODE_A))!.reward, code: 'RW-NOSUCH1' },
      layla.phone,
    );
    const bad = await queue('RW-NOSUCH1', 'ORD-0');
    await queue(CODE_A, 'ORD-1');
    expect(await harness.till.replayer.runOnce()).toMatchObject({ done: 1, failed: 1 });
    expect(await harness.till.db.outbox.get(bad.seq!)).toMatchObject({
      state: 'failed',
      lastError: { kind: 'not_found' },
    });
    expect(await harness.till.outbox.counts()).toEqual({ pending: 0, failed: 1, conflict: 0, done: 1 });
  });
});

describe('reconciling a 422 reward_unavailable', () => {
  test('the redeem committed but its answer was lost: done, redeemed once', async () => {
    const item = await queue(CODE_A, 'ORD-LOST');
    harness.sandbox.faults.set({ commitThenDropRate: 1 });
    expect(await harness.till.replayer.runOnce()).toMatchObject({ done: 0, stoppedBy: 'backoff' });
    expect(harness.sandbox.redemptions()).toHaveLength(1);
    const attempted = await harness.till.db.outbox.get(item.seq!);
    expect(attempted?.firstAttemptAt).not.toBeNull();

    harness.sandbox.faults.reset();
    harness.clock.advance(10_000);
    expect(await harness.till.replayer.runOnce()).toMatchObject({ done: 1, conflicts: 0 });
    expect(harness.sandbox.redemptions()).toHaveLength(1);
    expect(await harness.till.outbox.journal()).toMatchObject([
      { outcome: 'redeemed_answer_lost', orderReference: 'ORD-LOST' },
    ]);
    expect((await harness.till.db.rewards.get(CODE_A))?.reward.status).toBe('redeemed');
  });

  test('a conflict on a reward another till of the shop claimed names that till, here and in the CSV', async () => {
    const holder = { till: 'Till 2', at: '2026-11-26T08:35:00.000Z' };
    const asked: string[] = [];
    await withAnswers({
      shopHolder: async ({ reward_code }) => {
        asked.push(reward_code);
        return { ok: true, data: { holder } };
      },
    });
    const item = await queue(CODE_A, 'ORD-MINE');
    // Till 2 redeemed it offline and replayed first.
    expect((await harness.api.redeemReward({ reward_code: CODE_A, phone: layla.phone })).ok).toBe(true);
    harness.clock.advance(5_000);

    expect(await harness.till.replayer.runOnce()).toMatchObject({ conflicts: 1 });
    expect(asked).toEqual([CODE_A]);
    const conflict = await harness.till.db.outbox.get(item.seq!);
    expect(conflict).toMatchObject({ attribution: { verdict: 'no_unanswered_attempt', claimedBy: holder } });
    // Kept as a code with what was found; worded when shown.
    expect(conflict?.note).toMatchObject({ code: 'conflict', attribution: { claimedBy: holder } });
    expect(noteWords(conflict!.note)).toMatch(/^The reward was already redeemed at Till 2 at 26 Nov 2026, /);
    expect(noteWords(conflict!.note)).not.toMatch(/not by this till/);
    await harness.till.outbox.acknowledge(item.seq!);
    const csv = journalToCsv(await harness.till.outbox.journal());
    expect(csv).toMatch(/already redeemed at Till 2 at/);
  });

  test('a conflict recorded before the claims synced is named once the ledger learns the till', async () => {
    const holder = { till: 'Till 1', at: '2026-11-26T08:35:00.000Z' };
    let known: typeof holder | null = null;
    await withAnswers({ shopHolder: async () => ({ ok: true, data: { holder: known } }) });
    const item = await queue(CODE_A, 'ORD-MINE');
    expect((await harness.api.redeemReward({ reward_code: CODE_A, phone: layla.phone })).ok).toBe(true);
    harness.clock.advance(5_000);
    expect(await harness.till.replayer.runOnce()).toMatchObject({ conflicts: 1 });
    expect(noteWords((await harness.till.db.outbox.get(item.seq!))!.note)).toMatch(/not by this till/);
    // The split heals: the ledger now holds Till 1's claim. The next round names it.
    known = holder;
    await harness.till.replayer.runOnce();
    const named = await harness.till.db.outbox.get(item.seq!);
    expect(named).toMatchObject({ state: 'conflict', attribution: { claimedBy: holder } });
    expect(noteWords(named!.note)).toMatch(/^The reward was already redeemed at Till 1 at /);
    await harness.till.outbox.acknowledge(item.seq!);
    expect(journalToCsv(await harness.till.outbox.journal())).toMatch(/already redeemed at Till 1 at/);
  });

  test('a replayed redemption the service holds settles its claims in the shop', async () => {
    const settled: string[] = [];
    await withAnswers({
      shopSettle: async ({ reward_code }) => {
        settled.push(reward_code);
        return { ok: true, data: null };
      },
    });
    await queue(CODE_A, 'ORD-1');
    expect(await harness.till.replayer.runOnce()).toMatchObject({ done: 1 });
    await vi.waitFor(() => expect(settled).toEqual([CODE_A]));
  });

  test('redeemed elsewhere while offline: a conflict kept with everything known', async () => {
    const item = await queue(CODE_A, 'ORD-MINE');
    // Another till redeems it directly on the service.
    const elsewhere = await harness.api.redeemReward({
      reward_code: CODE_A,
      phone: layla.phone,
      order_reference: 'ORD-OTHER',
    });
    expect(elsewhere.ok).toBe(true);
    harness.clock.advance(5_000);

    expect(await harness.till.replayer.runOnce()).toMatchObject({ done: 0, conflicts: 1 });
    const conflict = await harness.till.db.outbox.get(item.seq!);
    expect(conflict).toMatchObject({
      state: 'conflict',
      orderReference: 'ORD-MINE',
      serviceReward: { code: CODE_A, status: 'redeemed' },
      lastError: null,
    });
    expect(noteWords(conflict!.note)).toMatch(/not by this till/);
    expect(conflict).toMatchObject({ attribution: { verdict: 'no_unanswered_attempt' } });
    expect(harness.sandbox.redemptions().map((r) => r.order_reference)).toEqual(['ORD-OTHER']);
    // Kept until acknowledged, and shown pending meanwhile.
    expect(await harness.till.outbox.counts()).toMatchObject({ conflict: 1, done: 0 });
    expect(await harness.till.replayer.runOnce()).toMatchObject({ done: 0, conflicts: 0 });
    expect(await harness.till.outbox.acknowledge(item.seq!)).toBe(true);
    expect(await harness.till.outbox.journal()).toMatchObject([{ outcome: 'conflict_acknowledged', code: CODE_A }]);
  });
  test('an attempt refused before it left the till is no evidence: redeemed elsewhere later is a conflict', async () => {
    const item = await queue(CODE_A, 'ORD-MINE');
    const state = await harness.api.getState();
    if (!state.ok || !state.data.settings.baseUrl) throw new Error('the harness has no service URL');
    const serviceUrl = state.data.settings.baseUrl;
    await harness.api.updateSettings({ baseUrl: await closedLoopbackUrl() });

    // Nothing listens: the connection is refused, so the service cannot have redeemed it.
    expect(await harness.till.replayer.runOnce()).toMatchObject({ done: 0, stoppedBy: 'backoff' });
    const refused = await harness.till.db.outbox.get(item.seq!);
    expect(refused).toMatchObject({
      attempts: 1,
      unanswered: [],
      lastError: { kind: 'offline', code: 'ECONNREFUSED' },
    });

    // After that refused attempt, another till redeems the same reward.
    harness.clock.advance(5_000);
    await harness.api.updateSettings({ baseUrl: serviceUrl });
    expect(
      (await harness.api.redeemReward({ reward_code: CODE_A, phone: layla.phone, order_reference: 'ORD-OTHER' })).ok,
    ).toBe(true);
    harness.clock.advance(60_000);

    expect(await harness.till.replayer.runOnce()).toMatchObject({ done: 0, conflicts: 1 });
    expect(harness.sandbox.redemptions().map((r) => r.order_reference)).toEqual(['ORD-OTHER']);
  });
});

describe('one replayer at a time', () => {
  test('two windows replaying at once redeem nothing twice', async () => {
    const locks = createFakeLocks();
    const windowA = harness.openWindow(locks);
    const windowB = harness.openWindow(locks);
    await queue(CODE_A, 'ORD-1');
    await queue(CODE_B, 'ORD-2');
    harness.sandbox.faults.set({ latencyMs: 150 });

    const runs = await Promise.all([
      windowA.replayer.runOnce(),
      windowB.replayer.runOnce(),
      windowA.replayer.runOnce(),
    ]);

    expect(runs.filter((run) => run.ran)).toHaveLength(1);
    expect(runs.reduce((sum, run) => sum + run.done, 0)).toBe(2);
    expect(
      harness.sandbox
        .redemptions()
        .map((r) => r.code)
        .sort(),
    ).toEqual([CODE_A, CODE_B]);
    expect(locks.held.size).toBe(0);
  });

  test('without Web Locks, replayers of one page still exclude each other', async () => {
    const windowA = harness.openWindow(null);
    const windowB = harness.openWindow(null);
    await queue(CODE_A, 'ORD-1');
    harness.sandbox.faults.set({ latencyMs: 100 });
    const runs = await Promise.all([windowA.replayer.runOnce(), windowB.replayer.runOnce()]);
    expect(runs.map((run) => run.ran).sort()).toEqual([false, true]);
    expect(harness.sandbox.redemptions()).toHaveLength(1);
    expect(await harness.till.outbox.journal()).toHaveLength(1);
  });
});

describe('the journal', () => {
  test('exports as CSV with what the back office needs', async () => {
    await queue(CODE_A, '=HYPERLINK("http://x")');
    await harness.till.replayer.runOnce();
    const csv = journalToCsv(await harness.till.outbox.journal());
    const [header, row] = csv.trimEnd().split('\r\n');
    expect(header).toBe('time,code,customer,order reference,branch,outcome,service time,cashier,state,reward,points');
    expect(row).toContain(`,${CODE_A},Layla Haddad,"'=HYPERLINK(""http://x"")",${BRANCH_ID},redeemed`);
  });
});

/** A loopback URL where nothing listens: a port that was free a moment ago. */
async function closedLoopbackUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
