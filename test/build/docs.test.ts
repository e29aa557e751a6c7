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
