import { readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';
import { sourceFiles as listedSourceFiles } from '../support/source-files';

// No module of the app imports itself back, however long the way round: a circle means two
// modules cannot be understood, tested or changed apart. Type-only imports count too. The
// graph is read with TypeScript's own scanner from every source file git knows, the script
// blocks of .vue files included.

const ROOT = resolve(import.meta.dirname, '../..');
const FOLDERS = ['common', 'electron', 'renderer', 'sandbox'];
const CANDIDATES = ['', '.ts', '.vue', '/index.ts'];

function sourceFiles(): string[] {
  return listedSourceFiles(FOLDERS).map((file) => resolve(ROOT, file));
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function scriptOf(file: string): string {
  const text = readFileSync(file, 'utf8');
  if (!file.endsWith('.vue')) return text;
  return [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((match) => match[1]).join('\n');
}

/** The project files a file imports (static, dynamic and type-only), by absolute path. */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(scriptOf(file), true, true);
  const found: string[] = [];
  for (const { fileName } of importedFiles) {
    if (!fileName.startsWith('.')) continue;
    const base = resolve(dirname(file), fileName);
    const target = CANDIDATES.map((ending) => base + ending).find(isFile);
    if (target) found.push(target);
  }
  return found;
}

/** Strongly connected components of more than one module, or a module importing itself (Tarjan). */
function circles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe('the import graph', () => {
  test('finds a circle where there is one, the long way round too', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
      ['e', ['e']],
    ]);
    expect(circles(graph)).toEqual([['a', 'b', 'c'], ['e']]);
  });

  test('has no circle in common/, electron/, renderer/ or sandbox/', () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(100);
    const graph = new Map(files.map((file) => [file, importsOf(file)]));
    const named = circles(graph).map((circle) => circle.map((file) => relative(ROOT, file)));
    expect(named).toEqual([]);
  });
});
