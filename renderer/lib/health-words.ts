/**
 * The till's health (common/health-contract.ts) in the interface's words, for Settings'
 * "About this till": what a manager reads out to the help desk on the phone. The report's own
 * sentences are English, for fleet tools; here each fact and each reason is worded again from
 * its codes and figures, in the language on screen.
 */
import type { HealthReason, HealthReport } from '../../common/contract';
import { t, tPlural, type MessageKey } from '../i18n';
import { formatCount } from '../i18n/format';
import { isolatedList, ltr } from '../i18n/isolate';
import { formatDayTime } from './dates';

export interface HealthFact {
  key: string;
  label: string;
  value: string;
  /** Left to right whatever the language (an address, an id). */
  ltr?: boolean;
}

export function healthStatusWords(report: HealthReport): MessageKey {
  if (report.status === 'healthy') return 'aboutTill.health.healthy';
  return report.status === 'attention' ? 'aboutTill.health.attention' : 'aboutTill.health.unknown';
}

/** One reason, with the threshold it was judged by. */
export function healthReasonWords(reason: HealthReason, report: HealthReport): string {
  const { waitingHours, refreshDays, offlineHours } = report.thresholds;
  const count = (value: number) => ({ count: formatCount(value) });
  switch (reason.code) {
    case 'not_set_up':
      return t('aboutTill.reasons.notSetUp');
    case 'demo_mode':
      return t('aboutTill.reasons.demoMode');
    case 'waiting_too_long':
      return tPlural('aboutTill.reasons.waitingTooLong', waitingHours, count(waitingHours));
    case 'failed_unacknowledged':
      return t('aboutTill.reasons.failedUnacknowledged');
    case 'conflict_unacknowledged':
      return t('aboutTill.reasons.conflictUnacknowledged');
    case 'cache_stale':
      return tPlural('aboutTill.reasons.cacheStale', refreshDays, count(refreshDays));
    case 'cache_never_refreshed':
      return t('aboutTill.reasons.cacheNeverRefreshed');
    case 'policy_refused':
      return t('aboutTill.reasons.policyRefused');
    case 'offline_too_long':
      return tPlural('aboutTill.reasons.offlineTooLong', offlineHours, count(offlineHours));
    case 'no_folder':
      return t('aboutTill.reasons.noFolder');
    case 'outbox_unreadable':
      return t('aboutTill.reasons.outboxUnreadable');
    case 'policy_unread':
      return t('aboutTill.reasons.policyUnread');
    case 'check_failed':
      return t('aboutTill.reasons.checkFailed');
  }
}

function serviceWords({ service }: HealthReport): string {
  if (service.mode === 'demo') return t('aboutTill.facts.serviceDemo');
  return service.mode === 'service' && service.baseUrl ? ltr(service.baseUrl) : t('aboutTill.facts.serviceNone');
}

function connectionWords({ connection }: HealthReport): string {
  if (connection.state === 'unknown' || connection.since === null) return t('aboutTill.facts.connectionUnknown');
  const date = formatDayTime(connection.since);
  return connection.state === 'online' ? t('aboutTill.facts.online', { date }) : t('aboutTill.facts.offline', { date });
}

function outboxWords({ outbox }: HealthReport): string {
  if (outbox === null) return t('aboutTill.facts.outboxUnread');
  if (outbox.oldestQueuedAt === null) return t('aboutTill.facts.outboxEmpty');
  const counts = t('aboutTill.facts.outboxCounts', {
    waiting: formatCount(outbox.waiting),
    failed: formatCount(outbox.failed),
    conflicts: formatCount(outbox.conflicts),
  });
  return `${counts} ${t('aboutTill.facts.outboxOldest', { date: formatDayTime(outbox.oldestQueuedAt) })}`;
}

function cacheWords({ cache }: HealthReport): string {
  if (cache.lastCompleteRefreshAt === null) return t('aboutTill.facts.cacheNever');
  const refreshed = t('aboutTill.facts.cacheRefreshed', { date: formatDayTime(cache.lastCompleteRefreshAt) });
  if (cache.customers === null) return refreshed;
  const customers = tPlural('aboutTill.facts.cacheCustomers', cache.customers, { count: formatCount(cache.customers) });
  return `${refreshed} ${customers}`;
}

const POLICY_WORDS: Record<HealthReport['policy']['state'], MessageKey> = {
  none: 'aboutTill.facts.policyNone',
  applied: 'aboutTill.facts.policyApplied',
  refused: 'aboutTill.facts.policyRefused',
  unread: 'aboutTill.facts.policyUnread',
};

function shopWords({ shopLedger }: HealthReport): string {
  if (!shopLedger.enabled) return t('aboutTill.facts.shopOff');
  const heard = shopLedger.tillsHeardThisShift;
  return heard.length > 0 ? isolatedList(heard) : t('aboutTill.facts.shopNone');
}

function updatesWords({ updates }: HealthReport): string {
  if (!updates.enabled) return t('aboutTill.facts.updatesOff');
  const channel = ltr(updates.channel);
  return updates.lastCheckAt
    ? t('aboutTill.facts.updatesChecked', { channel, date: formatDayTime(updates.lastCheckAt) })
    : t('aboutTill.facts.updatesNever', { channel });
}

/** The facts, in the order the help desk asks for them. */
export function healthFacts(report: HealthReport): HealthFact[] {
  const { till, service } = report;
  const version = till.shell === 'electron' ? 'aboutTill.facts.versionElectron' : 'aboutTill.facts.versionBrowser';
  return [
    { key: 'till', label: t('aboutTill.facts.till'), value: till.name ?? '' },
    { key: 'machine', label: t('aboutTill.facts.machine'), value: till.machine, ltr: true },
    { key: 'id', label: t('aboutTill.facts.id'), value: till.id ?? '', ltr: true },
    { key: 'version', label: t('aboutTill.facts.version'), value: t(version, { version: ltr(till.version) }) },
    { key: 'service', label: t('aboutTill.facts.service'), value: serviceWords(report) },
    {
      key: 'programme',
      label: t('aboutTill.facts.programme'),
      value: service.programId ?? t('aboutTill.facts.programmeAll'),
      ltr: service.programId !== null,
    },
    { key: 'connection', label: t('aboutTill.facts.connection'), value: connectionWords(report) },
    { key: 'outbox', label: t('aboutTill.facts.outbox'), value: outboxWords(report) },
    { key: 'cache', label: t('aboutTill.facts.cache'), value: cacheWords(report) },
    { key: 'policy', label: t('aboutTill.facts.policy'), value: t(POLICY_WORDS[report.policy.state]) },
    { key: 'shop', label: t('aboutTill.facts.shop'), value: shopWords(report) },
    { key: 'updates', label: t('aboutTill.facts.updates'), value: updatesWords(report) },
  ];
}
