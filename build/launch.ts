// Launches the built app in Electron (`npm start` runs it after building).
//
// Electron's npm package downloads its binary on first use; on machines where that is not
// possible, its own loader throws a stack trace. This launcher checks first, tries the
// download once (quietly), and otherwise stops with one line that says what to do.
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

function main(): void {
  const require = createRequire(join(root, 'package.json'));
  let electronDir: string;
  try {
    electronDir = dirname(require.resolve('electron/package.json'));
  } catch {
    fail('the "electron" package is not installed; run "npm install".');
  }
  const version = (JSON.parse(readFileSync(join(electronDir, 'package.json'), 'utf8')) as { version: string }).version;

  let binary = electronBinary(electronDir);
  if (!binary) {
    const skip = process.env.ELECTRON_SKIP_BINARY_DOWNLOAD;
    const reason = skip ? 'ELECTRON_SKIP_BINARY_DOWNLOAD is set' : tryDownload(electronDir);
    binary = reason === null ? electronBinary(electronDir) : null;
    if (!binary) {
      fail(
        `cannot start: the Electron ${version} binary is not installed and could not be downloaded (${reason ?? 'not found after download'}). ` +
          'Run "node node_modules/electron/install.js" on a network that allows it, or set ELECTRON_OVERRIDE_DIST_PATH to an unpacked Electron.',
      );
    }
  }

  for (const built of ['dist/main/main.cjs', 'dist/main/preload.cjs', 'dist/renderer/index.html']) {
    if (!existsSync(join(root, built)))
      fail(`${built} is missing; run "npm start" (it builds first) or "npm run build:main" and "vite build".`);
  }

  const child = spawn(binary, [root, ...process.argv.slice(2)], { stdio: 'inherit', cwd: root });
  child.on('error', (error) => fail(`could not run Electron at ${binary}: ${error.message}`));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

main();
