import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { takeInstanceLock } from '../../../electron/browser-shell/instance-lock';

describe('one browser shell per user-data folder', () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'till-lock-'));
    file = join(dir, 'browser-shell.lock.json');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  test('the first start holds it; a second learns the first one’s pid and address', async () => {
    const first = takeInstanceLock(file);
    if (!first.held) throw new Error('not held');
    // The second start is another process: another pid.
    const secondPid = process.pid + 1_000_000;
    expect(takeInstanceLock(file, secondPid)).toEqual({ held: false, holder: { pid: process.pid, address: null } });
    first.lock.publish('http://127.0.0.1:5000/secret/');
    expect(takeInstanceLock(file, secondPid)).toEqual({
      held: false,
      holder: { pid: process.pid, address: 'http://127.0.0.1:5000/secret/' },
    });
    // The address carries the secret: the file is this user's only.
    if (process.platform !== 'win32') expect((await stat(file)).mode & 0o777).toBe(0o600);
    first.lock.release();
    expect(takeInstanceLock(file, secondPid).held).toBe(true);
  });

  test('a lock naming this very pid is an earlier process’s whose number was reused: taken over', async () => {
    await writeFile(file, JSON.stringify({ pid: process.pid, address: 'http://127.0.0.1:1/old/' }));
    expect(takeInstanceLock(file).held).toBe(true);
  });

  test('a lock left by a process that is gone is taken over', async () => {
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    });
    const deadPid = Number(gone.stdout);
    await writeFile(file, JSON.stringify({ pid: deadPid, address: 'http://127.0.0.1:1/old/' }));
    const taken = takeInstanceLock(file, 424242);
    expect(taken.held).toBe(true);
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ pid: 424242, address: null });
  });

  test('releasing leaves a lock another start has since taken alone', async () => {
    const first = takeInstanceLock(file);
    if (!first.held) throw new Error('not held');
    await writeFile(file, JSON.stringify({ pid: 1, address: 'http://127.0.0.1:2/other/' }));
    first.lock.release();
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ pid: 1 });
  });
});
