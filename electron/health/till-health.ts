import type {
  CacheReport,
  ConnectionMode,
  HealthReport,
  KeptItem,
  Settings,
  StoragePersistence,
} from '../../common/contract';
import { describeError, type Logger } from '../log/log';
import { isFolder } from '../storage/atomic-file';
import type { PolicyReading } from '../policy/policy-reading';
import { watchConnection } from './connection-watch';
import {
  readConnectionHistory,
  readRecorded,
  writeConnectionHistory,
  writeHealthFile,
  type ConnectionChange,
} from './health-file';
import { healthReport, type RecordedFacts } from './health-report';
import { readShopTills } from './shop-tills-file';
import { openTillId, type TillId } from './till-id';

/**
 * The running till's health: the report put together from what it holds now (its settings,
 * its copy of the outbox, the policy it follows, the service as its calls found it, what the
 * page said of its cache and storage, the updater's last look), and `health.json` kept in
 * step with it for the tools that read the file. The file is written when what it says
 * changes (looked at every minute, and soon after anything the till is told), and at least
 * every hour, so its `recordedAt` also says the till is running. Nothing here is on the
 * cashier's path: a change only marks the file to be written a moment later.
 */
export interface TillHealth {
  report(): Promise<HealthReport>;
  /** One service call's outcome (service-operations.ts): reachable, or offline and timed out. */
  heard(reachable: boolean): void;
  /** The page's word on its offline cache. */
  noteCache(report: CacheReport): void;
  /** The updater's (the Electron shell's): whether it runs, its channel, when it last looked at the feed. */
  noteUpdates(updates: { enabled: boolean; channel: string; lastCheckAt: string | null }): void;
  /** When the service came and went over the last seven days. */
  connectionHistory(): ConnectionChange[];
  /** Writes the files now if what they say changed (tests; and when the till stops). */
  flush(): Promise<void>;
  stop(): Promise<void>;
  id: TillId;
}

export interface TillHealthOptions {
  folder: string;
  log: Logger;
  about: { version: string; shell: 'electron' | 'browser' };
  computerName: () => string;
  settings: () => Settings;
  mode: () => ConnectionMode;
  keySet: () => boolean;
  items: () => KeptItem[];
  unreadable: () => number;
  policy: () => PolicyReading;
  /** What the page said of its storage this run; null before it did. */
  storage: () => StoragePersistence | null;
  now?: () => Date;
  /** How often the report is looked at for a change (a minute). */
  tickMs?: number;
  /** How long after a change the file is written (half a second: a burst is one write). */
  settleMs?: number;
}

const TICK_MS = 60_000;
const SETTLE_MS = 500;
/** Written at least this often, so `recordedAt` says the till runs. */
const REWRITE_MS = 60 * 60_000;

export async function openTillHealth(options: TillHealthOptions): Promise<TillHealth> {
  const { folder, log } = options;
  const now = options.now ?? (() => new Date());
  const id = await openTillId(folder, now);
  const previous = await readRecorded(folder);
  const connection = watchConnection({
    previous: previous.connection,
    history: await readConnectionHistory(folder),
    now,
  });
  let cache = previous.cache;
  let updates = previous.updates;

  const recorded = (): RecordedFacts => ({
    recordedAt: now().toISOString(),
    connection: connection.now(),
    cache,
    storage: { persisted: options.storage()?.persisted ?? previous.storage.persisted },
    updates,
  });

  const report = async (): Promise<HealthReport> => {
    const settings = options.settings();
    return healthReport(
      {
        till: {
          name: settings.tillName,
          machine: options.computerName(),
          id: id.id,
          version: options.about.version,
          shell: options.about.shell,
        },
        tillSince: id.madeAt,
        settings,
        mode: options.mode(),
        keySet: options.keySet(),
        outbox: { items: options.items(), unreadable: options.unreadable() },
        recorded: recorded(),
        policy: options.policy(),
        shopTills: await readShopTills(folder),
        unknown: [],
      },
      now(),
    );
  };

  let written: { said: string; at: number } | null = null;
  let historyWritten = JSON.stringify(connection.history());
  let writing: Promise<void> = Promise.resolve();
  let failedBefore = false;

  const write = async (): Promise<void> => {
    // A folder removed under the till (a reset, a test's end) is not made again by this.
    if (!(await isFolder(folder))) return;
    const current = await report();
    // What it says, without when it was said: a change of that alone is no change.
    const said = JSON.stringify({ ...current, checkedAt: null, recordedAt: null });
    const at = now().getTime();
    const history = JSON.stringify(connection.history());
    try {
      if (written?.said !== said || at - written.at >= REWRITE_MS) {
        await writeHealthFile(folder, current);
        written = { said, at };
      }
      if (history !== historyWritten) {
        await writeConnectionHistory(folder, connection.history());
        historyWritten = history;
      }
      failedBefore = false;
    } catch (error) {
      // Said once until it works again: a full disk must not fill the log as well.
      if (!failedBefore) log.warn(`The till's health could not be written to its folder: ${describeError(error)}`);
      failedBefore = true;
    }
  };
  const flush = (): Promise<void> => {
    writing = writing.then(write, write);
    return writing;
  };

  let soon: ReturnType<typeof setTimeout> | null = null;
  const changed = (): void => {
    if (soon) return;
    soon = setTimeout(() => {
      soon = null;
      void flush();
    }, options.settleMs ?? SETTLE_MS);
    soon.unref?.();
  };
  const ticking = setInterval(() => void flush(), options.tickMs ?? TICK_MS);
  ticking.unref?.();
  changed();

  return {
    id,
    report,
    heard(reachable) {
      if (connection.heard(reachable)) changed();
    },
    noteCache(next) {
      cache = { ...next };
      changed();
    },
    noteUpdates(next) {
      updates = { ...next };
      changed();
    },
    connectionHistory: () => connection.history(),
    flush,
    async stop() {
      clearInterval(ticking);
      if (soon) clearTimeout(soon);
      soon = null;
      await flush();
    },
  };
}
