import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import ts from 'typescript';
import { expect, test } from 'vitest';
import { ROOT, sourceFiles } from '../support/source-files';

// Sizes a maintainer can hold in mind: no source file over 500 lines (message catalogues and
// demo data aside), no class over 300 (its body, first line to last), no function over 150.
// Nothing is excepted: what grows past a limit is split by what its parts do.

const FOLDERS = ['common', 'electron', 'renderer', 'sandbox', 'build'];
const LIMITS = { file: 500, class: 300, function: 150 };
/** Words and data, not code: long by nature. */
const NOT_CODE = [/^renderer\/i18n\/messages\//, /^electron\/messages\/(en|ar)\.ts$/, /^sandbox\/demo-data\.ts$/];

function codeFiles(): string[] {
  return sourceFiles(FOLDERS).filter((file) => !NOT_CODE.some((pattern) => pattern.test(file)));
}

/** The script of a .vue file, each block where it stands (lines before it blank), or the whole .ts. */
function scriptOf(file: string, text: string): string {
  if (!file.endsWith('.vue')) return text;
  let script = text.replace(/[^\n]/g, ' ');
  for (const match of text.matchAll(/(<script\b[^>]*>)([\s\S]*?)<\/script>/g)) {
    const start = match.index! + match[1]!.length;
    script = script.slice(0, start) + match[2]! + script.slice(start + match[2]!.length);
  }
  return script;
}

function lineSpan(source: ts.SourceFile, node: ts.Node): number {
  const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
  const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
  return last - first + 1;
}

function nameOf(node: ts.Node, source: ts.SourceFile): string {
  const named = node as { name?: ts.Node };
  if (named.name) return named.name.getText(source);
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent)) return parent.name.getText(source);
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText(source);
  if (parent && ts.isCallExpression(parent)) return `${parent.expression.getText(source)}(…)`;
  const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  return `line ${line}`;
}

/** Every size past its limit: `kind path[:name]` to lines. */
function measure(): Record<string, number> {
  const past: Record<string, number> = {};
  for (const file of codeFiles()) {
    const text = readFileSync(resolve(ROOT, file), 'utf8');
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    if (lines > LIMITS.file) past[`file ${file}`] = lines;
    const source = ts.createSourceFile(file, scriptOf(file, text), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isClassDeclaration(node) || ts.isClassExpression(node)) {
        const span = lineSpan(source, node);
        if (span > LIMITS.class) past[`class ${file}:${nameOf(node, source)}`] = span;
      } else if (ts.isFunctionLike(node) && 'body' in node && node.body) {
        const span = lineSpan(source, node);
        if (span > LIMITS.function) past[`function ${file}:${nameOf(node, source)}`] = span;
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return past;
}

test('no file, class or function is past its limit', () => {
  expect(measure()).toEqual({});
});
