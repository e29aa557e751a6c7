import type { HealthExitCode, HealthReason, HealthReport, HealthStatus } from '../../common/contract';
import type { KeptItem } from '../../common/contract';
import { oldestQueued } from '../../common/outbox-figures';
import { hoursSince } from './outbox-figures';

/**
 * Whether the till is healthy, needs attention, or could not be told, and why
 * (docs/operations.md, "Watching the tills"): the exit code of `--health`. Could not tell (2)
 * outweighs needs attention (1): a till whose outbox cannot be read may owe anything.
 */
export interface VerdictFacts {
  report: Omit<HealthReport, 'status' | 'exitCode' | 'reasons'>;
  /** The outbox's items (null: it could not be read), judged by state and age. */
  items: readonly KeptItem[] | null;
  /** When the till was first started (its id was made): a cache never refreshed is judged from then. */
  tillSince: string | null;
  /** Reasons found while the facts were gathered (no folder, a policy not read in time). */
  unknown: HealthReason[];
}

export interface Verdict {
  status: HealthStatus;
  exitCode: HealthExitCode;
  reasons: HealthReason[];
}

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

function outboxReasons(items: readonly KeptItem[], report: VerdictFacts['report'], now: Date): HealthReason[] {
  const { waitingHours, unacknowledgedHours } = report.thresholds;
  const reasons: HealthReason[] = [];
  const waiting = items.filter((item) => item.state === 'pending');
  const oldestWaiting = hoursSince(oldestQueued(waiting)?.queuedAt ?? null, now);
  if (oldestWaiting !== null && oldestWaiting >= waitingHours) {
    reasons.push({
      code: 'waiting_too_long',
      detail: `${plural(waiting.length, 'item')} waiting to be sent; the oldest for ${oldestWaiting} hours (the limit is ${waitingHours}).`,
    });
  }
  for (const [state, code, words] of [
    ['failed', 'failed_unacknowledged', 'failed'],
    ['conflict', 'conflict_unacknowledged', 'in conflict'],
  ] as const) {
    const overdue = items.filter(
      (item) => item.state === state && (hoursSince(item.queuedAt, now) ?? 0) >= unacknowledgedHours,
    );
    if (overdue.length > 0)
      reasons.push({
        code,
        detail: `${plural(overdue.length, 'item')} ${words}, not acknowledged: a manager must look at the Outbox (F8).`,
      });
  }
  return reasons;
}

/**
 * A till not set up with a service, or running the demo, takes no real redemption to the
 * programme's books: whatever else it says, a help desk must know. Its service and its cache
 * are not judged (otherReasons): they are not the organisation's.
 */
function serviceReasons({ service }: VerdictFacts['report']): HealthReason[] {
  if (service.mode === 'demo')
    return [
      {
        code: 'demo_mode',
        detail: 'The till runs the demo service, not a real loyalty service: nothing it does reaches the programme.',
      },
    ];
  if (service.mode !== 'unconfigured') return [];
  const missing = [service.baseUrl ? null : 'no service address', service.keySet ? null : 'no API key'].filter(
    (word) => word !== null,
  );
  const why = missing.length > 0 ? ` (${missing.join(', ')})` : '';
  return [{ code: 'not_set_up', detail: `The till is not set up with a loyalty service${why}: Settings (F9).` }];
}

function otherReasons(facts: VerdictFacts, now: Date): HealthReason[] {
  const { report, tillSince } = facts;
  const { refreshDays, offlineHours } = report.thresholds;
  const reasons: HealthReason[] = [];
  const inService = report.service.mode === 'service';
  const refreshedHours = hoursSince(report.cache.lastCompleteRefreshAt, now);
  if (inService && refreshedHours !== null && refreshedHours >= refreshDays * 24) {
    reasons.push({
      code: 'cache_stale',
      detail: `The offline cache was last refreshed in full ${Math.floor(refreshedHours / 24)} days ago (the limit is ${refreshDays}).`,
    });
  }
  const existedHours = hoursSince(tillSince, now);
  if (inService && refreshedHours === null && existedHours !== null && existedHours >= refreshDays * 24) {
    reasons.push({
      code: 'cache_never_refreshed',
      detail: `The offline cache has never been refreshed in full, in ${Math.floor(existedHours / 24)} days (the limit is ${refreshDays}).`,
    });
  }
  if (report.policy.state === 'refused')
    reasons.push({ code: 'policy_refused', detail: report.policy.problem ?? "The organisation's policy was refused." });
  const offlineFor = report.connection.state === 'offline' ? hoursSince(report.connection.since, now) : null;
  if (inService && offlineFor !== null && offlineFor >= offlineHours) {
    reasons.push({
      code: 'offline_too_long',
      detail: `The loyalty service has been unreachable for ${offlineFor} hours (the limit is ${offlineHours}).`,
    });
  }
  return reasons;
}

export function judgeHealth(facts: VerdictFacts, now: Date): Verdict {
  // Without its folder nothing is known of how the till is set up: "could not tell" says it all.
  const folderRead = !facts.unknown.some((reason) => reason.code === 'no_folder');
  const attention = [
    ...(folderRead ? serviceReasons(facts.report) : []),
    ...(facts.items ? outboxReasons(facts.items, facts.report, now) : []),
    ...otherReasons(facts, now),
  ];
  const reasons = [...facts.unknown, ...attention];
  if (facts.unknown.length > 0) return { status: 'unknown', exitCode: 2, reasons };
  if (attention.length > 0) return { status: 'attention', exitCode: 1, reasons };
  return { status: 'healthy', exitCode: 0, reasons };
}
