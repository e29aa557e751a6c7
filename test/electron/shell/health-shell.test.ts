import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HealthReport } from '../../../common/contract';
import { startSandbox, type Sandbox } from '../../../sandbox';
import { keptItem, tillInState } from '../../support/till-folder';

// `Loyalty Till --health`, the Electron shell's path for fleet tools, against a recording
// stand-in for `electron` (the binary cannot run here): once the app is ready (so that the
// OS's store could be asked, should the files need the data key) it prints the till's health
// as one JSON object and exits with its code, without the single-instance lock (the till may
// be running), without a window and without writing anything.

const KEY = 'health-shell-key-3318';

const electron = await vi.hoisted(async () =>
  (await import('../../support/electron-command-stand-in')).commandStandIn(),
);

vi.mock('electron', () => electron);
vi.mock('electron-log/main', () => ({
  default: { transports: { file: {}, console: {} }, info: vi.fn(), warn: vi.fn(), error: vi.fn() },
}));

let userData: string;
let sandbox: Sandbox;
let files: string[];
let printed = '';

beforeAll(async () => {
  userData = await mkdtemp(join(tmpdir(), 'till-shell-health-'));
  sandbox = await startSandbox({ keys: { [KEY]: 'coffee-club' } });
  await tillInState(userData, {
    service: { baseUrl: sandbox.url, apiKey: KEY },
    tillName: 'Till 9',
    items: [keptItem('pending', 30)],
    cacheRefreshedHoursAgo: 4,
    // Sealed as the Electron shell seals (safeStorage, here the stand-in's), so its --health opens it.
    cipher: (await import('../../../electron/shell/safe-storage-cipher')).createSafeStorageCipher(),
  });
  files = (await readdir(userData, { recursive: true })).sort();
  electron.app.paths = { userData, logs: join(userData, 'logs') };
  process.argv.push('--health');
  vi.spyOn(process.stdout, 'write').mockImplementation(((chunk: string | Uint8Array, done?: () => void) => {
    printed += String(chunk);
    done?.();
    return true;
  }) as typeof process.stdout.write);
  await import('../../../electron/shell/main');
  // Nothing is read before the app is ready.
  expect(printed).toBe('');
  electron.app.ready?.();
  await vi.waitFor(() => expect(electron.app.exit).toHaveBeenCalled());
});

afterAll(async () => {
  process.argv.splice(process.argv.indexOf('--health'), 1);
  vi.restoreAllMocks();
  await sandbox?.close();
  await rm(userData, { recursive: true, force: true });
});

describe('main.ts --health', () => {
  test('prints the till’s health as one JSON object and exits with its code', () => {
    const report = JSON.parse(printed) as HealthReport;
    expect(electron.app.exit).toHaveBeenCalledWith(1);
    expect(report).toMatchObject({
      status: 'attention',
      exitCode: 1,
      reasons: [{ code: 'waiting_too_long' }],
      till: { name: 'Till 9', version: '1.4.2', shell: 'electron' },
      outbox: { waiting: 1 },
      connection: { state: 'online' },
    });
    expect(printed).not.toContain(KEY);
  });

  test('takes no instance lock, opens no window, registers no channel and writes nothing', async () => {
    expect(electron.app.requestSingleInstanceLock).not.toHaveBeenCalled();
    expect(electron.windows).toEqual([]);
    expect(electron.ipcMain.handle).not.toHaveBeenCalled();
    expect(electron.protocol.handle).not.toHaveBeenCalled();
    expect((await readdir(userData, { recursive: true })).sort()).toEqual(files);
  });
});
