import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';
import { en } from '../../../electron/messages/en';
import { ar } from '../../../electron/messages/ar';
import { INTERFACE_LANGUAGES } from '../../../common/settings-choices';

/**
 * The main process's catalogues (electron/messages): complete in every shipped language,
 * with the same parameters, no message unused, and every key the code names present.
 */
const CATALOGUES: Record<(typeof INTERFACE_LANGUAGES)[number], Record<string, string>> = { en, ar };
const ROOT = join(import.meta.dirname, '../../..');
const ELECTRON = join(ROOT, 'electron');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'messages' ? [] : sources(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

const params = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

// Where the code names a message: msg('…'), says('…'), badResponse('…'), describe(wording, '…')
// (or describe(wording(), '…')), and the `key:` / `why:` of a failure's words.
const KEY_USES = [
  /\b(?:msg|says|badResponse)\(\s*'([^']+)'/g,
  /\bdescribe\([\w.]+(?:\(\))?,\s*'([^']+)'/g,
  /\b(?:key|why):\s*'([^']+)'/g,
];

describe('the main process catalogues', () => {
  test('every shipped language has a catalogue', () => {
    expect(Object.keys(CATALOGUES).sort()).toEqual([...INTERFACE_LANGUAGES].sort());
  });

  test.each(Object.entries(CATALOGUES))(
    '%s has exactly the English keys, none empty, with the same {params}',
    (_language, catalogue) => {
      expect(Object.keys(catalogue).sort()).toEqual(Object.keys(en).sort());
      for (const [key, text] of Object.entries(catalogue)) {
        expect(text.trim(), key).not.toBe('');
        expect(params(text), key).toEqual(params(en[key as keyof typeof en]));
      }
    },
  );

  test('the Arabic catalogue is Arabic', () => {
    for (const [key, text] of Object.entries(ar)) expect(text, key).toMatch(/[\u0600-\u06ff]/);
  });

  const files = sources(ELECTRON).map((path) => ({ path: relative(ROOT, path), text: readFileSync(path, 'utf8') }));
  const used = new Map<string, string>();
  for (const { path, text } of files) {
    for (const pattern of KEY_USES) for (const match of text.matchAll(pattern)) used.set(match[1]!, path);
  }

  test('every key the main process names exists', () => {
    expect(used.size).toBeGreaterThan(50);
    const missing = [...used].filter(([key]) => !Object.hasOwn(en, key)).map(([key, path]) => `${path}: ${key}`);
    expect(missing).toEqual([]);
  });

  test('every message is used somewhere in electron/', () => {
    const unused = Object.keys(en).filter((key) => !used.has(key));
    expect(unused).toEqual([]);
  });
});
