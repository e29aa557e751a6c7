import { arch, release, type } from 'node:os';
import type { HealthReport, KeptItem, KeptJournalEntry, Settings } from '../../common/contract';
import { redact, type PersonalValues } from '../log/redaction';
import type { PolicyReading } from '../policy/policy-reading';
import type { SeenTill } from '../shop-ledger/seen-tills';
import type { ConnectionChange } from './health-file';
import type { LogTail } from './log-tail';
import { journalCounts, outboxCounts } from './outbox-figures';
import { packSupportArchive, type SupportPart } from './support-archive';

/**
 * The support file (docs/operations.md, "A support file"): one archive a manager saves from
 * Settings and sends to the help desk, with what the help desk asks on the phone and nothing
 * personal or secret, one file per part (support-archive.ts names and packs them).
 *
 * Two walls keep people and keys out. What it says of the till is picked field by field
 * (counts by state and age, never a record; the settings that configure, never the cashiers'
 * names nor the PIN's hash). And every string in it, the logs first, goes through the same
 * redaction as the log (log/redaction.ts), with the till's own personal values known, so what
 * an earlier version wrote to its log in clear does not leave either. Only the organisation's
 * own addresses and ids (the service, the branch, the programme, the update feed) are kept as
 * they are, and the till's own name, machine and id, since a redaction would take an id or a
 * numbered name for a customer's.
 */
/** 2: the parts as files of a .zip (1 was one JSON document). */
export const SUPPORT_FILE_VERSION = 2;

export interface SupportFileSources {
  report: HealthReport;
  settings: Settings;
  /** The settings the policy locks. */
  locked: readonly string[];
  policy: PolicyReading;
  connectionHistory: readonly ConnectionChange[];
  items: readonly KeptItem[];
  journal: readonly KeptJournalEntry[];
  shopTills: readonly SeenTill[];
  display: { screens: number; windows: number };
  /** The browser the page runs in, as it says (`navigator.userAgent`). */
  userAgent: string | null;
  /** Each log file's lines of the last 7 days, oldest file first. */
  logs: readonly LogTail[];
  secrets: readonly string[];
  personal: PersonalValues;
  now: Date;
}

/** An address without what could carry a secret (a user, a password, a query, a fragment). */
function addressOnly(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.pathname === '/' ? parsed.origin : `${parsed.origin}${parsed.pathname}`;
  } catch {
    return null;
  }
}

/** The settings that configure the till: its cashiers counted, never named. */
function settingsSection(settings: Settings) {
  return {
    baseUrl: addressOnly(settings.baseUrl),
    branchId: settings.branchId,
    programId: settings.programId,
    tillName: settings.tillName,
    defaultCountry: settings.defaultCountry,
    currency: settings.currency,
    language: settings.language,
    arabicDigits: settings.arabicDigits,
    theme: settings.theme,
    allowOfflineRedemption: settings.allowOfflineRedemption,
    posCallbackUrl: addressOnly(settings.posCallbackUrl),
    cacheRefresh: settings.cacheRefresh,
    shopLedger: settings.shopLedger,
    shopRedeemWhenSplit: settings.shopRedeemWhenSplit,
    shopPeers: settings.shopPeers,
    shopLedgerPort: settings.shopLedgerPort,
    cashiers: settings.cashiers.length,
    customerDisplayChosen: settings.customerDisplayId !== null,
    displayIdleSeconds: settings.displayIdleSeconds,
  };
}

/** The policy as applied: what it sets and locks, its updates and health; the PIN's hash only said to be there. */
function policySection(policy: PolicyReading, locked: readonly string[]) {
  if (policy.state !== 'applied') return { state: policy.state, locked: [...locked] };
  const { settings, defaults, updates, health, managerPinHash } = policy.policy;
  const withoutSecrets = (values: typeof settings) =>
    values && {
      ...values,
      ...(values.baseUrl !== undefined ? { baseUrl: addressOnly(values.baseUrl) } : {}),
      ...(values.posCallbackUrl !== undefined ? { posCallbackUrl: addressOnly(values.posCallbackUrl) } : {}),
    };
  return {
    state: policy.state,
    origin: policy.origin,
    locked: [...locked],
    settings: withoutSecrets(settings) ?? null,
    defaults: withoutSecrets(defaults) ?? null,
    updates: updates ? { ...updates, feedUrl: addressOnly(updates.feedUrl) } : null,
    health: health ?? null,
    managerPinHash: managerPinHash ? 'set' : 'not set',
  };
}

/** Every string of `value` redacted, but those `kept` (the organisation's own addresses and ids). */
function redactAll(value: unknown, clean: (text: string) => string, kept: ReadonlySet<string>): unknown {
  if (typeof value === 'string') return kept.has(value) ? value : clean(value);
  if (Array.isArray(value)) return value.map((item) => redactAll(item, clean, kept));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactAll(item, clean, kept)]));
  return value;
}

/** The parts as the archive holds them, each picked field by field; not yet redacted. */
function partsOf(sources: SupportFileSources): Record<SupportPart, unknown> {
  const { report, settings, now } = sources;
  return {
    'health.json': report,
    'settings.json': settingsSection(settings),
    'policy.json': policySection(sources.policy, sources.locked),
    'connections.json': { now: report.connection, history: sources.connectionHistory },
    'work.json': { outbox: outboxCounts(sources.items, now), journal: journalCounts(sources.journal, now) },
    'shop-tills.json': {
      ...report.shopLedger,
      peers: sources.shopTills.map(({ till, host, port, at }) => ({
        till,
        address: `${host}:${port}`,
        lastHeardAt: new Date(at).toISOString(),
      })),
    },
    'display.json': { ...sources.display, chosen: settings.customerDisplayId !== null },
    'versions.json': {
      supportFile: SUPPORT_FILE_VERSION,
      madeAt: now.toISOString(),
      app: report.till.version,
      shell: report.till.shell,
      electron: process.versions.electron ?? null,
      chromium: process.versions.chrome ?? null,
      node: process.versions.node,
      browser: sources.userAgent,
      system: `${type()} ${release()} (${arch()})`,
    },
  };
}

export function supportFile(sources: SupportFileSources): { fileName: string; bytes: Uint8Array } {
  const { report, settings, now } = sources;
  const kept = new Set(
    [
      report.till.id,
      report.till.machine,
      settings.tillName,
      settings.baseUrl,
      addressOnly(settings.baseUrl),
      settings.branchId,
      settings.programId,
      sources.policy.state === 'applied' ? addressOnly(sources.policy.policy.updates?.feedUrl) : null,
    ].filter((value): value is string => typeof value === 'string' && value.length > 0),
  );
  const clean = (text: string) => redact(text, sources.secrets, sources.personal);
  const bytes = packSupportArchive({
    // Every part and every log line through the one redaction; the file names are the till's own.
    parts: redactAll(partsOf(sources), clean, kept) as Record<SupportPart, unknown>,
    logs: sources.logs.map(({ name, lines }) => ({ name, lines: lines.map(clean) })),
    madeAt: now,
    formatVersion: SUPPORT_FILE_VERSION,
  });
  const day = now.toISOString().slice(0, 10);
  return { fileName: `loyalty-till-support-${report.till.id ?? 'till'}-${day}.zip`, bytes };
}
