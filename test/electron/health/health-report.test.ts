/**
 * The health report's verdict (electron/health/health-report.ts, health-verdict.ts): which
 * facts make a till "needs attention" (exit 1) or "could not tell" (exit 2), by the thresholds
 * in force (the defaults, or the organisation's policy). The same function makes the report
 * of the running till and of `--health`; their end-to-end tests are
 * test/e2e/health-check.test.ts and till-health.test.ts.
 */
import { describe, expect, test } from 'vitest';
import type { KeptItem } from '../../../common/contract';
import { DEFAULT_SETTINGS } from '../../../electron/storage/settings';
import { healthReport, NOTHING_RECORDED, type GatheredFacts } from '../../../electron/health/health-report';
import { checkPolicy } from '../../../electron/policy/policy-reading';

const NOW = new Date('2026-11-27T12:00:00.000Z');
const hoursAgo = (hours: number) => new Date(NOW.getTime() - hours * 3_600_000).toISOString();
const item = (state: KeptItem['state'], hours: number): KeptItem => ({
  uid: `00000000-0000-4000-8000-${String(hours * 10).padStart(12, '0')}`,
  kind: 'redeem',
  state,
  queuedAt: hoursAgo(hours),
});

/** A till set up with its service, online, its cache refreshed an hour ago, nothing queued. */
function facts(more: Partial<GatheredFacts> = {}): GatheredFacts {
  return {
    till: { name: 'Till 1', machine: 'SHOP1-TILL1', id: 'LT-7K3M-Q9XZ', version: '1.4.2', shell: 'electron' },
    tillSince: hoursAgo(24 * 30),
    settings: { ...DEFAULT_SETTINGS, baseUrl: 'https://loyalty.example.com', tillName: 'Till 1' },
    mode: 'service',
    keySet: true,
    outbox: { items: [], unreadable: 0 },
    recorded: {
      ...NOTHING_RECORDED,
      recordedAt: hoursAgo(0.1),
      connection: { state: 'online', since: hoursAgo(5) },
      cache: { lastCompleteRefreshAt: hoursAgo(1), customers: 5000 },
    },
    policy: { state: 'none' },
    shopTills: [],
    unknown: [],
    ...more,
  };
}

const codes = (more: Partial<GatheredFacts>) => healthReport(facts(more), NOW).reasons.map((reason) => reason.code);

describe('the verdict', () => {
  test('a till with nothing wrong is healthy, exit 0', () => {
    expect(healthReport(facts(), NOW)).toMatchObject({ status: 'healthy', exitCode: 0, reasons: [] });
  });

  test('an item waiting a day, a failure or a conflict: needs attention, exit 1', () => {
    expect(codes({ outbox: { items: [item('pending', 23.9)], unreadable: 0 } })).toEqual([]);
    expect(codes({ outbox: { items: [item('pending', 24)], unreadable: 0 } })).toEqual(['waiting_too_long']);
    expect(codes({ outbox: { items: [item('failed', 0.1), item('conflict', 0.1)], unreadable: 0 } })).toEqual([
      'failed_unacknowledged',
      'conflict_unacknowledged',
    ]);
    expect(healthReport(facts({ outbox: { items: [item('conflict', 1)], unreadable: 0 } }), NOW).exitCode).toBe(1);
  });

  test('a cache not refreshed for a week, or never in a week; a week offline; a refused policy', () => {
    const cache = (at: string | null) => ({
      recorded: { ...facts().recorded, cache: { lastCompleteRefreshAt: at, customers: null } },
    });
    expect(codes(cache(hoursAgo(24 * 7 - 1)))).toEqual([]);
    expect(codes(cache(hoursAgo(24 * 7)))).toEqual(['cache_stale']);
    expect(codes({ ...cache(null), tillSince: hoursAgo(24 * 6) })).toEqual([]);
    expect(codes({ ...cache(null), tillSince: hoursAgo(24 * 8) })).toEqual(['cache_never_refreshed']);
    const offline = (hours: number) => ({
      recorded: { ...facts().recorded, connection: { state: 'offline' as const, since: hoursAgo(hours) } },
    });
    expect(codes(offline(23))).toEqual([]);
    expect(codes(offline(25))).toEqual(['offline_too_long']);
    expect(codes({ policy: checkPolicy({ schemaVersion: 2 }, '/etc/loyalty-till/policy.json') })).toEqual([
      'policy_refused',
    ]);
  });

  test('a till not set up needs attention, exit 1, saying what it lacks; not judged on a service it has not', () => {
    const stale = { recorded: { ...NOTHING_RECORDED, connection: { state: 'offline' as const, since: hoursAgo(99) } } };
    const never = healthReport(
      facts({ ...stale, mode: 'unconfigured', keySet: false, settings: { ...DEFAULT_SETTINGS, baseUrl: '' } }),
      NOW,
    );
    expect(never).toMatchObject({ status: 'attention', exitCode: 1 });
    expect(never.reasons).toEqual([
      {
        code: 'not_set_up',
        detail: 'The till is not set up with a loyalty service (no service address, no API key): Settings (F9).',
      },
    ]);
    // An address without a key is not set up either.
    expect(healthReport(facts({ ...stale, mode: 'unconfigured', keySet: false }), NOW).reasons).toEqual([
      { code: 'not_set_up', detail: expect.stringContaining('(no API key)') },
    ]);
    // Its outbox is still judged: work queued before it lost its settings is still owed.
    expect(codes({ mode: 'unconfigured', outbox: { items: [item('conflict', 1)], unreadable: 0 } })).toEqual([
      'not_set_up',
      'conflict_unacknowledged',
    ]);
  });

  test('a till in demo mode needs attention, exit 1: the demo is not a real service', () => {
    const stale = { recorded: { ...NOTHING_RECORDED, connection: { state: 'offline' as const, since: hoursAgo(99) } } };
    const demo = healthReport(facts({ ...stale, mode: 'demo' }), NOW);
    expect(demo).toMatchObject({ status: 'attention', exitCode: 1 });
    expect(demo.reasons).toEqual([
      {
        code: 'demo_mode',
        detail: 'The till runs the demo service, not a real loyalty service: nothing it does reaches the programme.',
      },
    ]);
  });

  test('no folder: could not tell (exit 2), and nothing said of a set-up it could not read', () => {
    const report = healthReport(
      facts({
        mode: 'unconfigured',
        keySet: false,
        settings: null,
        outbox: null,
        unknown: [{ code: 'no_folder', detail: 'There is no till data folder at /x.' }],
      }),
      NOW,
    );
    expect(report).toMatchObject({ status: 'unknown', exitCode: 2 });
    expect(report.reasons.map((reason) => reason.code)).toEqual(['no_folder']);
  });

  test('the policy sets the thresholds, each on its own', () => {
    const policy = checkPolicy(
      { schemaVersion: 1, health: { waitingHours: 2, refreshDays: 1, unacknowledgedHours: 4 } },
      '/etc/loyalty-till/policy.json',
    );
    const report = healthReport(
      facts({ policy, outbox: { items: [item('pending', 3), item('failed', 3)], unreadable: 0 } }),
      NOW,
    );
    expect(report.thresholds).toEqual({ waitingHours: 2, unacknowledgedHours: 4, refreshDays: 1, offlineHours: 24 });
    expect(report.reasons.map((reason) => reason.code)).toEqual(['waiting_too_long']);
    // A threshold outside what the check allows makes the whole policy refused, and the defaults hold.
    const wrong = checkPolicy({ schemaVersion: 1, health: { waitingHours: 0 } }, 'p');
    expect(wrong.state).toBe('refused');
    expect(healthReport(facts({ policy: wrong }), NOW).thresholds.waitingHours).toBe(24);
  });

  test('could not tell outweighs needs attention: exit 2', () => {
    const report = healthReport(
      facts({
        outbox: null,
        policy: checkPolicy({ schemaVersion: 2 }, 'p'),
        unknown: [{ code: 'outbox_unreadable', detail: 'EACCES' }],
      }),
      NOW,
    );
    expect(report).toMatchObject({ status: 'unknown', exitCode: 2, outbox: null });
    expect(report.reasons.map((reason) => reason.code)).toEqual(['outbox_unreadable', 'policy_refused']);
  });

  test('the shop’s tills heard from in the last shift (8 hours), by name', () => {
    const shop = facts({
      settings: { ...facts().settings!, branchId: '5c2d7e10-8a4b-4f6c-9d1e-2b3a4c5d6e7f' },
      shopTills: [
        { till: 'Till 2', host: '192.168.1.21', port: 47231, at: NOW.getTime() - 3_600_000 },
        { till: 'Till 3', host: '192.168.1.22', port: 47231, at: NOW.getTime() - 9 * 3_600_000 },
      ],
    });
    expect(healthReport(shop, NOW).shopLedger).toEqual({
      enabled: true,
      tillsHeardThisShift: ['Till 2'],
      tillsKnown: 2,
    });
  });
});
