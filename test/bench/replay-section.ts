/**
 * Figure 5: 1,000 queued redemptions replayed with 20% injected faults, checked against
 * the sandbox's own record of redemptions.
 *
 * The sandbox's generator gives one in ten generated customers an available reward, so
 * 10,000 generated customers carry the 1,000 rewards needed; the same seed rebuilt here
 * with `createDemoData` names their owners, and the page reads them through the app.
 */
import { startSandbox } from '../../sandbox';
import { createDemoData } from '../../sandbox/demo-data';
import { BENCH_KEY, type BenchBrowser } from './bench-browser';
import type { PrepareResult, ReplayResult } from './page/replay-bench';
import type { Report } from './report';

const SECTION = '5 replay';
const SEED = 7;
const BRANCH_ID = '7a1e9c40-2f3b-4d5e-8a6b-0c1d2e3f4a5b';
const ORDER_PREFIX = 'BENCH-';
/** 20% of requests fail: 5xx, dropped connections, and redemptions whose answer is lost. */
export const REPLAY_FAULTS = { errorRate: 0.07, dropRate: 0.07, commitThenDropRate: 0.06 };
/**
 * The bench's back-off. The app's default (2 s doubling to 5 min) is right for a real
 * outage; with one fault in five it would make this figure measure waiting, not replaying.
 */
const BACKOFF = { baseMs: 50, maxMs: 1_000 };

export async function replayFigures(bench: BenchBrowser, report: Report, count: number): Promise<void> {
  const generated = count * 10;
  const now = new Date();
  const sandbox = await startSandbox({ customers: generated, seed: SEED, keys: { [BENCH_KEY]: 'coffee-club' } });
  try {
    const data = createDemoData({ seed: SEED, now, customers: generated });
    // Product rewards only: a points reward the card cannot pay for is refused (422) by
    // design, and that is a conflict to review, not a fault of the replay.
    const redeemable = data.rewards.filter(
      (r) =>
        r.type === 'product' &&
        r.redeemed_at === null &&
        (r.expires_at === null || Date.parse(r.expires_at) > now.getTime()),
    );
    const owners = [...new Set(redeemable.map((r) => r.customer_id))];
    const redeemableCodes = redeemable.map((r) => r.code.toUpperCase());
    await bench.useSandbox(sandbox);
    const prepared = (await bench.page.evaluate((args) => window.bench.prepareReplay(args), {
      customerIds: owners,
      codes: redeemableCodes,
      count,
      branchId: BRANCH_ID,
      orderPrefix: ORDER_PREFIX,
    })) as PrepareResult;
    if (prepared.queued.length !== count) {
      throw new Error(
        `Only ${prepared.queued.length} of ${count} redemptions could be queued. ${prepared.refused.slice(0, 3).join('; ')}`,
      );
    }
    report.note(
      `Replay: cached the owners' rewards through getCustomer and queued ${count} redemptions in ${(prepared.ms / 1000).toFixed(1)} s.`,
    );

    sandbox.faults.set(REPLAY_FAULTS);
    let result: ReplayResult;
    try {
      result = (await bench.page.evaluate((args) => window.bench.runReplay(args), {
        backoff: BACKOFF,
        timeLimitMs: 240_000,
      })) as ReplayResult;
    } finally {
      sandbox.faults.reset();
    }
    await bench.page.evaluate(() => window.bench.closeReplay());

    // The service's own record: each queued code redeemed exactly once, with our order reference.
    const all = sandbox.redemptions();
    const byCode = new Map<string, number>();
    for (const r of all) byCode.set(r.code.toUpperCase(), (byCode.get(r.code.toUpperCase()) ?? 0) + 1);
    const ours = all.filter((r) => r.order_reference?.startsWith(ORDER_PREFIX));
    const duplicates =
      [...byCode.values()].reduce((sum, n) => sum + Math.max(0, n - 1), 0) +
      (ours.length - new Set(ours.map((r) => r.order_reference)).size);
    const recorded = new Map(ours.map((r) => [r.order_reference, r]));
    const lost = prepared.queued.filter((q) => {
      const r = recorded.get(q.orderReference);
      return !r || r.code.toUpperCase() !== q.code || r.branch_id !== BRANCH_ID;
    }).length;
    // Attribution judged by the service's record: "done" must be a redemption with our order
    // reference, "conflict" one with someone else's (or none).
    const wrongAttribution = result.verdicts.filter((v) => {
      const ours = recorded.get(v.orderReference ?? '')?.code.toUpperCase() === v.code.toUpperCase();
      return v.verdict === 'done' ? !ours : ours;
    }).length;
    const done = result.journal.redeemed + result.journal.redeemed_answer_lost;
    const left = result.outbox.pending + result.outbox.failed + result.outbox.conflict;

    report.add({
      id: 'replay.wall',
      section: SECTION,
      label: `replay of ${count} with ${Math.round(100 * (REPLAY_FAULTS.errorRate + REPLAY_FAULTS.dropRate + REPLAY_FAULTS.commitThenDropRate))}% faults (${result.requests.redeem} redeem + ${result.requests.check} check requests, ${result.passes} passes)`,
      unit: 's',
      value: result.ms / 1000,
      note: `back-off ${BACKOFF.baseMs}-${BACKOFF.maxMs} ms; faults ${JSON.stringify(REPLAY_FAULTS)}`,
    });
    report.add({
      id: 'replay.redeemed',
      section: SECTION,
      label: 'redeemed (answer received)',
      unit: '',
      value: result.journal.redeemed,
    });
    report.add({
      id: 'replay.reconciled',
      section: SECTION,
      label: 'reconciled (answer lost, redeemed during our unanswered attempt)',
      unit: '',
      value: result.journal.redeemed_answer_lost,
    });
    report.add({
      id: 'replay.conflicts',
      section: SECTION,
      label: 'conflicts',
      unit: '',
      value: result.outbox.conflict,
      target: { text: '0 (nobody else used them)', met: result.outbox.conflict === 0 },
    });
    report.add({
      id: 'replay.duplicates',
      section: SECTION,
      label: 'duplicates in sandbox.redemptions()',
      unit: '',
      value: duplicates,
      target: { text: '0', met: duplicates === 0 },
    });
    report.add({
      id: 'replay.lost',
      section: SECTION,
      label: 'lost (queued, not in sandbox.redemptions())',
      unit: '',
      value: lost,
      target: { text: '0', met: lost === 0 },
    });
    report.add({
      id: 'replay.wrongAttribution',
      section: SECTION,
      label: 'attribution wrong (done but not ours, or conflict but ours), against sandbox.redemptions()',
      unit: '',
      value: wrongAttribution,
      target: { text: '0', met: wrongAttribution === 0 },
    });
    report.add({
      id: 'replay.done',
      section: SECTION,
      label: `items done (journal), ${left} left in the outbox`,
      unit: '',
      value: done,
      target: { text: `${count}, none left`, met: done === count && left === 0 && !result.timedOut && !result.paused },
    });
    if (left > 0) report.note(`Replay left items: ${result.notes.slice(0, 5).join(' | ')}`);
  } finally {
    await sandbox.close();
  }
}
