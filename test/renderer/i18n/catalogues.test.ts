/**
 * The catalogue check: every shipped language has every message, in the right number of
 * plural forms and with the same parameters, and no message is left unused in the source
 * (the .ts and .vue files of the renderer, so the views' keys are checked as they arrive).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createI18n } from 'vue-i18n';
import { INTERFACE_LANGUAGES } from '../../../common/settings-choices';
import { CATALOGUES } from '../../../renderer/i18n';
import { pluralCategories } from '../../../renderer/i18n/plural-rules';

const RENDERER = join(__dirname, '..', '..', '..', 'renderer');
const CATALOGUE_DIR = join(RENDERER, 'i18n', 'messages');

function flatten(tree: object, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else if (value && typeof value === 'object') for (const [k, v] of flatten(value, path)) out.set(k, v);
    else out.set(path, String(value)); // not a string: reported by the "is text" check
  }
  return out;
}

/** Plural forms, split on the unescaped `|` vue-i18n uses. */
const formsOf = (message: string) => message.split(/\s*\|\s*/);
const paramsOf = (message: string) => [...new Set([...message.matchAll(/\{\s*(\w+)\s*\}/g)].map((m) => m[1]!))].sort();

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return path === CATALOGUE_DIR ? [] : sourceFiles(path);
    return /\.(ts|vue)$/.test(name) ? [path] : [];
  });
}

const reference = flatten(CATALOGUES.en);

describe('the catalogues', () => {
  it('ship exactly the interface languages', () => {
    expect(Object.keys(CATALOGUES).sort()).toEqual([...INTERFACE_LANGUAGES].sort());
  });

  for (const language of INTERFACE_LANGUAGES) {
    describe(language, () => {
      const messages = flatten(CATALOGUES[language]);

      it('has every message of the reference catalogue and no other', () => {
        const missing = [...reference.keys()].filter((key) => !messages.has(key));
        const extra = [...messages.keys()].filter((key) => !reference.has(key));
        expect({ missing, extra }).toEqual({ missing: [], extra: [] });
      });

      it('has text for every message', () => {
        const empty = [...messages]
          .filter(([, text]) => typeof text !== 'string' || text.trim() === '')
          .map(([key]) => key);
        expect(empty).toEqual([]);
      });

      it('gives plural messages one form per plural category of the language, others none', () => {
        const forms = pluralCategories(language).length;
        const wrong = [...messages]
          .filter(([key, text]) => {
            const plural = formsOf(reference.get(key) ?? '').length > 1;
            return plural ? formsOf(text).length !== forms : formsOf(text).length !== 1;
          })
          .map(([key]) => key);
        expect(wrong).toEqual([]);
      });

      it('compiles every message (a bare @, { or | is message syntax, and fails only when shown)', () => {
        const i18n = createI18n({ legacy: false, locale: language, messages: { [language]: CATALOGUES[language] } });
        const broken = [...messages.keys()].filter((key) => {
          const params = Object.fromEntries(paramsOf(messages.get(key)!).map((name) => [name, 'x']));
          try {
            i18n.global.t(key, params);
            return false;
          } catch {
            return true;
          }
        });
        expect(broken).toEqual([]);
      });

      it('uses the same parameters as the reference message', () => {
        const wrong = [...messages]
          .filter(([key, text]) => reference.has(key) && paramsOf(text).join() !== paramsOf(reference.get(key)!).join())
          .map(([key]) => key);
        expect(wrong).toEqual([]);
      });
    });
  }

  const sources = sourceFiles(RENDERER).map((path) => ({
    path: relative(RENDERER, path),
    text: readFileSync(path, 'utf8'),
  }));

  it('scans the renderer’s .ts and .vue files', () => {
    expect(sources.some((file) => file.path.endsWith('.vue'))).toBe(true);
    expect(sources.some((file) => file.path.endsWith('.ts'))).toBe(true);
  });

  it('has no message the source never uses (keys are written out whole, never built from parts)', () => {
    const unused = [...reference.keys()].filter(
      (key) => !sources.some((file) => ["'", '"', '`'].some((quote) => file.text.includes(`${quote}${key}${quote}`))),
    );
    expect(unused).toEqual([]);
  });

  it('has every message the source asks for by name (t, tPlural, $t)', () => {
    const asked = sources.flatMap((file) =>
      [...file.text.matchAll(/(?:\$t|\bt|\btPlural)\(\s*['"`]([\w.]+)['"`]/g)].map((m) => ({
        key: m[1]!,
        file: file.path,
      })),
    );
    expect(asked.length).toBeGreaterThan(10);
    expect(asked.filter(({ key }) => !reference.has(key))).toEqual([]);
  });
});
