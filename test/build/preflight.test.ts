import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binariesFor, DistStop, electronVersion } from '../../build/dist';
import { checkElectronBinaries } from '../../build/electron-preflight';
import manifest from '../../package.json';

const PROJECT_DIR = fileURLToPath(new URL('../..', import.meta.url));
const VERSION = '45.4.1';
const ZIP_NAME = `electron-v${VERSION}-win32-x64.zip`;
const FAKE_ZIP = Buffer.from('PK\u0003\u0004 stand-in for the Electron zip');

/** An Electron download mirror on 127.0.0.1 that serves one artifact and its checksum file. */
async function startMirror(): Promise<{ url: string; requests: string[]; server: Server }> {
  const requests: string[] = [];
  const sha = createHash('sha256').update(FAKE_ZIP).digest('hex');
  const server = createServer((request, response) => {
    requests.push(request.url ?? '');
    if (request.url === `/v${VERSION}/${ZIP_NAME}`) return void response.end(FAKE_ZIP);
    if (request.url === `/v${VERSION}/SHASUMS256.txt`) return void response.end(`${sha} *${ZIP_NAME}\n`);
    response.statusCode = 404;
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, requests, server };
}

/** A port on 127.0.0.1 where nothing listens: the shape of a machine with no way out. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Runs build/dist.ts in a clean environment with its own empty home folder. */
async function runDist(
  kind: string,
  extraEnv: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const home = await mkdtemp(join(tmpdir(), 'till-dist-home-'));
  try {
    return await new Promise((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'build/dist.ts', kind], {
        cwd: PROJECT_DIR,
        env: { PATH: process.env.PATH, HOME: home, XDG_CACHE_HOME: join(home, 'cache'), ...extraEnv },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      child.stderr.on('data', (chunk) => (stderr += chunk));
      child.on('close', (exitCode) => resolve({ code: exitCode, stdout, stderr }));
    });
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

describe('Electron binary pre-flight', () => {
  let cacheDir: string;
  beforeAll(async () => {
    cacheDir = await mkdtemp(join(tmpdir(), 'till-electron-cache-'));
  });
  afterAll(() => rm(cacheDir, { recursive: true, force: true }));

  it('fetches the binary through electron-builder’s downloader into the Electron cache', async () => {
    const mirror = await startMirror();
    try {
      const result = await checkElectronBinaries({
        version: VERSION,
        binaries: [{ platform: 'win32', arch: 'x64' }],
        electronDownload: { mirror: mirror.url },
        cacheDir,
      });
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      expect(result.zips).toHaveLength(1);
      expect(result.zips[0]!.startsWith(cacheDir)).toBe(true);
      expect((await readFile(result.zips[0]!)).equals(FAKE_ZIP)).toBe(true);
      expect(mirror.requests).toContain(`/v${VERSION}/${ZIP_NAME}`);
    } finally {
      mirror.server.close();
    }
  });

  it('says in one sentence which binary it could not fetch and why, when nothing answers', async () => {
    const port = await closedPort();
    const emptyCache = await mkdtemp(join(tmpdir(), 'till-electron-cache-'));
    try {
      const result = await checkElectronBinaries({
        version: VERSION,
        binaries: [{ platform: 'darwin', arch: 'arm64' }],
        electronDownload: { mirror: `http://127.0.0.1:${port}/` },
        cacheDir: emptyCache,
      });
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.message).toContain(`Electron ${VERSION} binary for darwin-arm64`);
      expect(result.message).toMatch(/ECONNREFUSED/);
      expect(result.message).not.toContain('\n');
      expect(result.message).not.toMatch(/\bat .+:\d+:\d+/); // no stack frames
    } finally {
      await rm(emptyCache, { recursive: true, force: true });
    }
  });

  it('dist:win stops with exactly one line and a failure code when the binary is out of reach', async () => {
    // Run as the npm script runs it, minus npm's own banner and error footer.
    expect(manifest.scripts['dist:win']).toBe('tsx build/dist.ts win');
    const port = await closedPort();
    // An empty per-user cache and a mirror nobody answers on: nothing can be fetched.
    const { code, stdout, stderr } = await runDist('win', { ELECTRON_MIRROR: `http://127.0.0.1:${port}/` });
    expect(code).toBe(1);
    expect(stdout.trim()).toMatch(/^Signing: none, building an unsigned Windows installer/);
    const errorLines = stderr.trim().split('\n');
    expect(errorLines).toHaveLength(1);
    expect(errorLines[0]).toMatch(
      /^Cannot build installers on this machine: the Electron \d+\.\d+\.\d+ binary for win32-x64 could not be fetched/,
    );
  }, 60_000);

  it('dist:win stops with one line naming what is missing when notarisation is half configured', async () => {
    const { code, stdout, stderr } = await runDist('win', {
      CSC_NAME: 'Developer ID Application: Till Co',
      APPLE_ID: 'builder@example.com',
    });
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toEqual([
      'Notarisation is half configured: APPLE_ID set but APPLE_APP_SPECIFIC_PASSWORD, APPLE_TEAM_ID missing.',
    ]);
  }, 60_000);

  it('refuses a dmg build on a machine that is not a Mac, before fetching anything', () => {
    expect(() => binariesFor('mac', 'linux')).toThrow(DistStop);
    expect(binariesFor('mac', 'darwin').map((b) => `${b.platform}-${b.arch}`)).toEqual(['darwin-x64', 'darwin-arm64']);
    expect(binariesFor('win', 'linux').map((b) => `${b.platform}-${b.arch}`)).toEqual(['win32-x64', 'win32-arm64']);
  });

  it('reads the pinned Electron version and rejects a range', () => {
    expect(electronVersion({ devDependencies: { electron: '45.4.1' } })).toBe('45.4.1');
    expect(() => electronVersion({ devDependencies: { electron: '^45.0.0' } })).toThrow(/exact "electron" version/);
  });
});
