/**
 * The sandbox's command line: it prints where it listens and which keys it accepts, serves
 * requests, stops on SIGTERM, and refuses bad options with a clear message and a non-zero exit.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_FIXTURES, startSandbox } from '../../sandbox';
import { byPhone, get, post } from './support/http';
import { expectError } from './support/shapes';

// Real HTTP on a shared machine: generous limits, so that load is not taken for a failure.
vi.setConfig({ testTimeout: 30_000, hookTimeout: 60_000 });

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const running: ChildProcess[] = [];
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sandbox-cli-'));
});
afterEach(() => {
  // A test that failed half-way must not leave its server behind.
  for (const child of running.splice(0)) {
    if (child.exitCode === null && child.signalCode === null && child.pid) process.kill(-child.pid, 'SIGKILL');
  }
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Starts the CLI in its own process group, so that stopping it stops npx, tsx and node together. */
function startCli(args: string[]): {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
} {
  const child = spawn('npx', ['tsx', 'sandbox/cli.ts', ...args], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Waits until stdout matches, the process exits, or the time runs out. */
async function waitForOutput(
  cli: ReturnType<typeof startCli>,
  pattern: RegExp,
  ms = 30_000,
): Promise<RegExpMatchArray> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const match = pattern.exec(cli.stdout());
    if (match) return match;
    if (cli.child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no ${pattern} in the CLI's output.\nstdout: ${cli.stdout()}\nstderr: ${cli.stderr()}`);
}

describe('the sandbox CLI', () => {
  it('prints its URL on one line and the keys it accepts, serves requests with those keys only, and stops on SIGTERM', async () => {
    const dataFile = join(dir, 'cli-data.json');
    const cli = startCli(['--port', '0', '--key', 'k1', '--bakery-key', 'b1', '--data', dataFile]);
    const [, url] = await waitForOutput(cli, /^.*(http:\/\/127\.0\.0\.1:(\d+))\s*$/m);
    await waitForOutput(cli, /b1/);
    const sandbox = { url: url as string };

    const lines = cli.stdout().trim().split('\n');
    // The URL is on a line of its own among the output, with the keys named after it.
    expect(lines.filter((line) => line.includes(url as string))).toHaveLength(1);
    expect(lines.some((line) => line.includes('"k1"') && line.includes('coffee-club'))).toBe(true);
    expect(lines.some((line) => line.includes('"b1"') && line.includes('bakery'))).toBe(true);

    const found = await get(sandbox, `/v1/customers?${byPhone(DEMO_FIXTURES.layla.phone)}`, { key: 'k1' });
    expect(found.status).toBe(200);
    expect(found.body.data[0].id).toBe(DEMO_FIXTURES.layla.id);
    expectError(await get(sandbox, '/v1/customers', { key: 'demo-key' }), 401, 'unauthorized');

    const bakery = await post(
      sandbox,
      '/v1/customers',
      { name: 'Cli Customer', phone: '+447400900601' },
      { key: 'b1' },
    );
    expect(bakery.status).toBe(201);
    expect(bakery.body.data.cards.map((card: any) => card.program.name)).toEqual(['Bakery Points']);
    // With --data, the change is in the file.
    const data = JSON.parse(await readFile(dataFile, 'utf8'));
    expect(data.customers.some((c: any) => c.id === bakery.body.data.id)).toBe(true);

    process.kill(-(cli.child.pid as number), 'SIGTERM');
    await cli.exited;
    await expect(fetch(`${url}/v1/customers`)).rejects.toThrow();
  }, 60_000);

  it('--customers adds generated customers to the demo', async () => {
    const cli = startCli(['--port', '0', '--customers', '40', '--seed', '3']);
    const [, url] = await waitForOutput(cli, /(http:\/\/127\.0\.0\.1:\d+)/);
    await waitForOutput(cli, /demo-key/);
    const total = (await get({ url: url as string }, '/v1/customers')).body.meta.total;
    process.kill(-(cli.child.pid as number), 'SIGTERM');
    await cli.exited;

    const plain = await startSandbox({ seed: 3 });
    const demoTotal = (await get(plain, '/v1/customers')).body.meta.total;
    await plain.close();

    expect(total).toBe(demoTotal + 40);
  }, 60_000);

  it('--dialect laravel answers in the laravel dialect', async () => {
    const cli = startCli(['--port', '0', '--dialect', 'laravel']);
    const [, url] = await waitForOutput(cli, /(http:\/\/127\.0\.0\.1:\d+)/);
    await waitForOutput(cli, /laravel dialect/);
    const reply = await get({ url: url as string }, '/v1/customers', { key: null });
    process.kill(-(cli.child.pid as number), 'SIGTERM');
    await cli.exited;
    expect(reply.status).toBe(401);
    expect(reply.body).toEqual({ message: 'Unauthenticated.' });
  }, 60_000);

  const refusals: Array<[string, string[], RegExp]> = [
    ['a port that is not a number', ['--port', 'abc'], /--port.*abc/],
    ['a negative customer count', ['--port', '0', '--customers', '-5'], /--customers/],
    ['an unknown option', ['--prot', '4010'], /--prot/],
    ['an option without its value', ['--port'], /--port/],
    ['an unknown dialect', ['--port', '0', '--dialect', 'symfony'], /--dialect takes spec or laravel, not "symfony"/],
    ['a data file that cannot be written', ['--port', '0', '--data', '/dev/null/data.json'], /could not start/i],
  ];

  for (const [what, args, message] of refusals) {
    it(`refuses ${what}: a non-zero exit and a clear message, no stack trace`, async () => {
      const cli = startCli(args);
      const code = await cli.exited;
      expect(code).not.toBe(0);
      expect(code).not.toBeNull();
      expect(cli.stderr()).toMatch(message);
      expect(cli.stderr()).not.toMatch(/^\s+at /m);
      expect(cli.stdout()).not.toMatch(/listening/i);
      expect(existsSync('/dev/null/data.json')).toBe(false);
    }, 30_000);
  }
});
