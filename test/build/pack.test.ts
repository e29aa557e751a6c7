// A real electron-builder pack of the app (the `dir` target, for Linux, the only
// platform this machine can pack for), around a stand-in Electron distribution, then a
// look inside the app.asar it produced. The asar is the same on every platform, so this
// is what the Windows and macOS installers would carry.
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as asar from '@electron/asar';
import { FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { Arch, build, Platform } from 'electron-builder';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_BUILD_SCRIPTS, electronVersion } from '../../build/dist';
import { createBuilderConfig } from '../../build/electron-builder.config';
import manifest from '../../package.json';
import { createStandInElectron, FUSE_OFF, FUSE_ON, INITIAL_FUSES } from './stand-in-electron';

const PROJECT_DIR = fileURLToPath(new URL('../..', import.meta.url));
const LARGEST_PACKED_FILE = 4 * 1024 * 1024;
/** The whole app.asar: bundles and the renderer, no node_modules. */
const ASAR_TARGET_BYTES = 10 * 1000 * 1000;

function npmRun(script: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', script], { cwd: PROJECT_DIR, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`npm run ${script} failed (${code}):\n${output.slice(-2000)}`)),
    );
  });
}

describe('packed app (electron-builder --dir with a stand-in Electron)', () => {
  let workDir: string;
  let appOutDir: string;
  let archive: string;
  let files: Set<string>;

  beforeAll(async () => {
    // The pack needs the real app: build it with the project's own scripts.
    for (const script of APP_BUILD_SCRIPTS) {
      if (!(manifest.scripts as Record<string, string>)[script])
        throw new Error(`package.json has no "${script}" script`);
      await npmRun(script);
    }
    workDir = await mkdtemp(join(tmpdir(), 'till-pack-'));
    const electronDist = await createStandInElectron(join(workDir, 'electron-dist'));
    const config = createBuilderConfig({});
    await build({
      projectDir: PROJECT_DIR,
      targets: Platform.LINUX.createTarget('dir', Arch.x64),
      publish: 'never',
      config: {
        ...config,
        electronDist,
        electronVersion: electronVersion(),
        directories: { ...config.directories, output: join(workDir, 'release') },
      },
    });
    appOutDir = join(workDir, 'release', 'linux-unpacked');
    archive = join(appOutDir, 'resources', 'app.asar');
    files = new Set(asar.listPackage(archive, { isPack: false }).map((path) => path.replace(/\\/g, '/')));
  }, 180_000);

  afterAll(async () => {
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  it('holds the built main process, preload and renderer, and package.json', () => {
    for (const file of [
      '/dist/main/main.cjs',
      '/dist/main/preload.cjs',
      '/dist/main/demo-sandbox.cjs',
      '/dist/renderer/index.html',
      '/package.json',
    ]) {
      expect(files.has(file), file).toBe(true);
    }
    const packedManifest = JSON.parse(asar.extractFile(archive, 'package.json').toString('utf8')) as { main: string };
    expect(files.has(`/${packedManifest.main}`)).toBe(true);
  });

  it('holds the renderer’s assets that index.html loads', () => {
    const html = asar.extractFile(archive, 'dist/renderer/index.html').toString('utf8');
    const referenced = [...html.matchAll(/(?:src|href)="\.\/([^"]+)"/g)].map((match) => match[1]!);
    expect(referenced.length).toBeGreaterThan(0);
    for (const asset of referenced) expect(files.has(`/dist/renderer/${asset}`), asset).toBe(true);
  });

  it('carries no node_modules: every library is bundled, and package.json lists no runtime dependencies', () => {
    expect([...files].filter((file) => file.includes('/node_modules/'))).toEqual([]);
    expect((manifest as { dependencies?: Record<string, string> }).dependencies ?? {}).toEqual({});
    // The libraries the bundles inline are build-time packages, pinned like the rest.
    for (const name of [
      'axios',
      'zod',
      'fastify',
      'libphonenumber-js',
      'electron-log',
      'fflate',
      'vue',
      'pinia',
      'dexie',
    ]) {
      expect(Object.keys(manifest.devDependencies)).toContain(name);
    }
  });

  it(`is under ${ASAR_TARGET_BYTES / 1e6} MB`, async () => {
    const bytes = (await stat(archive)).size;
    console.log(`app.asar: ${(bytes / 1e6).toFixed(2)} MB (${bytes} bytes), ${files.size} entries`);
    expect(bytes).toBeLessThan(ASAR_TARGET_BYTES);
  });

  it('holds no sources, tests, source maps, .env files or other project folders', () => {
    const offenders = [...files].filter(
      (file) =>
        /\.(ts|mts|cts|tsx|vue|map)$/.test(file) ||
        /(^|\/)\.env(\.[^/]*)?$/.test(file) ||
        /\/(test|tests|__tests__)\//.test(file),
    );
    expect(offenders).toEqual([]);
    const topLevel = new Set([...files].map((file) => file.split('/')[1]));
    expect([...topLevel].sort()).toEqual(['dist', 'package.json']);
    const distFolders = new Set([...files].filter((f) => f.startsWith('/dist/')).map((f) => f.split('/')[2]));
    expect([...distFolders].sort()).toEqual(['main', 'renderer']);
  });

  it('holds no large files', () => {
    const large = [...files].filter((file) => {
      const entry = asar.statFile(archive, file.slice(1)) as { size?: number };
      return (entry.size ?? 0) > LARGEST_PACKED_FILE;
    });
    expect(large).toEqual([]);
  });

  it('flipped the hardening fuses in the Electron binary', async () => {
    const executable = join(appOutDir, manifest.name);
    const wire = await getCurrentFuseWire(executable);
    expect({
      runAsNode: wire[FuseV1Options.RunAsNode],
      cookieEncryption: wire[FuseV1Options.EnableCookieEncryption],
      nodeOptions: wire[FuseV1Options.EnableNodeOptionsEnvironmentVariable],
      inspectArguments: wire[FuseV1Options.EnableNodeCliInspectArguments],
      asarIntegrity: wire[FuseV1Options.EnableEmbeddedAsarIntegrityValidation],
      onlyLoadAppFromAsar: wire[FuseV1Options.OnlyLoadAppFromAsar],
      fileProtocolExtraPrivileges: wire[FuseV1Options.GrantFileProtocolExtraPrivileges],
    }).toEqual({
      runAsNode: FUSE_OFF,
      cookieEncryption: FUSE_ON,
      nodeOptions: FUSE_OFF,
      inspectArguments: FUSE_OFF,
      asarIntegrity: FUSE_ON,
      onlyLoadAppFromAsar: FUSE_ON,
      fileProtocolExtraPrivileges: FUSE_OFF,
    });
    // Left as Electron ships it.
    expect(wire[FuseV1Options.LoadBrowserProcessSpecificV8Snapshot]).toBe(
      INITIAL_FUSES[FuseV1Options.LoadBrowserProcessSpecificV8Snapshot],
    );
  });

  it('loads the app only from app.asar: no loose app folder beside it', async () => {
    expect((await readdir(join(appOutDir, 'resources'))).sort()).toEqual(['app.asar']);
  });

  it('keeps only the UI languages the tills need', async () => {
    const locales = (await readdir(join(appOutDir, 'locales'))).sort();
    expect(locales).toEqual(['de.pak', 'en-GB.pak', 'en-US.pak', 'pl.pak']);
  });
});
