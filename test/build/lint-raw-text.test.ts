import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, test } from 'vitest';

// The no-raw-text rule in eslint.config.js, tried on small templates linted as if they sat in
// renderer/views/: words written into a template are refused, words from the catalogues ($t,
// <i18n-t>) pass, so a rule that stops matching (a changed glob, a plugin update) fails here.
const eslint = new ESLint({ cwd: process.cwd() });

async function rawTextErrors(code: string, filePath = 'renderer/views/X.vue'): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === '@intlify/vue-i18n/no-raw-text').map((m) => m.message);
}

const sfc = (template: string, script = '') =>
  `<script setup lang="ts">\n${script}\n</script>\n\n<template>\n  ${template}\n</template>\n`;

describe('raw text in renderer templates', () => {
  test.each([
    ['a text node', '<p>Customer saved.</p>'],
    ['an Arabic text node', '<p>تم الحفظ</p>'],
    ['a string literal in a mustache', "<p>{{ 'Saving…' }}</p>"],
    ['a literal in a conditional', "<button type=\"button\">{{ busy ? 'Saving…' : $t('common.back') }}</button>"],
    ['a placeholder', '<input placeholder="Phone number or name" />'],
    ['an aria-label', '<nav aria-label="Pages"></nav>'],
    ['a TextField label', '<TextField id="n" label="Name" />'],
    [
      'a TextField hint',
      '<TextField id="n" :label="$t(\'customerForm.name\')" hint="Empty the field to remove it." />',
    ],
  ])('refuses %s', async (_what, template) => {
    const script = /busy/.test(template)
      ? 'const busy = false;'
      : /TextField/.test(template)
        ? "import TextField from '../components/TextField.vue';"
        : '';
    expect(await rawTextErrors(sfc(template, script))).toHaveLength(1);
  });

  test.each([
    ['$t in a mustache', "<p>{{ $t('common.dismiss') }}</p>"],
    ['$t in a bound attribute', '<input :placeholder="$t(\'find.placeholder\')" />'],
    [
      '<i18n-t> with a tag and slots',
      '<i18n-t keypath="find.none" tag="p" scope="global"><template #query><bdi dir="auto">{{ name }}</bdi></template></i18n-t>',
    ],
    ['key caps in <kbd>', '<p><kbd>Esc</kbd></p>'],
    ['punctuation, arrows and digits only', '<p><span aria-hidden="true">←</span> — (2) · …</p>'],
    ['data from a binding', '<p>{{ name }}</p>'],
  ])('allows %s', async (_what, template) => {
    expect(await rawTextErrors(sfc(template, /name/.test(template) ? "const name = 'x';" : ''))).toEqual([]);
  });

  test('applies to every renderer .vue file, and the renderer has no raw text today', async () => {
    const root = join(process.cwd(), 'renderer');
    // Every .vue file of the renderer, in whichever folder (views, components, a feature's own).
    const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.vue'));
    expect(files.length).toBeGreaterThan(10);
    const results = await eslint.lintFiles(files.map((file) => join(root, file)));
    const raw = results.flatMap((r) =>
      r.messages
        .filter((m) => m.ruleId === '@intlify/vue-i18n/no-raw-text')
        .map((m) => `${r.filePath}:${m.line} ${m.message}`),
    );
    expect(raw).toEqual([]);
    // The rule is on for these files (a config that dropped it would pass the line above).
    const config = await eslint.calculateConfigForFile(join(root, 'views', 'FindView.vue'));
    expect(config.rules?.['@intlify/vue-i18n/no-raw-text']?.[0]).toBe(2);
  }, 30_000); // lints every view and component: 4-7 s when the machine's cores are shared
});
