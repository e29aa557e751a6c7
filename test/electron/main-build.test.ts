import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildMain } from '../../build/build-main';

const root = fileURLToPath(new URL('../..', import.meta.url));

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
    // One listener, on the link push channel only.
    expect([...preload.matchAll(/ipcRenderer\.on\(([^,]+),/g)].map((m) => m[1])).toEqual(['LINK_PUSH_CHANNEL']);
    expect(preload).toContain('till:push:link');
  });

  test('the main bundle keeps electron and the runtime dependencies external', async () => {
    const main = await readFile(join(outDir, 'main.cjs'), 'utf8');
    const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const required = new Set([...main.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]!));
    const allowed = new Set(['electron', ...Object.keys(pkg.dependencies)]);
    const packages = [...required].filter((name) => !name.startsWith('node:')).map((name) => name.split('/')[0]!);
    expect(packages.filter((name) => !allowed.has(name))).toEqual([]);
    expect(required.has('electron')).toBe(true);
    expect(main).toContain('registerSchemesAsPrivileged');
  });
});

describe('npm start on a machine without the Electron binary', () => {
  test('fails with exactly one clear line and no stack trace', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'till-no-electron-'));
    try {
      const run = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'build/launch.ts')], {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: empty, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' },
        timeout: 60_000,
      });
      expect(run.status).toBe(1);
      const lines = `${run.stdout}${run.stderr}`.split('\n').filter((line) => line.trim());
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^Loyalty Till: cannot start: the Electron \d+\.\d+\.\d+ binary is not installed/);
      expect(lines[0]).not.toMatch(/\bat \S+:\d+/);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  }, 60_000);
});
