import { stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { HealthReason, HealthReport, KeptItem, Settings } from '../../common/contract';
import { HEALTH_REPORT_VERSION } from '../../common/contract';
import { readRemembered } from '../demo/demo-mode';
import { describeError } from '../log/log';
import type { MachinePolicySource } from '../policy/machine-policy';
import { applyPolicy } from '../policy/policy-merge';
import type { PolicyReading } from '../policy/policy-reading';
import { isFolder } from '../storage/atomic-file';
import { readSettingsFile } from '../storage/settings';
import { API_KEY_FILE } from '../storage/vault';
import { jsonLines, type LineCodec } from '../work-copy/line-codec';
import { WORK_COPY_FILE } from '../work-copy/work-copy';
import { readWorkCopyFile } from '../work-copy/work-copy-reading';
import { readRecorded } from './health-file';
import { healthReport, NOTHING_RECORDED, type GatheredFacts } from './health-report';
import { readShopTills } from './shop-tills-file';
import { readTillId } from './till-id';

/**
 * `loyalty-till --health` (docs/operations.md, "Watching the tills"): the till's health from
 * what it keeps on disk, without starting it and whether it runs or not. Everything is read,
 * nothing is written or moved (a torn line, an unreadable settings file are the till's to
 * mend), nothing is locked, and no window opens: reading files the running till writes
 * atomically or appends to disturbs it in nothing.
 *
 * The work copy is read through its codec, so a copy sealed line by line is read by the codec
 * that seals it. That codec needs the data key, which only the shell can open (the browser
 * shell with its key file, the Electron shell through the OS's store once the app is ready,
 * storage/data-key.ts's `readDataKey`): the shell passes `openCodec`, asked only when there is a
 * folder to read and given the same deadline as the policy, so a key store that prompts or
 * hangs makes the outbox "could not tell" (exit 2), never a late answer.
 */
export interface HealthCheckOptions {
  /** The till's user-data folder. */
  folder: string;
  about: { version: string; shell: 'electron' | 'browser' };
  /** The machine's policy; none read without one. */
  policySource?: MachinePolicySource;
  /** The work copy's codec, opened when needed (it may need the data key); plain JSON lines without. */
  openCodec?: () => Promise<LineCodec>;
  computerName?: () => string;
  now?: () => Date;
  /** How long the policy and the codec may take to open (the registry, the key store): within the check's 2 seconds. */
  deadlineMs?: number;
}

/** The check answers within 2 s: a policy or a key store slower than this is "not read in time". */
const DEADLINE_MS = 1200;

/** What `started` gives within `ms`; a rejection or a late answer is `{ late }`, with why. */
function withinDeadline<T>(started: Promise<T>, ms: number): Promise<T | { late: string }> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ late: `no answer within ${ms} ms` }), ms);
    started.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        resolve({ late: describeError(error) });
      },
    );
  });
}

const isLate = (value: unknown): value is { late: string } =>
  typeof value === 'object' && value !== null && 'late' in value;

/** The work copy through its codec: its items, or why it could not be read. */
async function readOutbox(
  folder: string,
  openCodec: (() => Promise<LineCodec>) | undefined,
  deadlineMs: number,
): Promise<{ items: KeptItem[]; unreadable: number } | string> {
  const codec = openCodec ? await withinDeadline(openCodec(), deadlineMs) : jsonLines;
  if (isLate(codec)) return `its key could not be opened: ${codec.late}`;
  return readWorkCopyFile({ file: join(folder, WORK_COPY_FILE), codec }).then(
    (copy) => ({ items: copy.items, unreadable: copy.unreadable }),
    (error: unknown) => describeError(error),
  );
}

const unknownReason = (code: HealthReason['code'], detail: string): HealthReason => ({ code, detail });

export async function checkHealth(options: HealthCheckOptions): Promise<HealthReport> {
  const { folder } = options;
  const now = options.now ?? (() => new Date());
  const computerName = options.computerName ?? hostname;
  const deadlineMs = options.deadlineMs ?? DEADLINE_MS;
  const policyRead: Promise<PolicyReading | null> = options.policySource
    ? withinDeadline(options.policySource.read(), deadlineMs).then((reading) => (isLate(reading) ? null : reading))
    : Promise.resolve({ state: 'none' });
  const till = {
    name: null,
    machine: computerName(),
    id: null,
    version: options.about.version,
    shell: options.about.shell,
  };
  if (!(await isFolder(folder))) {
    const policy = await policyRead;
    return healthReport(
      {
        till,
        tillSince: null,
        settings: null,
        mode: 'unconfigured',
        keySet: false,
        outbox: null,
        recorded: NOTHING_RECORDED,
        policy,
        shopTills: [],
        unknown: [
          unknownReason(
            'no_folder',
            `There is no till data folder at ${folder}: the till has not run for this account, or the folder is elsewhere (--user-data-dir).`,
          ),
        ],
      },
      now(),
    );
  }

  const [own, policy, outbox, recorded, shopTills, id, keySet, demo] = await Promise.all([
    readSettingsFile(join(folder, 'settings.json')).catch(() => null),
    policyRead,
    readOutbox(folder, options.openCodec, deadlineMs),
    readRecorded(folder),
    readShopTills(folder),
    readTillId(folder),
    stat(join(folder, API_KEY_FILE)).then(
      (found) => found.isFile() && found.size > 0,
      () => false,
    ),
    readRemembered(join(folder, 'demo', 'state.json')).catch(() => false),
  ]);
  const settings: Settings | null = own
    ? applyPolicy(own, policy?.state === 'applied' ? policy.policy : null, computerName()).settings
    : null;
  const unknown: HealthReason[] = [];
  if (typeof outbox === 'string')
    unknown.push(unknownReason('outbox_unreadable', `The till's copy of its outbox could not be read (${outbox}).`));
  if (policy === null)
    unknown.push(unknownReason('policy_unread', "The organisation's policy could not be read in time."));
  const facts: GatheredFacts = {
    till: { ...till, name: settings?.tillName ?? null, id: id?.id ?? null },
    tillSince: id?.madeAt ?? null,
    settings,
    mode: demo ? 'demo' : settings?.baseUrl && keySet ? 'service' : 'unconfigured',
    keySet,
    outbox: typeof outbox === 'string' ? null : outbox,
    recorded,
    policy,
    shopTills,
    unknown,
  };
  return healthReport(facts, now());
}

/**
 * The command: the report on standard output as one JSON object, and its exit code (0
 * healthy, 1 needs attention, 2 could not tell). A check that fails in itself still prints
 * an object a tool can read, and exits 2.
 */
export async function runHealthCommand(
  options: HealthCheckOptions,
  print: (text: string) => Promise<void> = printed,
): Promise<number> {
  let report: Pick<HealthReport, 'healthCheck' | 'status' | 'exitCode' | 'reasons'>;
  try {
    report = await checkHealth(options);
  } catch (error) {
    report = {
      healthCheck: HEALTH_REPORT_VERSION,
      status: 'unknown',
      exitCode: 2,
      reasons: [unknownReason('check_failed', `The health check failed: ${describeError(error)}`)],
    };
  }
  await print(`${JSON.stringify(report, null, 2)}\n`);
  return report.exitCode;
}

/** Written to standard output, resolved once it is out: a pipe on Windows is written later, and the process exits next. */
function printed(text: string): Promise<void> {
  return new Promise((resolve) => process.stdout.write(text, () => resolve()));
}
