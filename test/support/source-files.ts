/** The app's source files as git knows them (tracked, or new and not ignored), for the code checks. */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');

/** `.ts` and `.vue` files (declarations aside) under `folders`, relative to the repository's root. */
export function sourceFiles(folders: readonly string[]): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', ...folders], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return listed
    .split('\n')
    .filter((file) => /\.(ts|vue)$/.test(file) && !file.endsWith('.d.ts') && existsSync(resolve(ROOT, file)));
}
