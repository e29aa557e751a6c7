import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { spawnSync } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildMain, DEMO_SANDBOX_BUNDLE } from '../../../build/build-main';

const root = fileURLToPath(new URL('../../..', import.meta.url));

describe('bundling the main process and the preload', () => {
  let outDir: string;
  beforeAll(async () => {
    outDir = await mkdtemp(join(tmpdir(), 'till-main-build-'));
    await buildMain(outDir);
  }, 60_000);
  afterAll(() => rm(outDir, { recursive: true, force: true }));

  test('the preload is self-contained and exposes only window.till', async () => {
    const preload = await readFile(join(outDir, 'preload.cjs'), 'utf8');
    // A sandboxed preload can require only `electron`: everything else must be inlined.
    expect([...preload.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1])).toEqual(['electron']);
    expect([...preload.matchAll(/exposeInMainWorld\(\s*"([^"]+)"/g)].map((m) => m[1])).toEqual(['till']);
    expect(preload).toContain('till:rewards:redeem');
    expect(preload).not.toMatch(/ipcRenderer\.send/);
    // One place that listens, on the page's push channels only (createWindowTill checks the channel).
    expect([...preload.matchAll(/ipcRenderer\.on\(/g)]).toHaveLength(1);
    expect(preload).toContain('till:push:link');
    expect(preload).toContain('till:push:customer-entry');
  });

  test('the main bundle needs only electron, Node built-ins and, for the demo, its own sandbox bundle', async () => {
    const main = await readFile(join(outDir, 'main.cjs'), 'utf8');
    const required = new Set([...main.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]!));
    const foreign = [...required].filter(
      (name) => !isBuiltin(name) && name !== 'electron' && name !== `./${DEMO_SANDBOX_BUNDLE}`,
    );
    expect(foreign).toEqual([]);
    expect(required.has('electron')).toBe(true);
    expect(main).toContain('registerSchemesAsPrivileged');
    // The service's server code is not in the main bundle: it is loaded only for the demo.
    expect(main).not.toContain('fastify');
  });

  test('the demo sandbox bundle runs on its own, with no node_modules anywhere above it', async () => {
    const alone = await mkdtemp(join(tmpdir(), 'till-sandbox-alone-'));
    try {
      await copyFile(join(outDir, DEMO_SANDBOX_BUNDLE), join(alone, DEMO_SANDBOX_BUNDLE));
      const script = `
        const { startSandbox, PROGRAMS } = require(${JSON.stringify(join(alone, DEMO_SANDBOX_BUNDLE))});
        (async () => {
          const sandbox = await startSandbox({ port: 0, keys: { 'alone-key-12345678': 'coffee-club' } });
          const headers = { Authorization: 'Bearer alone-key-12345678', Accept: 'application/json', 'Content-Type': 'application/json' };
          const found = await fetch(sandbox.url + '/v1/customers?phone=%2B966501234567', { headers }).then((r) => r.json());
          const bad = await fetch(sandbox.url + '/v1/customers', { method: 'POST', headers, body: '{"name":"X","phone":"bad"}' });
          await sandbox.close();
          console.log(JSON.stringify({ name: found.data[0].name, badStatus: bad.status, programmes: PROGRAMS.length }));
        })().catch((error) => { console.error(error); process.exit(1); });`;
      const run = spawnSync(process.execPath, ['-e', script], { cwd: alone, encoding: 'utf8', timeout: 60_000 });
      expect(run.stderr).toBe('');
      expect(JSON.parse(run.stdout)).toEqual({ name: 'Layla Haddad', badStatus: 422, programmes: 2 });
    } finally {
      await rm(alone, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('npm start on a machine without the Electron binary', () => {
  test('says in one line why, and starts the browser shell instead (which checks its renderer)', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'till-no-electron-'));
    try {
      const run = spawnSync(
        process.execPath,
        [
          '--import',
          'tsx',
          join(root, 'build/launch.ts'),
          '--renderer-dir',
          join(empty, 'renderer'),
          '--user-data-dir',
          join(empty, 'user-data'),
          '--no-open',
        ],
        {
          cwd: root,
          encoding: 'utf8',
          env: { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: empty, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' },
          timeout: 60_000,
        },
      );
      expect(run.status).toBe(1);
      const lines = `${run.stdout}${run.stderr}`.split('\n').filter((line) => line.trim());
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(
        /^Loyalty Till: Electron cannot run here \(the Electron \d+\.\d+\.\d+ binary is not installed.*starting in the browser instead/,
      );
      // The browser shell ran, and stopped at its own check: no renderer built in that folder.
      expect(lines[1]).toBe(
        `Loyalty Till: ${join(empty, 'renderer', 'index.html')} is missing; run "npm start" (it builds first) or "vite build".`,
      );
      expect(`${run.stdout}${run.stderr}`).not.toMatch(/\bat \S+:\d+/);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  }, 60_000);

  test('npm run test:electron stops with one line and a failing exit code, and builds nothing', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'till-no-electron-'));
    try {
      const run = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'build/test-electron.ts')], {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: empty },
        timeout: 60_000,
      });
      expect(run.status).toBe(1);
      const lines = `${run.stdout}${run.stderr}`.split('\n').filter((line) => line.trim());
      expect(lines).toEqual([
        expect.stringMatching(
          /^Loyalty Till: test:electron: not run: the Electron \d+\.\d+\.\d+ binary is not installed/,
        ),
      ]);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  }, 60_000);
});
