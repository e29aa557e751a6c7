import { join } from 'node:path';
import type { ConnectionState, HealthReport } from '../../common/contract';
import { isRecord } from '../../common/is-record';
import { readFileIfExists, writeFileAtomic } from '../storage/atomic-file';
import { NOTHING_RECORDED, type RecordedFacts } from './health-report';

/**
 * The till's health on disk, in the user-data folder, for what runs without the till:
 * `health.json`, the report as the running till last wrote it (a fleet tool may read the file
 * instead of running `--health`), and `connection-history.json`, when the service came and
 * went over the last seven days (for the support file). Both 0600, written atomically: a tool
 * reading them while the till writes gets the old file or the new, never half of one.
 */
export const HEALTH_FILE = 'health.json';
export const CONNECTION_HISTORY_FILE = 'connection-history.json';

/** One change of the connection, as the till's own calls found it. */
export interface ConnectionChange {
  at: string;
  state: 'online' | 'offline';
}

const isTime = (value: unknown): value is string => typeof value === 'string' && !Number.isNaN(Date.parse(value));
const timeOrNull = (value: unknown): string | null => (isTime(value) ? value : null);
const CONNECTION_STATES: readonly unknown[] = ['online', 'offline', 'unknown'] satisfies ConnectionState[];

async function readJson(file: string): Promise<unknown> {
  const raw = await readFileIfExists(file).catch(() => null);
  if (!raw) return undefined;
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * What the running till last recorded, from `health.json`: each fact taken only when it has
 * its shape, so a file a tool or a person edited, or an older one, never stops the check.
 */
export async function readRecorded(folder: string): Promise<RecordedFacts> {
  const file = await readJson(join(folder, HEALTH_FILE));
  if (!isRecord(file)) return NOTHING_RECORDED;
  const section = (name: string): Record<string, unknown> => (isRecord(file[name]) ? file[name] : {});
  const connection = section('connection');
  const cache = section('cache');
  const storage = section('storage');
  const updates = section('updates');
  const customers = cache.customers;
  return {
    recordedAt: timeOrNull(file.recordedAt),
    connection: {
      state: CONNECTION_STATES.includes(connection.state) ? (connection.state as ConnectionState) : 'unknown',
      since: timeOrNull(connection.since),
    },
    cache: {
      lastCompleteRefreshAt: timeOrNull(cache.lastCompleteRefreshAt),
      customers: Number.isSafeInteger(customers) && (customers as number) >= 0 ? (customers as number) : null,
    },
    storage: { persisted: typeof storage.persisted === 'boolean' ? storage.persisted : null },
    updates: {
      enabled: updates.enabled === true,
      channel: typeof updates.channel === 'string' ? updates.channel : null,
      lastCheckAt: timeOrNull(updates.lastCheckAt),
    },
  };
}

export async function writeHealthFile(folder: string, report: HealthReport): Promise<void> {
  await writeFileAtomic(join(folder, HEALTH_FILE), `${JSON.stringify(report, null, 2)}\n`, 0o600);
}

export async function readConnectionHistory(folder: string): Promise<ConnectionChange[]> {
  const file = await readJson(join(folder, CONNECTION_HISTORY_FILE));
  const changes = isRecord(file) && Array.isArray(file.changes) ? (file.changes as unknown[]) : [];
  return changes.filter(
    (change): change is ConnectionChange =>
      isRecord(change) && isTime(change.at) && (change.state === 'online' || change.state === 'offline'),
  );
}

export async function writeConnectionHistory(folder: string, changes: readonly ConnectionChange[]): Promise<void> {
  await writeFileAtomic(
    join(folder, CONNECTION_HISTORY_FILE),
    `${JSON.stringify({ changes: changes.map(({ at, state }) => ({ at, state })) })}\n`,
    0o600,
  );
}
