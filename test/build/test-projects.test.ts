/**
 * The Vitest projects (vitest.config.ts): the node and renderer projects share one module graph
 * a worker across their files, so a file that replaces a module for the whole file (`vi.mock`,
 * `vi.doMock`) or changes the process's own settings (umask, working folder) must run in the
 * isolated project (node-isolated; the renderer's files have none), where nothing it replaces
 * reaches another file.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, test } from 'vitest';
import { MODULE_MOCKING_TESTS } from '../../vitest.config';

const ROOT = join(__dirname, '..', '..');
/** The projects that share one module graph a worker (`isolate: false`): node and renderer. */
const SHARED_GRAPH_FOLDERS = ['test/common', 'test/sandbox', 'test/electron', 'test/renderer'];
const REPLACES_FOR_THE_FILE = /\bvi\.(mock|doMock)\(|process\.(umask|chdir)\(/;

function testFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return testFiles(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

test('every node test file that replaces a module or the process’s settings runs isolated, and only those', () => {
  const replacing = SHARED_GRAPH_FOLDERS.flatMap((folder) => testFiles(join(ROOT, folder)))
    .filter((path) => REPLACES_FOR_THE_FILE.test(readFileSync(path, 'utf8')))
    .map((path) => relative(ROOT, path))
    .sort();
  expect(replacing).toEqual([...MODULE_MOCKING_TESTS].sort());
});
