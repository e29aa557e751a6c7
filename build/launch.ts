// Starts the built app (`npm start` runs it after building): in Electron where its binary
// runs, otherwise in the browser shell (electron/browser-shell/), which serves the same app to
// the machine's browser from 127.0.0.1. `npm start -- --browser` chooses the browser shell;
// `npm start -- --health` prints the till's health in whichever runs, and exits with its code.
//
// Electron's npm package downloads its binary on first use; on machines where that is not
// possible, its own loader throws a stack trace. This launcher checks first, tries the
// download once (quietly), and otherwise says in one line why it starts the browser shell.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { electronBinary } from './electron-binary';

const root = fileURLToPath(new URL('..', import.meta.url));
const DOWNLOAD_TIMEOUT_MS = 120_000;

function fail(line: string): never {
  console.error(`Loyalty Till: ${line}`);
  process.exit(1);
}

/** Runs Electron's own installer with its output captured; returns why it failed, or null. */
function tryDownload(electronDir: string): string | null {
  const result = spawnSync(process.execPath, [join(electronDir, 'install.js')], {
    encoding: 'utf8',
    timeout: DOWNLOAD_TIMEOUT_MS,
  });
  if (result.status === 0) return null;
  if (result.error) return result.error.message;
  const lines = `${result.stderr ?? ''}\n${result.stdout ?? ''}`
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('at '));
  return (lines[0] ?? `installer exited with code ${result.status}`).slice(0, 160);
}

/** Why Electron cannot run here, or its binary: the package, then its binary, downloaded once if need be. */
function findElectron(): { binary: string } | { reason: string } {
  const require = createRequire(join(root, 'package.json'));
  let electronDir: string;
  try {
    electronDir = dirname(require.resolve('electron/package.json'));
  } catch {
    return { reason: 'the "electron" package is not installed' };
  }
  const version = (JSON.parse(readFileSync(join(electronDir, 'package.json'), 'utf8')) as { version: string }).version;
  const installed = electronBinary(electronDir);
  if (installed) return { binary: installed };
  const skip = process.env.ELECTRON_SKIP_BINARY_DOWNLOAD;
  const reason = skip ? 'ELECTRON_SKIP_BINARY_DOWNLOAD is set' : tryDownload(electronDir);
  const downloaded = reason === null ? electronBinary(electronDir) : null;
  if (downloaded) return { binary: downloaded };
  return {
    reason: `the Electron ${version} binary is not installed and could not be downloaded (${reason ?? 'not found after download'})`,
  };
}

function requireBuilt(files: string[]): void {
  for (const built of files) {
    if (!existsSync(join(root, built)))
      fail(`${built} is missing; run "npm start" (it builds first) or "npm run build:main" and "vite build".`);
  }
}

/** Runs `command` in the foreground and exits as it exits. */
function runChild(command: string, args: string[], what: string): void {
  const child = spawn(command, args, { stdio: 'inherit', cwd: root });
  // Ctrl+C reaches the child too (same process group): it stops cleanly, then this exits with it.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      if (signal !== 'SIGINT') child.kill(signal);
    });
  }
  child.on('error', (error) => fail(`could not run ${what}: ${error.message}`));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

function main(): void {
  const args = process.argv.slice(2);
  const electron = args.includes('--browser') ? null : findElectron();
  if (electron && 'binary' in electron) {
    requireBuilt(['dist/main/main.cjs', 'dist/main/preload.cjs', 'dist/renderer/index.html']);
    runChild(electron.binary, [root, ...args], `Electron at ${electron.binary}`);
    return;
  }
  // `--health` answers a fleet tool with one JSON object: no note about which shell ran it.
  if (electron && !args.includes('--health')) {
    console.error(
      `Loyalty Till: Electron cannot run here (${electron.reason}); starting in the browser instead. ` +
        'For the desktop app, run "node node_modules/electron/install.js" on a network that allows it, or set ELECTRON_OVERRIDE_DIST_PATH.',
    );
  }
  // The same Node, with tsx's loader: the browser shell runs from source (and checks its renderer itself).
  runChild(
    process.execPath,
    ['--import', 'tsx', join(root, 'electron/browser-shell/main.ts'), ...args],
    'the browser shell',
  );
}

main();
