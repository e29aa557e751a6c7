import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';

// `Loyalty Till --import-api-key`, the Electron shell's path for deployment scripts, against a
// recording stand-in for `electron` (the binary cannot run here): once the app is ready it
// stores the key from standard input through safeStorage and exits with the import's status,
// without the single-instance lock and without opening a window.

const KEY = 'sk_live_Q7w3ZtY9mK2pL8xV';

const electron = await vi.hoisted(async () =>
  (await import('../../support/electron-command-stand-in')).commandStandIn(),
);

vi.mock('electron', () => electron);
vi.mock('electron-log/main', () => ({
  default: { transports: { file: {}, console: {} }, info: vi.fn(), warn: vi.fn(), error: vi.fn() },
}));

let userData: string;
const said: string[] = [];

beforeAll(async () => {
  userData = await mkdtemp(join(tmpdir(), 'till-shell-import-'));
  electron.app.paths = { userData, logs: join(userData, 'logs') };
  process.argv.push('--import-api-key');
  vi.spyOn(process, 'stdin', 'get').mockReturnValue(Readable.from([`${KEY}\n`]) as unknown as typeof process.stdin);
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    said.push(String(chunk));
    return true;
  });
  await import('../../../electron/shell/main');
  electron.app.ready?.();
  await vi.waitFor(() => expect(electron.app.exit).toHaveBeenCalled());
});

afterAll(async () => {
  process.argv.splice(process.argv.indexOf('--import-api-key'), 1);
  vi.restoreAllMocks();
  await rm(userData, { recursive: true, force: true });
});

describe('main.ts --import-api-key', () => {
  test('stores the piped key through safeStorage and exits 0, saying nothing of the key', async () => {
    expect(electron.app.exit).toHaveBeenCalledWith(0);
    const sealed = await readFile(join(userData, 'api-key.bin'));
    expect(await electron.safeStorage.decryptStringAsync(sealed)).toEqual({ result: KEY, shouldReEncrypt: false });
    // Through the asynchronous API only: Electron 46 has no other.
    expect(electron.safeStorage.syncCalls).toEqual([]);
    expect(sealed.includes(Buffer.from(KEY))).toBe(false);
    expect(said.join('')).toMatch(/The API key was stored, encrypted/);
    expect(said.join('')).not.toContain(KEY);
  });

  test('takes no instance lock, registers no channel and opens nothing', async () => {
    expect(electron.app.requestSingleInstanceLock).not.toHaveBeenCalled();
    expect(electron.ipcMain.handle).not.toHaveBeenCalled();
    expect(electron.protocol.handle).not.toHaveBeenCalled();
    expect((await readdir(userData)).sort()).toEqual(['api-key.bin']);
  });
});
