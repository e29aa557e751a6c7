import {
  HEALTH_REPORT_VERSION,
  type CacheReport,
  type ConnectionMode,
  type ConnectionState,
  type HealthReason,
  type HealthReport,
  type KeptItem,
  type Settings,
} from '../../common/contract';
import { ENGLISH } from '../messages';
import { describePolicyProblem, type PolicyReading } from '../policy/policy-reading';
import { SHIFT_MS, type SeenTill } from '../shop-ledger/seen-tills';
import { outboxFigures } from './outbox-figures';
import { thresholdsOf } from './health-thresholds';
import { judgeHealth } from './health-verdict';

/**
 * The health report (common/health-contract.ts) from the facts gathered, by the running till
 * from what it holds (till-health.ts) or by `--health` from the files (health-check.ts): one
 * function, so the two never say it differently.
 */

/** What only the running till knows, recorded in `health.json` for the check that runs without it. */
export interface RecordedFacts {
  /** When it was recorded; null: never (the till has not run since the health check came). */
  recordedAt: string | null;
  connection: { state: ConnectionState; since: string | null };
  cache: CacheReport;
  storage: { persisted: boolean | null };
  updates: { enabled: boolean; channel: string | null; lastCheckAt: string | null };
}

export const NOTHING_RECORDED: RecordedFacts = Object.freeze({
  recordedAt: null,
  connection: { state: 'unknown' as const, since: null },
  cache: { lastCompleteRefreshAt: null, customers: null },
  storage: { persisted: null },
  updates: { enabled: false, channel: null, lastCheckAt: null },
});

export interface GatheredFacts {
  till: HealthReport['till'];
  /** When the till was first started (its id made), for "never refreshed in N days". */
  tillSince: string | null;
  /** The settings with the policy over them; null where there are none to read (no folder). */
  settings: Settings | null;
  mode: ConnectionMode;
  keySet: boolean;
  /** The main process's copy of the outbox; null when it could not be read. */
  outbox: { items: readonly KeptItem[]; unreadable: number } | null;
  recorded: RecordedFacts;
  /** The policy as read now; null when it could not be read in time. */
  policy: PolicyReading | null;
  shopTills: readonly SeenTill[];
  /** Why something could not be told (no folder, the outbox unreadable, the policy unread). */
  unknown: HealthReason[];
}

export function healthReport(facts: GatheredFacts, now: Date): HealthReport {
  const { settings, policy, recorded } = facts;
  const applied = policy?.state === 'applied' ? policy.policy : null;
  const shopEnabled =
    facts.mode === 'service' && facts.keySet && !!settings?.shopLedger && !!settings.baseUrl && !!settings.branchId;
  const heardSince = now.getTime() - SHIFT_MS;
  const report: Omit<HealthReport, 'status' | 'exitCode' | 'reasons'> = {
    healthCheck: HEALTH_REPORT_VERSION,
    checkedAt: now.toISOString(),
    recordedAt: recorded.recordedAt,
    till: facts.till,
    service: {
      mode: facts.mode,
      baseUrl: settings?.baseUrl ?? null,
      programId: settings?.programId ?? null,
      branchId: settings?.branchId ?? null,
      keySet: facts.keySet,
    },
    connection: facts.mode === 'unconfigured' ? { state: 'unknown', since: null } : recorded.connection,
    outbox: facts.outbox
      ? { ...outboxFigures(facts.outbox.items, now), unreadableLines: facts.outbox.unreadable }
      : null,
    cache: recorded.cache,
    policy: policySection(policy),
    shopLedger: {
      enabled: shopEnabled,
      tillsHeardThisShift: shopEnabled
        ? facts.shopTills.filter((till) => till.at >= heardSince).map((till) => till.till)
        : [],
      tillsKnown: facts.shopTills.length,
    },
    storage: recorded.storage,
    updates: {
      enabled: recorded.updates.enabled && applied?.updates?.enabled !== false,
      channel: applied?.updates?.channel ?? recorded.updates.channel ?? 'latest',
      lastCheckAt: recorded.updates.lastCheckAt,
    },
    thresholds: thresholdsOf(applied),
  };
  const verdict = judgeHealth(
    { report, items: facts.outbox?.items ?? null, tillSince: facts.tillSince, unknown: facts.unknown },
    now,
  );
  // The verdict first: what a person reading the output looks for.
  const { healthCheck, ...rest } = report;
  return { healthCheck, ...verdict, ...rest };
}

function policySection(policy: PolicyReading | null): HealthReport['policy'] {
  if (policy === null) return { state: 'unread', origin: null, problem: null };
  if (policy.state === 'none') return { state: 'none', origin: null, problem: null };
  if (policy.state === 'applied') return { state: 'applied', origin: policy.origin, problem: null };
  return {
    state: 'refused',
    origin: policy.problem.origin,
    // In English: the log's sentence, for a fleet tool's report.
    problem: describePolicyProblem(policy.problem, ENGLISH),
  };
}
