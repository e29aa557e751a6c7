import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import ts from 'typescript';
import { expect, test } from 'vitest';

// electron/bridge/app-core.ts only composes: each subsystem exports its own table of bridge
// operations (its `*-operations.ts`), and the composition root joins them, so a new
// operation touches its subsystem, the contract and the page, and not this file.

const ROOT = resolve(import.meta.dirname, '../..');
const APP_CORE = resolve(ROOT, 'electron/bridge/app-core.ts');

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
}

function callsOf(node: ts.Node, name: string): ts.CallExpression[] {
  const found: ts.CallExpression[] = [];
  const visit = (child: ts.Node): void => {
    if (ts.isCallExpression(child) && ts.isIdentifier(child.expression) && child.expression.text === name)
      found.push(child);
    ts.forEachChild(child, visit);
  };
  visit(node);
  return found;
}

test('the composition root stays under 200 lines', () => {
  expect(readFileSync(APP_CORE, 'utf8').split('\n').length).toBeLessThan(200);
});

test('the composition root joins the subsystems’ tables and holds no operation of its own', () => {
  const source = parse(APP_CORE);
  const [table] = callsOf(source, 'guardedHandlers').map((call) => call.arguments[0]);
  // The table is the subsystems' tables joined (joinOperations throws on a name defined twice).
  expect(table && ts.isCallExpression(table) && table.expression.getText()).toBe('joinOperations');
  const parts = (table as ts.CallExpression).arguments;
  // Each part is a subsystem's table (made by its `*-operations.ts`); none is written here.
  expect(parts.filter((part) => ts.isObjectLiteralExpression(part)).map((part) => part.getText())).toEqual([]);
  expect(parts.length).toBeGreaterThanOrEqual(8);
  // Nor does it validate payloads or make operations: that is each table's work.
  expect(callsOf(source, 'op')).toEqual([]);
  expect(callsOf(source, 'operationMaker')).toEqual([]);
  expect(source.text).not.toMatch(/bridge-payloads/);
});
