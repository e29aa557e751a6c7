import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse as parseTemplate, NodeTypes, type RootNode, type TemplateChildNode } from '@vue/compiler-dom';
import { parse as parseSfc } from '@vue/compiler-sfc';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';

/**
 * Joined text comes from the catalogues. A comma, a colon, a dash or brackets written in code
 * between two pieces of text ("{name}, {phone}") are English punctuation in every language:
 * Arabic joins with "،" and its own word order. So a template that puts punctuation between
 * two elements or interpolations, and a script that joins strings with punctuation (in a
 * template literal, with `+` or with `.join`), are refused: the joining belongs in a message
 * with parameters (`$t`, `<i18n-t>`). Joining whole sentences with a space is allowed.
 */

/**
 * Punctuation that joins pieces of text into one: commas, colons, dashes, dots, parentheses.
 * (Not `|`, `[` `]` or `/`: cache keys, selectors, patterns and paths are built with them.)
 */
const JOINING = /[,،;؛:·•—–()]/;
/** Only punctuation, symbols and spaces: a separator, not words (words are no-raw-text's business). */
const ONLY_PUNCTUATION = /^[\s\p{P}\p{S}]+$/u;

const joins = (text: string): boolean => text.trim() !== '' && ONLY_PUNCTUATION.test(text) && JOINING.test(text);

/** Script: template literals, `+` and `.join` that join text with punctuation. */
export function joinedInScript(code: string, where: string): string[] {
  const found: string[] = [];
  const source = ts.createSourceFile('x.ts', code, ts.ScriptTarget.Latest, true);
  const at = (node: ts.Node) => `${where}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const visit = (node: ts.Node): void => {
    if (ts.isTemplateExpression(node)) {
      // Text between two substitutions, or before/after one that the literal wraps: `${a}, ${b}`, `(${a})`.
      const pieces = [node.head.text, ...node.templateSpans.map((span) => span.literal.text)];
      const between = pieces.filter((piece, index) =>
        index === 0 || index === pieces.length - 1 ? piece !== '' : true,
      );
      if (between.some(joins)) found.push(`${at(node)} joins with punctuation: ${node.getText()}`);
    } else if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
      for (const side of [node.left, node.right]) {
        if (ts.isStringLiteral(side) && joins(side.text)) found.push(`${at(node)} joins with +: ${node.getText()}`);
      }
    } else if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.name.text === 'join' &&
      node.arguments.length === 1 &&
      ts.isStringLiteralLike(node.arguments[0]!) &&
      joins(node.arguments[0].text)
    ) {
      found.push(`${at(node)} joins with .join: ${node.getText()}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Template: punctuation between elements or interpolations, and joins inside its expressions. */
export function joinedInTemplate(template: string, where: string): string[] {
  const found: string[] = [];
  const visit = (node: RootNode | TemplateChildNode, hidden: boolean): void => {
    if (node.type === NodeTypes.INTERPOLATION && node.content.type === NodeTypes.SIMPLE_EXPRESSION) {
      found.push(...joinedInScript(`(${node.content.content})`, `${where}:${node.loc.start.line}`));
      return;
    }
    if (node.type !== NodeTypes.ROOT && node.type !== NodeTypes.ELEMENT) return;
    const quiet =
      hidden ||
      (node.type === NodeTypes.ELEMENT &&
        (node.tag === 'kbd' ||
          node.props.some(
            (p) => p.type === NodeTypes.ATTRIBUTE && p.name === 'aria-hidden' && p.value?.content === 'true',
          )));
    if (node.type === NodeTypes.ELEMENT) {
      for (const prop of node.props) {
        if (
          prop.type === NodeTypes.DIRECTIVE &&
          prop.exp?.type === NodeTypes.SIMPLE_EXPRESSION &&
          prop.name === 'bind'
        ) {
          found.push(...joinedInScript(`(${prop.exp.content})`, `${where}:${prop.loc.start.line}`));
        }
      }
    }
    const children = node.children;
    const hasNeighbours = children.filter((c) => c.type !== NodeTypes.COMMENT && c.type !== NodeTypes.TEXT).length > 0;
    for (const child of children) {
      if (child.type === NodeTypes.TEXT && hasNeighbours && !quiet && joins(child.content)) {
        found.push(`${where}:${child.loc.start.line} joins with “${child.content.trim()}” in the template`);
      }
      visit(child, quiet);
    }
  };
  visit(parseTemplate(template, { comments: false }), false);
  return found;
}

function joinedInFile(path: string, where: string): string[] {
  const code = readFileSync(path, 'utf8');
  if (!path.endsWith('.vue')) return joinedInScript(code, where);
  const { descriptor } = parseSfc(code, { filename: path });
  const template = descriptor.template?.content ?? '';
  const script = descriptor.scriptSetup?.content ?? descriptor.script?.content ?? '';
  return [...joinedInTemplate(template, `${where} (template)`), ...joinedInScript(script, `${where} (script)`)];
}

/**
 * Files whose joins are not text for a person. Each with its reason.
 */
const NOT_PEOPLES_TEXT: Record<string, string> = {
  // Catalogues are where joining belongs.
  'renderer/i18n/messages': 'the catalogues',
  // CSV syntax, read by spreadsheets, not by the cashier.
  'renderer/lib/journal-csv.ts': 'CSV separators',
  // A cashier's recorded label ("Sara Ali (12)"): one spelling in every record, whatever the
  // interface language, so that the journal, the CSV and the POS count one person once.
  'renderer/lib/cashier.ts': 'the cashier label the records keep',
};

function rendererFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return rendererFiles(path);
    return /\.(ts|vue)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

describe('joined text comes from the catalogues', () => {
  test.each([
    ['a comma between two bdi', '<dd><bdi dir="auto">{{ name }}</bdi>, <bdi dir="ltr">{{ phone }}</bdi></dd>'],
    ['a middle dot between two interpolations', '<p>{{ a }} · {{ b }}</p>'],
    ['brackets around an interpolation beside an element', '<h3><bdi>{{ name }}</bdi> ({{ kind }})</h3>'],
    ['a template literal in a mustache', '<p>{{ `${a}, ${b}` }}</p>'],
    ['a + in a bound attribute', '<p :title="a + \', \' + b"></p>'],
  ])('refuses %s in a template', (_what, template) => {
    expect(joinedInTemplate(template, 'X.vue')).not.toEqual([]);
  });

  test.each([
    ['a template literal with a comma', 'const x = `${name}, ${phone}`;'],
    ['a template literal with brackets', 'const label = `${country} (${code})`;'],
    ['a template literal with a dash', 'const label = `${code} — ${name}`;'],
    ['a + with a colon', "const x = title + ': ' + detail;"],
    ['a .join with a comma', "const x = names.join(', ');"],
    ['a .join with a middle dot', "const x = parts.join(' · ');"],
  ])('refuses %s in a script', (_what, code) => {
    expect(joinedInScript(code, 'x.ts')).toHaveLength(1);
  });

  test.each([
    ['a message with parameters', "<dd>{{ $t('outbox.nameAndPhone', { name, phone }) }}</dd>"],
    [
      '<i18n-t> with slots',
      '<i18n-t keypath="outbox.nameAndPhone" tag="dd" scope="global"><template #name><bdi>{{ n }}</bdi></template></i18n-t>',
    ],
    [
      'an arrow hidden from screen readers beside words',
      '<button><span aria-hidden="true">←</span> {{ $t(\'find.previous\') }}</button>',
    ],
    ['key caps', '<p><kbd>PgUp</kbd> <kbd>PgDn</kbd></p>'],
    ['a placeholder for a missing value', "<dd>{{ name || '—' }}</dd>"],
  ])('allows %s in a template', (_what, template) => {
    expect(joinedInTemplate(template, 'X.vue')).toEqual([]);
  });

  test.each([
    ['sentences joined by a space', 'const x = `${first} ${second}`;'],
    ['a key made of ids', 'const key = `${card.program.id}-${index}`;'],
    ['a file name', 'const file = `loyalty-till-journal-${day}.csv`;'],
    ['a lone placeholder', "const x = name ?? '—';"],
    ['a selector', 'const row = list.querySelector(`[data-index="${index}"]`);'],
    ['a cache key', 'const key = `n|${tag}|${options}`;'],
  ])('allows %s in a script', (_what, code) => {
    expect(joinedInScript(code, 'x.ts')).toEqual([]);
  });

  test('no renderer file joins text with punctuation of its own', () => {
    const root = process.cwd();
    const files = rendererFiles(join(root, 'renderer')).filter(
      (path) => !Object.keys(NOT_PEOPLES_TEXT).some((exempt) => relative(root, path).startsWith(exempt)),
    );
    expect(files.filter((f) => f.endsWith('.vue')).length).toBeGreaterThan(10);
    expect(files.flatMap((path) => joinedInFile(path, relative(root, path)))).toEqual([]);
  });
});
