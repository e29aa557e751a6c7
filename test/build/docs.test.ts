import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { expect, test } from 'vitest';

// The documentation a clone holds is whole: the design and the service spec are in docs/,
// no link leads out of the repository or to a file that is not there, and the decision
// records are listed once each.

const ROOT = resolve(import.meta.dirname, '../..');
const DECISIONS = resolve(ROOT, 'docs/decisions');

function markdownFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.md'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return listed
    .split('\n')
    .filter((file) => file !== '' && !file.startsWith('node_modules/') && existsSync(resolve(ROOT, file)));
}

/** The targets of a file's Markdown links that are not web addresses or anchors, without their anchors. */
function localLinks(file: string): string[] {
  const text = readFileSync(resolve(ROOT, file), 'utf8').replace(/```[\s\S]*?```/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1]!)
    .filter((target) => !/^(https?:|mailto:|#)/.test(target))
    .map((target) => target.replace(/#.*$/, ''));
}

test('the design and the service spec ship in docs/, and the README links to them', () => {
  const readme = readFileSync(resolve(ROOT, 'README.md'), 'utf8');
  for (const doc of ['docs/architecture.md', 'docs/loyalty-api.md']) {
    expect(existsSync(resolve(ROOT, doc)), doc).toBe(true);
    expect(readme).toContain(`](${doc})`);
  }
});

test('no document links out of the repository or to a file that is not there', () => {
  const broken: string[] = [];
  for (const file of markdownFiles()) {
    for (const target of localLinks(file)) {
      const path = resolve(dirname(resolve(ROOT, file)), target);
      if (!path.startsWith(`${ROOT}/`) || !existsSync(path)) broken.push(`${file} -> ${target}`);
    }
  }
  expect(broken).toEqual([]);
});

test('no document outside the decision records points at ../shared/', () => {
  const outside = markdownFiles().filter(
    (file) => !file.startsWith('docs/decisions/') && readFileSync(resolve(ROOT, file), 'utf8').includes('../shared/'),
  );
  expect(outside).toEqual([]);
});

test('the decision records are each listed once in their README', () => {
  const readme = readFileSync(resolve(DECISIONS, 'README.md'), 'utf8');
  const listed = [...readme.matchAll(/\]\((\d{4}-\d{2}-\d{2}-[^)]+\.md)\)/g)].map((match) => match[1]!);
  const records = readdirSync(DECISIONS).filter((file) => file !== 'README.md' && file.endsWith('.md'));
  expect([...listed].sort()).toEqual([...records].sort());
});

/**
 * Places that a document or a comment names but that no clone holds, each for a reason: what
 * the app makes at run time, in its user-data folder or Chromium's profile; Electron's own
 * folders; another project's repository named as a model.
 */
const NAMED_ELSEWHERE = new Set([
  'demo/sandbox.json', // the demo's service data, in the user-data folder
  'demo/state.json', // the demo's on/off, in the user-data folder
  'IndexedDB/', // Chromium's profile
  'resources/', // the packed app's folder beside Electron
  'packages/loot-core/src/server/', // Actual Budget's repository, a model
]);

/** The repository's files and folders, as git sees them (what a clone holds). */
function repositoryPaths(): { files: string[]; folders: Set<string> } {
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .split('\n')
    .filter((file) => file !== '' && existsSync(resolve(ROOT, file)));
  const folders = new Set<string>();
  for (const file of files) {
    const parts = file.split('/');
    for (let i = 1; i < parts.length; i++) folders.add(`${parts.slice(0, i).join('/')}/`);
  }
  return { files, folders };
}

/** Paths in backticks (`electron/work-copy/work-copy.ts`, `db/schema.ts`, `renderer/offline/`) in a text. */
function backtickedPaths(text: string): string[] {
  return [...text.matchAll(/`([^`\s]+)`/g)]
    .map((match) => match[1]!.replace(/[#:].*$/, ''))
    .filter((path) => path.includes('/') && !path.startsWith('/') && !/[<>*{}$]|^https?:|^\.\.?\//.test(path))
    .filter((path) => /\.(ts|vue|js|cjs|mjs|json|md|css|html|sh|nsh|plist|svg|png|ico|icns|admx|adml)$|\/$/.test(path));
}

/** Whether a clone holds the path, whole from the root or as the end of a longer path (docs name files by folder). */
function heldBy(path: string, { files, folders }: ReturnType<typeof repositoryPaths>): boolean {
  if (NAMED_ELSEWHERE.has(path)) return true;
  const held = path.endsWith('/')
    ? folders.has(path) || [...folders].some((folder) => folder.endsWith(`/${path}`))
    : files.includes(path) || files.some((file) => file.endsWith(`/${path}`));
  if (held) return true;
  // What the build or a run makes (dist/, the bench's results, screenshots) is ignored by git.
  try {
    execFileSync('git', ['check-ignore', '-q', '--no-index', path], { cwd: ROOT });
    return true;
  } catch {
    return false;
  }
}

test('every path a document or a source comment names in backticks is in the repository', () => {
  const paths = repositoryPaths();
  const texts = paths.files.filter(
    (file) =>
      ((file.startsWith('docs/') || file === 'README.md') && file.endsWith('.md')) ||
      /^(renderer|electron|common|sandbox|build|test)\/.*\.(ts|vue|js)$/.test(file),
  );
  const missing: string[] = [];
  for (const file of texts) {
    const text = readFileSync(resolve(ROOT, file), 'utf8');
    // Markdown outside its code blocks; source files in their comments only.
    const parts = file.endsWith('.md')
      ? [text.replace(/```[\s\S]*?```/g, '')]
      : [...text.matchAll(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g)].map((match) => match[0]);
    for (const part of parts)
      for (const path of backtickedPaths(part)) if (!heldBy(path, paths)) missing.push(`${file}: ${path}`);
  }
  expect(missing).toEqual([]);
});

test('the path check finds a path that does not exist', () => {
  const paths = repositoryPaths();
  expect(backtickedPaths('see `renderer/offline/outbox/outbox.ts` and `db/schema.ts`')).toEqual([
    'renderer/offline/outbox/outbox.ts',
    'db/schema.ts',
  ]);
  expect(heldBy('renderer/offline/outbox/outbox.ts', paths)).toBe(true);
  expect(heldBy('db/schema.ts', paths)).toBe(true);
  expect(heldBy('renderer/lib/shift-report.ts', paths)).toBe(false);
  expect(heldBy('customers/customer-cache.ts', paths)).toBe(false);
  expect(heldBy('dist/main/main.cjs', paths)).toBe(true);
});

test('no two decision records share a name, whatever their dates', () => {
  const slugs = readdirSync(DECISIONS)
    .filter((file) => file !== 'README.md' && file.endsWith('.md'))
    .map((file) => file.replace(/^\d{4}-\d{2}-\d{2}-/, ''));
  expect(slugs.filter((slug, i) => slugs.indexOf(slug) !== i)).toEqual([]);
});

test('the three walks of docs/architecture.md return to a room no more often than they did (3, 4, 4)', () => {
  const text = readFileSync(resolve(ROOT, 'docs/architecture.md'), 'utf8');
  const walks = text.split(/^### (?=\d\. )/m).slice(1);
  const returns = walks.map((walk) => walk.split(/^## /m)[0]!.match(/\(again\)/g)?.length ?? 0);
  expect(returns).toHaveLength(3);
  // A change that adds a return says why in the walk, and raises the bound here with it.
  [3, 4, 4].forEach((most, i) => expect(returns[i], `walk ${i + 1}`).toBeLessThanOrEqual(most));
  // Each step names the room it passes, and the room is there.
  for (const walk of walks) {
    const rooms = [...walk.matchAll(/^\d+\. (?:Later, )?`((?:renderer|electron)\/[^`]+)`/gm)].map((match) => match[1]!);
    expect(rooms.length).toBeGreaterThanOrEqual(6);
    for (const room of rooms) expect(existsSync(resolve(ROOT, room)), room).toBe(true);
  }
});
