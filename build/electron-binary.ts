// Where the Electron binary is, for the launcher (npm start) and the Electron smoke test
// (npm run test:electron). Electron's npm package downloads it on first use; on machines
// where that is impossible it is simply absent, and both say so in one line.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** Where Electron's package expects its binary (mirrors node_modules/electron/index.js). */
export function electronBinary(electronDir: string): string | null {
  const pathFile = join(electronDir, 'path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : null;
  if (process.env.ELECTRON_OVERRIDE_DIST_PATH) {
    const binary = join(process.env.ELECTRON_OVERRIDE_DIST_PATH, relative || 'electron');
    return existsSync(binary) ? binary : null;
  }
  if (!relative) return null;
  const binary = join(electronDir, 'dist', relative);
  return existsSync(binary) ? binary : null;
}

/** The installed electron package of the project at `root`, or null when there is none. */
export function electronPackage(root: string): { dir: string; version: string } | null {
  try {
    const dir = dirname(createRequire(join(root, 'package.json')).resolve('electron/package.json'));
    const version = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
    return { dir, version };
  } catch {
    return null;
  }
}
