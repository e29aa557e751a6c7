import { hostname } from 'node:os';
import { join } from 'node:path';
import type { ConnectionMode, Failure, Settings, StoragePersistence } from '../../common/contract';
import type { Logger } from '../log/log';
import { followPersonalValues, personalValuesOf } from '../log/personal-values';
import type { PersonalValues } from '../log/redaction';
import type { Wording } from '../messages';
import type { PolicyReading } from '../policy/policy-reading';
import type { OperationTable } from '../validation/bridge-operation';
import type { WorkCopyStore } from '../work-copy/work-copy';
import { HISTORY_DAYS } from './connection-watch';
import { healthOperations, type HealthOperation, type SaveSupportFile } from './health-operations';
import { logTailsSince } from './log-tail';
import { readShopTills } from './shop-tills-file';
import { supportFile } from './support-file';
import { openTillHealth, type TillHealth } from './till-health';

/**
 * The till's health as the main process's core opens it (bridge/app-core.ts): the report and
 * `health.json` kept in step (till-health.ts), the personal values the log and the support
 * file are cleaned of (log/personal-values.ts), and the bridge's three operations. Here so
 * that the composition root joins one call.
 */
export interface AboutApp {
  version: string;
  shell: 'electron' | 'browser';
  /** The log files, oldest first (`main.old.log`, `main.log`), for the support file. */
  logFiles?: readonly string[];
}

/** What the shell tells the core (bridge/app-core-options.ts) that the health needs. */
export interface HealthShell {
  userDataDir: string;
  about?: AboutApp;
  saveFile?: SaveSupportFile;
  screens?: () => readonly unknown[];
  computerName?: () => string;
  healthTickMs?: number;
}

/** What the core has opened that the health reads. */
export interface HealthNeeds {
  settings: { get(): Settings; locked(): readonly string[] };
  mode: () => ConnectionMode;
  vault: { status(): { set: boolean } };
  secrets: () => readonly string[];
  /** The work copy, and what the page last said of its storage (work-copy-operations.ts). */
  work: { copy: WorkCopyStore; storage: { last(): StoragePersistence | null } };
  policy: { reading(): PolicyReading };
  log: Logger;
  wording: () => Wording;
}

/** The version a core says it runs when its shell names none (tests). */
const UNNAMED: AboutApp = { version: '0.0.0', shell: 'browser' };

export async function openHealth(
  shell: HealthShell,
  needs: HealthNeeds,
): Promise<{
  health: TillHealth;
  /** The personal values of now, for the redacting log. */
  personal: () => PersonalValues;
  operations: (refusal: () => Failure | null, display: { attached(): number }) => OperationTable<HealthOperation>;
}> {
  const { settings, log } = needs;
  const workCopy = needs.work.copy;
  const folder = shell.userDataDir;
  const about = shell.about ?? UNNAMED;
  const computerName = shell.computerName ?? hostname;
  const cashiers = () => settings.get().cashiers.flatMap((cashier) => [cashier.name, cashier.number ?? '']);
  const held = () => {
    const { items, journal } = workCopy.read();
    return { records: [...items, ...journal], names: cashiers() };
  };
  const health = await openTillHealth({
    folder,
    log,
    about,
    computerName,
    settings: () => settings.get(),
    mode: needs.mode,
    keySet: () => needs.vault.status().set,
    items: () => workCopy.items(),
    unreadable: () => workCopy.unreadable(),
    policy: () => needs.policy.reading(),
    storage: () => needs.work.storage.last(),
    ...(shell.healthTickMs ? { tickMs: shell.healthTickMs } : {}),
  });

  const makeSupportFile = async (userAgent: string | null, display: { attached(): number }) => {
    const now = new Date();
    const logsSince = new Date(now.getTime() - HISTORY_DAYS * 24 * 3_600_000);
    const { items, journal } = workCopy.read();
    return supportFile({
      report: await health.report(),
      settings: settings.get(),
      locked: settings.locked(),
      policy: needs.policy.reading(),
      connectionHistory: health.connectionHistory(),
      items,
      journal,
      shopTills: await readShopTills(folder),
      display: { screens: shell.screens?.().length ?? 0, windows: display.attached() },
      userAgent,
      logs: await logTailsSince(about.logFiles ?? [], logsSince),
      secrets: needs.secrets(),
      // Built afresh: the log's are a few seconds old at most, the file's are exact.
      personal: personalValuesOf([...items, ...journal], cashiers()),
      now,
    });
  };

  return {
    health,
    personal: followPersonalValues(held, () => `${workCopy.revision()}\n${JSON.stringify(cashiers())}`),
    operations: (refusal, display) =>
      healthOperations({
        health,
        supportFile: (userAgent) => makeSupportFile(userAgent, display),
        refusal,
        ...(shell.saveFile ? { saveFile: shell.saveFile } : {}),
        log,
        wording: needs.wording,
      }),
  };
}

/** The log files a shell writes, oldest first, for the support file. */
export function logFilesIn(folder: string): string[] {
  return [join(folder, 'main.old.log'), join(folder, 'main.log')];
}
