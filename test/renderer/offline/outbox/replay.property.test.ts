// The outbox and the replayer, driven by random sequences of the service's answers: over
// fake-indexeddb, with a scripted bridge standing for the main process and a scripted model
// of the service (which redeems a code once and counts who did it), on a fake clock.
//
// Properties, checked after every step and at the end:
// - nothing is redeemed twice: the service commits each code at most once, and the till never
//   sends a code again once it heard the service redeem it or moved the item to the journal;
// - nothing is lost: every queued item is in the outbox or in the journal, never both, once;
// - every item ends done (journal), conflict, failed, or pending with a reason (`lastError`)
//   and a next attempt no further away than the longest wait the till keeps;
// - a done item was redeemed by the service; "redeemed" (heard) means redeemed by this till;
// - where the service's clock was known and no other till touched the code, the till's own
//   lost redemptions are recognised as its own: such an item never ends in conflict.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type {
  AttemptTiming,
  BridgeError,
  RedeemRewardPayload,
  Redemption,
  Result,
  Reward,
  ServiceClockReading,
  TillApi,
} from '../../../../common/contract';
import { errorFromResponse } from '../../../../electron/service/api-errors';
import { MAX_RETRY_AFTER_MS } from '../../../../common/backoff';
import { closedAttempt } from '../../../../renderer/offline/outbox/attribution';
import { CustomerCache } from '../../../../renderer/offline/cache/customer-cache';
import { rewardKey } from '../../../../renderer/offline/db/schema';
import { Outbox, type OutboxSettings } from '../../../../renderer/offline/outbox/outbox';
import { Replayer } from '../../../../renderer/offline/outbox/replayer';
import { createFakeLocks, customer, dropDb, freshDb, reward } from '../support/fixtures';

const SETTINGS: OutboxSettings = { allowOfflineRedemption: true, branchId: null, defaultCountry: 'SA' };
const CUSTOMER_ID = 'cust-prop';
const PHONE = '+966501234567';
/** The fake clock's true time at the start of every run. */
const EPOCH = Date.parse('2026-11-23T09:00:00Z');
/** The main process's monotonic clock reads `true time - MONOTONIC_BASE`. */
const MONOTONIC_BASE = EPOCH - 5_000;
const REQUEST_TIMEOUT_MS = 30_000;

// ── What the service (or the network) does with one redeem request ──

type RetryAfter = { header: string } | { ms: number } | { none: true };

type RedeemFault =
  | { kind: 'normal' } // the service decides: 200 if the code is available, else 422 reward_unavailable
  | { kind: 'reset_before' } // the connection broke before the request was completely sent
  | { kind: 'refused' } // nothing listened (ECONNREFUSED)
  | { kind: 'reset_after' } // processed, then the connection broke: the answer is lost
  | { kind: 'timeout_after' } // processed, no answer in time
  | { kind: 'server'; status: number; committed: boolean } // a 5xx, before or after the change was made
  | { kind: 'unauthorized' }
  | { kind: 'rate_limited'; retryAfter: RetryAfter }
  | { kind: 'validation' }; // a 422 other than reward_unavailable

interface RedeemAnswer {
  fault: RedeemFault;
  latencyMs: number;
  /** Where between sending and answering the service commits (for the faults that commit). */
  commitAt: number;
}

type CheckAnswer = 'truth' | 'server' | 'offline' | 'not_found';

type Start = 'fresh' | 'lost_online_committed' | 'lost_online_not_committed' | 'refused_online';

type Step =
  | { kind: 'run' }
  | { kind: 'advance'; ms: number }
  | { kind: 'other_till_redeems'; item: number }
  | { kind: 'key_fixed' }
  | { kind: 'retry_failed' };

const httpDate = fc
  .integer({ min: -10 * 365 * 86_400, max: 200 * 365 * 86_400 })
  .map((seconds) => new Date(Date.now() + seconds * 1000).toUTCString());

const retryAfter: fc.Arbitrary<RetryAfter> = fc.oneof(
  fc.record({
    header: fc.oneof(
      fc.nat({ max: 7_200 }).map(String),
      fc.bigInt({ min: 0n, max: 10n ** 30n }).map(String),
      httpDate,
      fc.string({ maxLength: 12 }),
    ),
  }),
  // As the bridge could carry it: any number at all.
  fc.record({
    ms: fc.oneof(
      fc.double(),
      fc.integer(),
      fc.constantFrom(Number.MAX_VALUE, Infinity, -Infinity, Number.NaN, 2 ** 31, 0),
    ),
  }),
  fc.constant({ none: true as const }),
);

const redeemFault: fc.Arbitrary<RedeemFault> = fc.oneof(
  { weight: 4, arbitrary: fc.constant({ kind: 'normal' as const }) },
  fc.constant({ kind: 'reset_before' as const }),
  fc.constant({ kind: 'refused' as const }),
  { weight: 2, arbitrary: fc.constant({ kind: 'reset_after' as const }) },
  fc.constant({ kind: 'timeout_after' as const }),
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('server' as const),
      status: fc.constantFrom(500, 502, 503, 504),
      committed: fc.boolean(),
    }),
  },
  fc.constant({ kind: 'unauthorized' as const }),
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('rate_limited' as const), retryAfter }) },
  fc.constant({ kind: 'validation' as const }),
);

const redeemAnswer: fc.Arbitrary<RedeemAnswer> = fc.record({
  fault: redeemFault,
  latencyMs: fc.integer({ min: 0, max: REQUEST_TIMEOUT_MS }),
  commitAt: fc.double({ min: 0, max: 1, noNaN: true }),
});

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 5, arbitrary: fc.constant({ kind: 'run' as const }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('advance' as const),
      ms: fc.oneof(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: 2 * MAX_RETRY_AFTER_MS })),
    }),
  },
  fc.record({ kind: fc.constant('other_till_redeems' as const), item: fc.nat({ max: 3 }) }),
  fc.constant({ kind: 'key_fixed' as const }),
  fc.constant({ kind: 'retry_failed' as const }),
);

const scenario = fc.record({
  starts: fc.array(
    fc.constantFrom<Start>('fresh', 'lost_online_committed', 'lost_online_not_committed', 'refused_online'),
    {
      minLength: 1,
      maxLength: 4,
    },
  ),
  redeemAnswers: fc.array(redeemAnswer, { maxLength: 14 }),
  checkAnswers: fc.array(fc.constantFrom<CheckAnswer>('truth', 'truth', 'server', 'offline', 'not_found'), {
    maxLength: 6,
  }),
  steps: fc.array(step, { minLength: 1, maxLength: 16 }),
  /** Whether the main process knows the service's clock (it learns it from `Date` headers). */
  clockKnown: fc.boolean(),
  uncertaintyMs: fc.integer({ min: 0, max: 3_000 }),
  /** How far the estimate is off, as a part of its uncertainty (an honest estimate is never off by more). */
  estimateError: fc.double({ min: -1, max: 1, noNaN: true }),
  /** A broken estimate: off by up to a minute beyond what it claims, so our own redemption may fall outside our windows. */
  estimateBrokenByMs: fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, fc.integer({ min: -60_000, max: 60_000 })),
  serviceSkewMs: fc.integer({ min: -15 * 60_000, max: 15 * 60_000 }),
  tillSkewMs: fc.integer({ min: -15 * 60_000, max: 15 * 60_000 }),
  jitter: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
});

type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

// ── The scripted service and bridge ──

interface CodeState {
  redeemedAt: number | null; // true time
  by: 'us' | 'other' | null;
  ourCommits: number;
  otherCommits: number;
  /** Redeem requests that reached the bridge for this code. */
  sent: number;
  /** The till was told, by a 200, that the service redeemed it. */
  heardRedeemed: boolean;
  sentAfterHeard: number;
  notFoundGiven: boolean;
}

class ScriptedService {
  /** True time, ms. */
  t = EPOCH;
  readonly codes = new Map<string, CodeState>();
  private readonly redeemAnswers: RedeemAnswer[];
  private readonly checkAnswers: CheckAnswer[];

  constructor(
    private readonly s: Scenario,
    codes: string[],
  ) {
    this.redeemAnswers = [...s.redeemAnswers];
    this.checkAnswers = [...s.checkAnswers];
    for (const code of codes) {
      this.codes.set(code, {
        redeemedAt: null,
        by: null,
        ourCommits: 0,
        otherCommits: 0,
        sent: 0,
        heardRedeemed: false,
        sentAfterHeard: 0,
        notFoundGiven: false,
      });
    }
  }

  get scriptLeft(): number {
    return this.redeemAnswers.length + this.checkAnswers.length;
  }

  /** The till's own (wrong) wall clock. */
  tillNow = (): Date => new Date(this.t + this.s.tillSkewMs);
  private local = (t = this.t): number => t - MONOTONIC_BASE;
  private trueOffset = (): number => this.s.serviceSkewMs + MONOTONIC_BASE;
  private estimatedOffset = (): number =>
    this.trueOffset() + Math.round(this.s.estimateError * this.s.uncertaintyMs) + this.s.estimateBrokenByMs;
  /** The service's timestamps, to the second. */
  private serviceStamp = (t: number): string =>
    new Date(Math.floor((t + this.s.serviceSkewMs) / 1000) * 1000).toISOString();

  clock(): ServiceClockReading {
    const known = this.s.clockKnown;
    return {
      offsetMs: known ? this.estimatedOffset() : null,
      uncertaintyMs: known ? this.s.uncertaintyMs : null,
      tillClockOffMs: known ? this.s.serviceSkewMs - this.s.tillSkewMs : null,
      localNow: this.local(),
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
    };
  }

  private commit(code: string, at: number, by: 'us' | 'other'): boolean {
    const state = this.codes.get(code)!;
    if (state.redeemedAt !== null) return false;
    state.redeemedAt = at;
    state.by = by;
    if (by === 'us') state.ourCommits += 1;
    else state.otherCommits += 1;
    return true;
  }

  otherTillRedeems(code: string): void {
    this.commit(code, this.t, 'other');
  }

  rewardOf(code: string): Reward {
    const state = this.codes.get(code)!;
    return state.redeemedAt === null
      ? reward(code, CUSTOMER_ID)
      : reward(code, CUSTOMER_ID, { status: 'redeemed', redeemed_at: this.serviceStamp(state.redeemedAt) });
  }

  /** One redeem request, as the main process would report it. */
  redeem(
    code: string,
    answer: RedeemAnswer = this.redeemAnswers.shift() ?? { fault: { kind: 'normal' }, latencyMs: 40, commitAt: 0.5 },
  ): Result<Redemption> {
    const state = this.codes.get(code)!;
    state.sent += 1;
    if (state.heardRedeemed) state.sentAfterHeard += 1;
    const known = this.s.clockKnown;
    const localStart = this.local();
    const commitAt = this.t + Math.round(answer.latencyMs * answer.commitAt);
    this.t += answer.latencyMs;
    const localEnd = this.local();
    const offset = this.estimatedOffset();
    const timing = (requestSent: boolean): AttemptTiming => ({
      localStart,
      localEnd,
      start: known ? localStart + offset : null,
      end: known ? localEnd + offset : null,
      uncertaintyMs: known ? this.s.uncertaintyMs : null,
      requestSent,
    });
    const fail = (error: BridgeError, requestSent = true): Result<Redemption> => ({
      ok: false,
      error,
      attempt: timing(requestSent),
    });
    const fault = answer.fault;
    switch (fault.kind) {
      case 'normal':
        if (this.commit(code, commitAt, 'us')) {
          state.heardRedeemed = true;
          const redemption: Redemption = {
            reward: this.rewardOf(code),
            card: customer(CUSTOMER_ID, 'Layla Haddad', PHONE).cards[0]!,
          };
          return { ok: true, data: redemption, attempt: timing(true) };
        }
        return fail({
          kind: 'reward_unavailable',
          status: 422,
          code: 'reward_unavailable',
          message: 'This reward is not available.',
        });
      case 'reset_before':
        return fail({ kind: 'offline', code: 'ECONNRESET', message: 'The connection was reset.' }, false);
      case 'refused':
        return fail({ kind: 'offline', code: 'ECONNREFUSED', message: 'Connection refused.' }, false);
      case 'reset_after':
        this.commit(code, commitAt, 'us');
        return fail({ kind: 'offline', code: 'ECONNRESET', message: 'The connection was reset.' });
      case 'timeout_after':
        this.commit(code, commitAt, 'us');
        return fail({ kind: 'timeout', message: 'The loyalty service took too long to answer.' });
      case 'server':
        if (fault.committed) this.commit(code, commitAt, 'us');
        return fail(errorFromResponse(fault.status, { message: 'Server Error' }));
      case 'unauthorized':
        return fail(errorFromResponse(401, { message: 'Unauthenticated.' }));
      case 'rate_limited': {
        const limit = fault.retryAfter;
        if ('header' in limit) return fail(errorFromResponse(429, { message: 'Too Many Attempts.' }, limit.header));
        const error: BridgeError = { kind: 'rate_limited', status: 429, message: 'Too Many Attempts.' };
        if ('ms' in limit) error.retryAfterMs = limit.ms;
        return fail(error);
      }
      case 'validation':
        return fail(
          errorFromResponse(422, {
            message: 'The given data was invalid.',
            errors: { order_reference: ['Too long.'] },
          }),
        );
    }
  }

  check(code: string): Result<Reward> {
    const answer = this.checkAnswers.shift() ?? 'truth';
    this.t += 25;
    switch (answer) {
      case 'truth':
        return { ok: true, data: this.rewardOf(code) };
      case 'server':
        return { ok: false, error: errorFromResponse(503, { message: 'Service Unavailable' }) };
      case 'offline':
        return { ok: false, error: { kind: 'offline', code: 'ECONNRESET', message: 'The connection was reset.' } };
      case 'not_found':
        this.codes.get(code)!.notFoundGiven = true;
        return { ok: false, error: errorFromResponse(404, { message: 'Not found.' }) };
    }
  }

  /** The part of `window.till` the replayer uses. */
  bridge(): TillApi {
    const api: Partial<TillApi> = {
      serviceClock: async () => ({ ok: true, data: this.clock() }),
      redeemReward: async (payload: RedeemRewardPayload) => this.redeem(payload.reward_code),
      checkReward: async (payload) => this.check(payload.reward_code),
    };
    return api as TillApi;
  }
}

// ── One run ──

async function play(s: Scenario): Promise<void> {
  const codes = s.starts.map((_, i) => `RW-PROP${i + 1}`);
  const service = new ScriptedService(s, codes);
  const db = freshDb();
  try {
    const now = service.tillNow;
    const cache = new CustomerCache(db, { defaultCountry: () => 'SA', now });
    const outbox = new Outbox(db, cache, { now });
    const replayer = new Replayer({
      db,
      api: service.bridge(),
      cache,
      outbox,
      locks: createFakeLocks(),
      now,
      random: () => s.jitter,
    });
    await cache.putCustomerWithRewards(
      customer(CUSTOMER_ID, 'Layla Haddad', '+966 50 123 4567', {
        rewards: codes.map((code) => reward(code, CUSTOMER_ID)),
      }),
    );

    // Queue each code as the facade does: offline at once, or after an online attempt failed.
    const queued: number[] = [];
    for (const [i, start] of s.starts.entries()) {
      const code = codes[i]!;
      let firstAttemptAt: string | null = null;
      let unanswered = null;
      if (start !== 'fresh') {
        firstAttemptAt = now().toISOString();
        const fault: RedeemFault =
          start === 'lost_online_committed'
            ? { kind: 'reset_after' }
            : start === 'lost_online_not_committed'
              ? { kind: 'server', status: 502, committed: false }
              : { kind: 'refused' };
        const online = service.redeem(code, { fault, latencyMs: 800, commitAt: 0.5 });
        if (online.ok || !online.attempt) throw new Error('the online attempt was scripted to fail');
        // The facade keeps the attempt only when the service may have acted on it.
        if (online.attempt.requestSent) unanswered = closedAttempt(online.attempt);
        else firstAttemptAt = null;
      }
      const result = await outbox.queueRedemption(
        { code, phone: PHONE, orderReference: `ORD-${i + 1}`, firstAttemptAt, unanswered },
        SETTINGS,
      );
      if (!result.ok) throw new Error(`not queued: ${result.reason}`);
      queued.push(result.item.seq!);
    }

    /** Sends per code at the moment its item reached the journal: nothing may follow. */
    const sentWhenJournaled = new Map<string, number>();

    async function checkInvariants(): Promise<void> {
      const items = await outbox.items();
      const journal = await outbox.journal();
      // Nothing lost, nothing duplicated.
      const places = [...items.map((item) => item.seq!), ...journal.map((entry) => entry.outboxSeq!)].sort(
        (a, b) => a - b,
      );
      expect(places).toEqual([...queued].sort((a, b) => a - b));

      for (const code of codes) {
        const state = service.codes.get(code)!;
        // The service redeemed it once at most, and the till never asked again after hearing it had.
        expect(state.ourCommits + state.otherCommits).toBeLessThanOrEqual(1);
        expect(state.sentAfterHeard).toBe(0);
      }

      for (const entry of journal) {
        const state = service.codes.get(entry.code!)!;
        expect(['redeemed', 'redeemed_answer_lost']).toContain(entry.outcome);
        // Done means the service holds it redeemed; "redeemed" (the answer heard) means by this till.
        expect(state.redeemedAt).not.toBeNull();
        if (entry.outcome === 'redeemed') expect(state.by).toBe('us');
        const sent = sentWhenJournaled.get(entry.code!);
        if (sent === undefined) sentWhenJournaled.set(entry.code!, state.sent);
        else expect(state.sent).toBe(sent);
        expect((await db.rewards.get(rewardKey(entry.code!)))?.pendingOutboxSeq).not.toBe(entry.outboxSeq);
      }

      const latest = now().getTime() + MAX_RETRY_AFTER_MS;
      for (const item of items) {
        if (item.kind !== 'redeem') throw new Error('only redemptions are queued here');
        const state = service.codes.get(item.code)!;
        expect(['pending', 'failed', 'conflict']).toContain(item.state);
        if (item.state === 'failed') {
          expect(item.lastError).not.toBeNull();
          expect(item.note).toBeTruthy();
        }
        if (item.state === 'conflict') expect(item.attribution).toBeTruthy();
        if (item.nextAttemptAt !== null) {
          const next = Date.parse(item.nextAttemptAt);
          expect(Number.isFinite(next)).toBe(true);
          expect(next).toBeLessThanOrEqual(latest);
        }
        // Every item the replayer tried and did not finish says why.
        if (item.state === 'pending' && state.sent > (s.starts[codes.indexOf(item.code)] === 'fresh' ? 0 : 1)) {
          expect(item.lastError).not.toBeNull();
        }
        // Our own lost redemption, on a known and honest clock, with no other till: recognised as ours.
        if (s.clockKnown && s.estimateBrokenByMs === 0 && state.otherCommits === 0 && !state.notFoundGiven) {
          expect(item.state).not.toBe('conflict');
        }
      }
    }

    for (const next of s.steps) {
      switch (next.kind) {
        case 'run':
          await replayer.runOnce();
          break;
        case 'advance':
          service.t += next.ms;
          break;
        case 'other_till_redeems':
          service.otherTillRedeems(codes[next.item % codes.length]!);
          break;
        case 'key_fixed':
          await replayer.resumeWithNewKey();
          break;
        case 'retry_failed':
          for (const item of await outbox.items()) if (item.state === 'failed') await outbox.retry(item.seq!);
          break;
      }
      await checkInvariants();
    }

    // The end: a person fixes the key when asked, and time passes beyond every wait, until each
    // pending item has been tried and says why it still waits (or the script runs out and all finish).
    // Each round finishes an item or uses up one scripted answer; once they run out, all finish.
    const rounds = service.scriptLeft + codes.length + 2;
    for (let round = 0; round < rounds; round++) {
      const pending = (await outbox.items()).filter((item) => item.state === 'pending');
      if (pending.every((item) => item.lastError !== null)) break;
      if (await replayer.pause()) await replayer.resumeWithNewKey();
      service.t += MAX_RETRY_AFTER_MS + 1;
      await replayer.runOnce();
      await checkInvariants();
    }
    const left = await outbox.items();
    expect(left.filter((item) => item.state === 'pending' && item.lastError === null)).toEqual([]);
    for (const item of left) {
      if (item.state === 'pending') {
        expect(item.lastError).not.toBeNull();
        expect(
          item.nextAttemptAt === null || Date.parse(item.nextAttemptAt) <= now().getTime() + MAX_RETRY_AFTER_MS,
        ).toBe(true);
      }
    }
  } finally {
    await dropDb(db);
  }
}

describe('the outbox and the replayer under random answers', () => {
  test('never redeem twice, never lose an item, and always end done, conflict, failed or pending with a reason', async () => {
    await fc.assert(fc.asyncProperty(scenario, play), { numRuns: 100 });
  }, 120_000);
});
