/**
 * `--health` as a fleet tool runs it (docs/operations.md, "Watching the tills"): the browser
 * shell's entry started as a child process against a till's folder in each state the help
 * desk must tell apart (healthy; an item waiting 25 h; a conflict; a refused policy; never set
 * up; the demo; no folder), its one JSON object read and its exit code checked; then against a
 * till that is running, which it must answer within 2 seconds without disturbing.
 *
 * Each folder is made by the till's own core (test/support/till-folder.ts) against a sandbox
 * on loopback; the Electron shell's --health is the same check (test/electron/shell/health-shell.test.ts).
 */
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNELS, type HealthReport, type KeptItem } from '../../common/contract';
import { startSandbox, type Sandbox } from '../../sandbox';
import { KEY_FILE } from '../../electron/browser-shell/shell-options';
import { createKeyFileCipher } from '../../electron/storage/key-file-cipher';
import { keptItem, tillInState } from '../support/till-folder';
import { builtRenderer } from './harness';
import {
  addressOf,
  callOver,
  openSocket,
  runShell,
  socketUrlOf,
  spawnEntry,
  stopShell,
  type Shell,
} from './shell-process';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The browser shell's own cipher for a folder (its key file): the folder is sealed as the shell that reads it seals. */
const shellCipher = (folder: string) => createKeyFileCipher(join(folder, KEY_FILE));
const KEY = 'health-check-key-5580';
const VERSION = (JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

interface HealthRun {
  code: number | null;
  report: HealthReport;
  stdout: string;
  stderr: string;
  ms: number;
}

/** `node --import tsx electron/browser-shell/main.ts --health …`, as `npm start -- --health` ends up running it. */
function runHealth(userDataDir: string, more: readonly string[] = []): Promise<HealthRun> {
  const started = performance.now();
  const child = spawnEntry(['--health', '--user-data-dir', userDataDir, ...more]);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => (stdout += String(chunk)));
  child.stderr?.on('data', (chunk) => (stderr += String(chunk)));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      try {
        resolve({ code, report: JSON.parse(stdout) as HealthReport, stdout, stderr, ms: performance.now() - started });
      } catch {
        reject(new Error(`--health printed no JSON (exit ${code}):\n${stdout}\n${stderr}`));
      }
    });
  });
}

/** Every file of a folder and its bytes, to tell whether anything was written. */
async function snapshot(folder: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const name of await readdir(folder, { recursive: true })) {
    const path = join(folder, name);
    if ((await stat(path)).isFile()) files[name] = (await readFile(path)).toString('base64');
  }
  return files;
}

describe('loyalty-till --health, against a till’s folder in each state', () => {
  let work: string;
  let sandbox: Sandbox;
  let service: { baseUrl: string; apiKey: string };
  let healthy: string;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'till-health-'));
    sandbox = await startSandbox({ keys: { [KEY]: 'coffee-club' } });
    service = { baseUrl: sandbox.url, apiKey: KEY };
    healthy = join(work, 'healthy');
    await tillInState(healthy, {
      cipher: shellCipher(healthy),
      service,
      tillName: 'Till 3',
      items: [keptItem('pending', 1)],
      cacheRefreshedHoursAgo: 2,
    });
  });
  afterAll(async () => {
    await sandbox?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('healthy: exit 0, and every fact the help desk asks for, nothing secret', async () => {
    const run = await runHealth(healthy);
    expect(run.code).toBe(0);
    expect(run.report).toMatchObject({
      healthCheck: 1,
      status: 'healthy',
      exitCode: 0,
      reasons: [],
      till: { name: 'Till 3', id: expect.stringMatching(/^LT-[0-9A-Z]{4}-[0-9A-Z]{4}$/), version: VERSION },
      service: { mode: 'service', baseUrl: sandbox.url, keySet: true },
      connection: { state: 'online', since: expect.any(String) },
      outbox: { waiting: 1, failed: 0, conflicts: 0, unreadableLines: 0 },
      cache: { customers: 1200 },
      policy: { state: 'none', origin: null, problem: null },
      shopLedger: { enabled: false, tillsHeardThisShift: [] },
      updates: { enabled: false, channel: 'latest', lastCheckAt: null },
      thresholds: { waitingHours: 24, unacknowledgedHours: 0, refreshDays: 7, offlineHours: 24 },
    });
    expect(run.report.outbox!.oldestAgeHours).toBeGreaterThanOrEqual(1);
    expect(run.report.outbox!.oldestAgeHours).toBeLessThan(1.2);
    expect(Date.now() - Date.parse(run.report.cache.lastCompleteRefreshAt!)).toBeGreaterThanOrEqual(2 * 3_600_000);
    // What the running till last recorded is what health.json says (tools may read the file instead).
    const file = JSON.parse(await readFile(join(healthy, 'health.json'), 'utf8')) as HealthReport;
    expect(run.report.recordedAt).toBe(file.recordedAt);
    // (But for the outbox's age, a moment older, and the version: the test's core names none.)
    const same = (report: HealthReport) => ({
      ...report,
      checkedAt: null,
      outbox: { ...report.outbox, oldestAgeHours: null },
      till: { ...report.till, version: null },
    });
    expect(same(run.report)).toEqual(same(file));
    expect((await stat(join(healthy, 'health.json'))).mode & 0o777).toBe(0o600);
    // Nothing personal of the queued item, and not the key.
    expect(run.stdout).not.toMatch(/Layla|\+966|RW-LAYLA|POS-118842/);
    expect(run.stdout).not.toContain(KEY);
  });

  /** A till set up with the service, its cache refreshed 3 hours ago, these items in its outbox. */
  async function tillHolding(name: string, items: KeptItem[]): Promise<string> {
    const folder = join(work, name);
    await tillInState(folder, {
      cipher: shellCipher(folder),
      service,
      tillName: name,
      items,
      cacheRefreshedHoursAgo: 3,
    });
    return folder;
  }

  it('an item waiting 25 hours: exit 1, the oldest item named by its age', async () => {
    const folder = await tillHolding('Till 4', [keptItem('pending', 25), keptItem('pending', 2)]);
    const run = await runHealth(folder);
    expect(run.code).toBe(1);
    expect(run.report.status).toBe('attention');
    expect(run.report.outbox).toMatchObject({ waiting: 2, failed: 0, conflicts: 0 });
    expect(run.report.outbox!.oldestAgeHours).toBeGreaterThanOrEqual(25);
    expect(run.report.reasons).toEqual([
      {
        code: 'waiting_too_long',
        detail: expect.stringMatching(
          /^2 items waiting to be sent; the oldest for 25(\.\d)? hours \(the limit is 24\)\.$/,
        ),
      },
    ]);

    // The organisation's policy sets the threshold: two days, and the same till is healthy.
    const policy = join(work, 'patient-policy.json');
    await writeFile(policy, JSON.stringify({ schemaVersion: 1, health: { waitingHours: 48 } }));
    const patient = await runHealth(folder, ['--policy-file', policy]);
    expect(patient.code).toBe(0);
    expect(patient.report.thresholds.waitingHours).toBe(48);
    expect(patient.report.policy).toMatchObject({ state: 'applied', origin: policy });
  });

  it('a conflict nobody acknowledged: exit 1', async () => {
    const folder = await tillHolding('Till 5', [keptItem('conflict', 1), keptItem('failed', 0.5)]);
    const run = await runHealth(folder);
    expect(run.code).toBe(1);
    expect(run.report.outbox).toMatchObject({ waiting: 0, failed: 1, conflicts: 1 });
    expect(run.report.reasons.map((reason) => reason.code)).toEqual([
      'failed_unacknowledged',
      'conflict_unacknowledged',
    ]);
  });

  it('a refused policy: exit 1, saying why as the log does', async () => {
    const policy = join(work, 'broken-policy.json');
    await writeFile(policy, '{ "schemaVersion": 1, "settings": { "branchId": "not-a-uuid" } }');
    const run = await runHealth(healthy, ['--policy-file', policy]);
    expect(run.code).toBe(1);
    expect(run.report.policy).toMatchObject({ state: 'refused', origin: policy });
    expect(run.report.policy.problem).toMatch(
      /^The organisation's policy \(.+\) was not applied: .*settings\.branchId/,
    );
    expect(run.report.reasons).toEqual([{ code: 'policy_refused', detail: run.report.policy.problem }]);
    // A refused policy applies nothing: the till's own thresholds.
    expect(run.report.thresholds.waitingHours).toBe(24);
  });

  it('a till that ran but was never set up: exit 1, not set up, not healthy', async () => {
    const folder = join(work, 'never-set-up');
    await tillInState(folder, { cipher: shellCipher(folder), service: 'none', tillName: 'Till 7' });
    const run = await runHealth(folder);
    expect(run.code).toBe(1);
    expect(run.report).toMatchObject({
      status: 'attention',
      exitCode: 1,
      till: { name: 'Till 7', id: expect.stringMatching(/^LT-/) },
      service: { mode: 'unconfigured', keySet: false },
      connection: { state: 'unknown', since: null },
    });
    expect(run.report.reasons).toEqual([
      {
        code: 'not_set_up',
        detail: 'The till is not set up with a loyalty service (no service address, no API key): Settings (F9).',
      },
    ]);
  });

  it('a till running the demo: exit 1, the demo is not a real service', async () => {
    const folder = join(work, 'demo');
    await tillInState(folder, {
      cipher: shellCipher(folder),
      service: 'demo',
      tillName: 'Till 8',
      cacheRefreshedHoursAgo: 1,
    });
    const run = await runHealth(folder);
    expect(run.code).toBe(1);
    expect(run.report).toMatchObject({ status: 'attention', exitCode: 1, service: { mode: 'demo' } });
    expect(run.report.reasons).toEqual([
      {
        code: 'demo_mode',
        detail: 'The till runs the demo service, not a real loyalty service: nothing it does reaches the programme.',
      },
    ]);
  });

  it('no folder: exit 2, could not tell, and nothing made', async () => {
    const missing = join(work, 'never-started');
    const run = await runHealth(missing);
    expect(run.code).toBe(2);
    expect(run.report).toMatchObject({
      status: 'unknown',
      exitCode: 2,
      reasons: [{ code: 'no_folder', detail: expect.stringContaining(missing) }],
      outbox: null,
      till: { id: null, name: null },
    });
    await expect(stat(missing)).rejects.toThrow(/ENOENT/);
  });

  it('reads and never writes: the folders are as the till left them', async () => {
    const before = await snapshot(healthy);
    await runHealth(healthy);
    expect(await snapshot(healthy)).toEqual(before);
  });
});

describe('loyalty-till --health while the till runs', () => {
  let work: string;
  let userData: string;
  let shell: Shell;
  let sandbox: Sandbox;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'till-health-running-'));
    userData = join(work, 'user-data');
    sandbox = await startSandbox({ keys: { [KEY]: 'coffee-club' } });
    await tillInState(userData, {
      cipher: shellCipher(userData),
      service: { baseUrl: sandbox.url, apiKey: KEY },
      tillName: 'Till 6',
      cacheRefreshedHoursAgo: 1,
    });
    // The run's one build of the renderer (test/e2e/global-setup.ts).
    shell = runShell(userData, await builtRenderer(join(work, 'renderer')));
  });
  afterAll(async () => {
    if (shell) await stopShell(shell);
    await sandbox?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('answers within 2 seconds with what the running till holds, and disturbs nothing', async () => {
    const address = await addressOf(shell);
    const opened = await openSocket(socketUrlOf(address), new URL(address).origin);
    if (!('open' in opened)) throw new Error(`the socket was refused: ${opened.status}`);
    const socket = opened.open;
    // The page queues a redemption: the running till's copy holds it, flushed.
    const queued = keptItem('conflict', 3);
    expect(await callOver(socket, CHANNELS.keepWork, { changes: [{ op: 'item', item: queued }] })).toMatchObject({
      result: { ok: true },
    });
    const output = shell.output();
    const lock = await readFile(join(userData, 'browser-shell.lock.json'), 'utf8');
    const copy = await readFile(join(userData, 'work-copy.jsonl'), 'utf8');

    const run = await runHealth(userData);
    expect(run.ms, `--health answered in ${Math.round(run.ms)} ms`).toBeLessThan(2000);
    expect(run.code).toBe(1);
    expect(run.report.outbox).toMatchObject({ waiting: 0, failed: 0, conflicts: 1 });
    expect(run.report.reasons.map((reason) => reason.code)).toEqual(['conflict_unacknowledged']);
    expect(run.report.till.name).toBe('Till 6');

    // The till goes on as before: it answers, keeps work, and said nothing; its lock and copy are its own.
    expect(await callOver(socket, CHANNELS.getState)).toMatchObject({ result: { ok: true } });
    expect(await readFile(join(userData, 'browser-shell.lock.json'), 'utf8')).toBe(lock);
    expect(await readFile(join(userData, 'work-copy.jsonl'), 'utf8')).toBe(copy);
    const more = keptItem('pending', 0);
    expect(await callOver(socket, CHANNELS.keepWork, { changes: [{ op: 'item', item: more }] })).toMatchObject({
      result: { ok: true },
    });
    expect(shell.output()).toBe(output);
    expect(shell.child.exitCode).toBeNull();
    socket.close();
  });
});
