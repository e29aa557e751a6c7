import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';

// The codes the offline core produces and the view layer words (verdicts, reasons, notes,
// refusals) live once, in renderer/vocabulary/, which both import (docs/screens.md). Were a
// union said again in lib/ "since lib/ imports no offline module", a new reason would be
// several edits and the copies could drift: these tests find a second declaration.

const ROOT = resolve(import.meta.dirname, '../..');
const VOCABULARY = 'renderer/vocabulary';
const SHARED = ['renderer/offline', 'renderer/lib', VOCABULARY];

function filesUnder(folder: string): string[] {
  return readdirSync(resolve(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
}

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(resolve(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
}

interface Declared {
  file: string;
  name: string;
  /** A union's members, each as written without comments or spacing, sorted; null if not a union. */
  members: string | null;
}

const plain = (node: ts.Node) =>
  node
    .getText()
    .replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, '')
    .replace(/\s+/g, '');

/** The type aliases and interfaces a file declares itself (re-exports are not declarations). */
function declaredIn(file: string): Declared[] {
  const found: Declared[] = [];
  for (const statement of parse(file).statements) {
    if (ts.isInterfaceDeclaration(statement)) found.push({ file, name: statement.name.text, members: null });
    if (ts.isTypeAliasDeclaration(statement)) {
      const type = statement.type;
      const members = ts.isUnionTypeNode(type) ? type.types.map(plain).sort().join('|') : null;
      found.push({ file, name: statement.name.text, members });
    }
  }
  return found;
}

/** Map.groupBy, which Node 20 lacks. */
function groupBy<T, K>(items: T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

const declarations = SHARED.flatMap(filesUnder).flatMap(declaredIn);
const folderOf = (file: string) => SHARED.find((folder) => file.startsWith(`${folder}/`));

describe('one vocabulary across the offline core and lib/', () => {
  test('no type is declared under one name in two of offline/, lib/ and vocabulary/', () => {
    const byName = groupBy(declarations, (declared) => declared.name);
    const twice = [...byName.entries()]
      .filter(([, all]) => new Set(all.map((declared) => folderOf(declared.file))).size > 1)
      .map(([name, all]) => `${name}: ${all.map((declared) => declared.file).join(', ')}`);
    expect(twice).toEqual([]);
  });

  test('no union of codes is written out twice, under any name', () => {
    const unions = declarations.filter((declared) => declared.members !== null && declared.members.includes("'"));
    const byMembers = groupBy(unions, (declared) => declared.members);
    const twice = [...byMembers.values()]
      .filter((all) => all.length > 1)
      .map((all) => all.map((declared) => `${declared.name} (${declared.file})`).join(' = '));
    expect(twice).toEqual([]);
  });

  test('the vocabulary is types only: it imports nothing and runs nothing', () => {
    const files = filesUnder(VOCABULARY);
    expect(files.length).toBeGreaterThanOrEqual(4);
    const runtime = files.flatMap((file) =>
      parse(file)
        .statements.filter(
          (statement) => !ts.isTypeAliasDeclaration(statement) && !ts.isInterfaceDeclaration(statement),
        )
        .map((statement) => `${file}: ${statement.getText().slice(0, 60)}`),
    );
    expect(runtime).toEqual([]);
  });

  test('the check sees a union said again', () => {
    // The shape of the mistake this guards against, as it stood in lib/ before.
    const again = ts.createSourceFile(
      'x.ts',
      "type A = 'b' | 'a';\ntype B =\n  | 'a' // one\n  | 'b';",
      ts.ScriptTarget.Latest,
      true,
    );
    const [first, second] = again.statements.map((statement) =>
      ((statement as ts.TypeAliasDeclaration).type as ts.UnionTypeNode).types.map(plain).sort().join('|'),
    );
    expect(first).toBe(second);
  });
});
