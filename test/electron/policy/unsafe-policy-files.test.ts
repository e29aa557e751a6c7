import { execFileSync, spawn } from 'node:child_process';
import { closeSync, constants, openSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readPolicyFile } from '../../../electron/policy/policy-file';
import { describePolicyProblem, type PolicyReading } from '../../../electron/policy/policy-reading';
import { watchPolicy } from '../../../electron/policy/policy-watch';
import { ENGLISH } from '../../../electron/messages';
import { createCoreFixture } from '../../support/app-core-fixture';
import { createCapturedLog } from '../../support/captured-log';

const onWindows = process.platform === 'win32';
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const BROWSER_SHELL = join(ROOT, 'electron', 'browser-shell', 'main.ts');

const problem = (reading: PolicyReading) => {
  if (reading.state !== 'refused') throw new Error(`expected a refusal, got ${reading.state}`);
  return { kind: reading.problem.kind, words: describePolicyProblem(reading.problem, ENGLISH) };
};

/** Settles within `ms`, or says it did not: a read that hangs fails the test instead of the run. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | 'still waiting'> {
  return Promise.race([promise, new Promise<'still waiting'>((resolve) => setTimeout(resolve, ms, 'still waiting'))]);
}

describe.skipIf(onWindows)('a policy file that is not a regular file (POSIX: pipes, devices, sockets)', () => {
  let dir: string;
  let fifo: string;
  const servers: Server[] = [];
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'till-unsafe-policy-'));
    fifo = join(dir, 'policy.json');
    execFileSync('mkfifo', [fifo]);
  });
  afterEach(async () => {
    // Whatever the code under test did, nothing is left blocked on the pipe: a writer that
    // opens and goes releases a reader stuck in open().
    try {
      closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // No reader waits: nothing to release.
    }
    for (const server of servers.splice(0)) server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('a FIFO is refused at once, with its reason, and never blocks', async () => {
    const reading = await within(readPolicyFile(fifo), 2000);
    expect(reading).not.toBe('still waiting');
    expect(problem(reading as PolicyReading)).toEqual({
      kind: 'not_regular',
      words: expect.stringMatching(/not a regular file/),
    });
  });

  it('/dev/zero, itself or through a link, is refused before a byte is read', async () => {
    expect(problem(await readPolicyFile('/dev/zero')).kind).toBe('not_regular');
    const link = join(dir, 'linked.json');
    await symlink('/dev/zero', link);
    expect(problem(await readPolicyFile(link)).kind).toBe('not_regular');
  });

  it('a socket in its place is refused', async () => {
    const path = join(dir, 'socket.json');
    const server = createServer();
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(path, resolve));
    expect(problem(await readPolicyFile(path)).kind).toBe('not_regular');
  });

  it('at start the core is made, Settings and the log say why, and reloads go on; stopping waits on nothing', async () => {
    const made = within(createCoreFixture({ policyFile: fifo }), 4000);
    const till = await made;
    if (till === 'still waiting') throw new Error('createAppCore never resolved with a FIFO as policy.json');
    try {
      const state = await till.call('getState');
      expect(state).toMatchObject({ ok: true, data: { managed: { problem: expect.stringMatching(/regular file/) } } });
      expect(till.log.text()).toMatch(/not a regular file/);
      // Reloads are not stuck behind it: a good policy in its place applies.
      await rm(fifo);
      await writeFile(fifo, JSON.stringify({ schemaVersion: 1, settings: { tillName: 'Till 5' } }));
      expect((await within(till.core.reloadPolicy(), 2000)) as PolicyReading).toMatchObject({ state: 'applied' });
      expect(await till.call('getState')).toMatchObject({ data: { settings: { tillName: 'Till 5' } } });
    } finally {
      expect(await within(till.dispose(), 2000)).not.toBe('still waiting');
    }
  });

  it('the browser shell starts, prints its address, and stops on SIGTERM, with a FIFO as its policy', async () => {
    const renderer = join(dir, 'renderer');
    await mkdir(renderer);
    await writeFile(join(renderer, 'index.html'), '<!doctype html><html><head></head><body></body></html>');
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        BROWSER_SHELL,
        '--no-open',
        '--user-data-dir',
        join(dir, 'data'),
        '--renderer-dir',
        renderer,
        '--policy-file',
        fifo,
      ],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const address = await within(
        new Promise<string>((resolve) => {
          let out = '';
          child.stdout.on('data', (chunk: Buffer) => {
            out += chunk.toString();
            const found = /running at (\S+)/.exec(out);
            if (found) resolve(found[1]!);
          });
        }),
        20_000,
      );
      expect(address).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
      child.kill('SIGTERM');
      expect(await within(exited, 5000)).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  }, 40_000);

  it('after start, a FIFO put in its place is a bad policy on reload, and later reloads still run', async () => {
    await rm(fifo);
    await writeFile(fifo, JSON.stringify({ schemaVersion: 1, settings: { tillName: 'Till 6' } }));
    const till = await createCoreFixture({ policyFile: fifo });
    try {
      expect(till.core.policy()).toMatchObject({ state: 'applied' });
      await rm(fifo);
      execFileSync('mkfifo', [fifo]);
      const reloaded = await within(till.core.reloadPolicy(), 2000);
      expect(reloaded).toMatchObject({ state: 'refused', problem: { kind: 'not_regular' } });
      expect(await within(till.core.reloadPolicy(), 2000)).toMatchObject({ state: 'refused' });
    } finally {
      await till.dispose();
    }
  });
});

describe('a policy read that never finishes', () => {
  it('is a bad policy with a reason once the deadline passes, at start and on reload; later reads still run', async () => {
    let next: () => Promise<PolicyReading> = () => new Promise(() => undefined);
    const log = createCapturedLog();
    const started = await within(
      watchPolicy({ read: () => next(), log, onChange: () => undefined, deadlineMs: 150, pollMs: 60_000 }),
      2000,
    );
    if (started === 'still waiting') throw new Error('the watcher never started');
    try {
      expect(problem(started.current())).toEqual({
        kind: 'too_slow',
        words: expect.stringMatching(/did not finish within 1 second/),
      });
      expect(log.text()).toMatch(/did not finish/);
      expect(problem((await within(started.reload(), 2000)) as PolicyReading).kind).toBe('too_slow');
      next = () => Promise.resolve({ state: 'none' });
      expect(await within(started.reload(), 2000)).toEqual({ state: 'none' });
    } finally {
      started.stop();
    }
  });
});
