// npm run dist:win | dist:mac | dist:dir
//
// Builds the app and wraps it in installers. Every check that can fail for a reason
// outside the code (signing variables half set, wrong host for a dmg, no way to fetch the
// Electron binary, a missing build script) runs first and stops the build with one line.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Arch, build, Platform } from 'electron-builder';
import { createBuilderConfig } from './electron-builder.config';
import { checkElectronBinaries, type ElectronBinary } from './electron-preflight';
import { describeSigning, readSigningPlan, SigningConfigError, type Env } from './signing';

export type DistKind = 'win' | 'mac' | 'dir';

const PROJECT_DIR = fileURLToPath(new URL('..', import.meta.url));
/** The scripts that turn sources into dist/main and dist/renderer, in order. */
export const APP_BUILD_SCRIPTS = ['build:main', 'build:renderer'] as const;

/** Thrown for anything the person running the build must fix; its message is the one line shown. */
export class DistStop extends Error {
  override name = 'DistStop';
}

interface ProjectManifest {
  version?: string;
  scripts?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

function readManifest(): ProjectManifest {
  return JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as ProjectManifest;
}

/** The Electron version the installers wrap: the exact pin in package.json. */
export function electronVersion(manifest: ProjectManifest = readManifest()): string {
  const pinned = manifest.devDependencies?.electron;
  if (!pinned || !/^\d+\.\d+\.\d+$/.test(pinned)) {
    throw new DistStop('package.json must pin an exact "electron" version in devDependencies.');
  }
  return pinned;
}

function hostArch(): 'x64' | 'arm64' {
  if (process.arch === 'x64' || process.arch === 'arm64') return process.arch;
  throw new DistStop(`Installers are built for x64 and arm64; this machine is ${process.arch}.`);
}

/** The Electron binaries a kind of build wraps. */
export function binariesFor(kind: DistKind, hostPlatform: NodeJS.Platform = process.platform): ElectronBinary[] {
  switch (kind) {
    case 'win':
      return [
        { platform: 'win32', arch: 'x64' },
        { platform: 'win32', arch: 'arm64' },
      ];
    case 'mac':
      if (hostPlatform !== 'darwin') {
        throw new DistStop('macOS installers (dmg, signing, notarisation) can only be built on a Mac.');
      }
      return [
        { platform: 'darwin', arch: 'x64' },
        { platform: 'darwin', arch: 'arm64' },
      ];
    case 'dir': {
      if (hostPlatform !== 'win32' && hostPlatform !== 'darwin' && hostPlatform !== 'linux') {
        throw new DistStop(`Unpacked builds are made for Windows, macOS or Linux, not ${hostPlatform}.`);
      }
      return [{ platform: hostPlatform, arch: hostArch() }];
    }
  }
}

function runAppBuild(manifest: ProjectManifest): void {
  for (const script of APP_BUILD_SCRIPTS) {
    if (!manifest.scripts?.[script]) {
      throw new DistStop(`package.json has no "${script}" script, so the app cannot be built before packing.`);
    }
    const run = spawnSync('npm', ['run', script], {
      cwd: PROJECT_DIR,
      stdio: 'inherit',
      shell: process.platform === 'win32',
    });
    if (run.status !== 0) throw new DistStop(`"npm run ${script}" failed; see its output above.`);
  }
}

function targetsFor(kind: DistKind) {
  if (kind === 'win') return Platform.WINDOWS.createTarget(); // the targets and archs in the config
  if (kind === 'mac') return Platform.MAC.createTarget();
  return Platform.current().createTarget('dir', hostArch() === 'arm64' ? Arch.arm64 : Arch.x64);
}

/** A half-configured signing setup is the builder's to fix: show its message as the one line. */
function withSigningStops<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof SigningConfigError) throw new DistStop(error.message);
    throw error;
  }
}

export async function dist(kind: DistKind, env: Env = process.env): Promise<string[]> {
  const manifest = readManifest();
  const config = withSigningStops(() => createBuilderConfig(env));
  const binaries = binariesFor(kind);
  const version = electronVersion(manifest);

  if (kind !== 'dir') console.log(describeSigning(readSigningPlan(env), kind));
  else console.log('Signing: none, an unpacked build for trying the app on this machine.');

  const preflight = await checkElectronBinaries({ version, binaries, electronDownload: config.electronDownload });
  if (!preflight.ok) throw new DistStop(preflight.message);

  runAppBuild(manifest);
  return build({ projectDir: PROJECT_DIR, targets: targetsFor(kind), config, publish: 'never' });
}

function parseKind(arg: string | undefined): DistKind {
  if (arg === 'win' || arg === 'mac' || arg === 'dir') return arg;
  throw new DistStop('Usage: tsx build/dist.ts <win|mac|dir>');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    const artifacts = await dist(parseKind(process.argv[2]));
    for (const file of artifacts) console.log(`built ${file}`);
    console.log(`Done: the output is in release/${readManifest().version}/`);
  } catch (error) {
    // Known stops are already one readable line; anything else is summarised the same way.
    const line = error instanceof Error ? error.message.split('\n')[0] : String(error);
    console.error(error instanceof DistStop ? line : `Build failed: ${line}`);
    process.exitCode = 1;
  }
  // electron-builder's downloader leaves a timer behind after a failed fetch that would keep
  // the process alive for another half minute; the outcome is already printed.
  process.exit();
}
