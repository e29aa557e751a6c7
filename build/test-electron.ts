// npm run test:electron: the smoke test of the real app in the real Electron shell
// (test/electron-app/). Never part of `npm test`: the project's build machines have no
// Electron binary. Where the binary is missing this stops with one line and exit code 1:
// a release check that could not run must not look like one that passed.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { electronBinary, electronPackage } from './electron-binary';

const root = fileURLToPath(new URL('..', import.meta.url));

function stop(line: string): never {
  console.error(`Loyalty Till: test:electron: ${line}`);
  process.exit(1);
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): number {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env, shell: process.platform === 'win32' });
  if (result.error) stop(`could not run ${command}: ${result.error.message}`);
  return result.status ?? 1;
}

const electron = electronPackage(root);
if (!electron) stop('the "electron" package is not installed; run "npm ci".');
const binary = electronBinary(electron.dir);
if (!binary) {
  stop(
    `not run: the Electron ${electron.version} binary is not installed on this machine. ` +
      'Run "node node_modules/electron/install.js" where downloads are allowed (or set ELECTRON_OVERRIDE_DIST_PATH), then run this again; see docs/operations.md.',
  );
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
for (const script of ['build:main', 'build:renderer']) {
  if (run(npm, ['run', script]) !== 0) stop(`npm run ${script} failed.`);
}
process.exit(
  run(npm, ['exec', '--', 'vitest', 'run', '--config', 'test/electron-app/vitest.config.ts'], {
    ...process.env,
    ELECTRON_BINARY: binary,
  }),
);
