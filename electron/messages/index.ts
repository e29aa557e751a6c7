import type { ArabicDigits, InterfaceLanguage } from '../../common/settings-choices';
import { ar } from './ar';
import { en, type MainMessageKey } from './en';

export type { MainMessageKey };

/**
 * The main process's words in the interface language. Schemas and checks name a message by
 * its key (`msg('…')`); the words are chosen when the error is described for the cashier,
 * in the language the renderer speaks at that moment (`resolveLanguage` in
 * common/interface-language.ts, the same function the renderer uses).
 */
const CATALOGUES: Record<InterfaceLanguage, Record<MainMessageKey, string>> = { en, ar };

/** The language and digits to word a message in. English is what logs and tests read. */
export interface Wording {
  language: InterfaceLanguage;
  /** Arabic's numbering system (Settings.arabicDigits); other languages ignore it. */
  digits?: ArabicDigits;
}

export const ENGLISH: Wording = Object.freeze({ language: 'en' });

/** Marks a message key where a string is expected (a zod message): checked by the type. */
export function msg(key: MainMessageKey): MainMessageKey {
  return key;
}

export function isMainMessageKey(value: unknown): value is MainMessageKey {
  return typeof value === 'string' && Object.hasOwn(en, value);
}

const ISOLATE_RTL = new Set<InterfaceLanguage>(['ar']);

/**
 * The message `key` in `wording`'s language, its `{name}` parameters filled in. Numbers are
 * written in the interface's digits; in a right-to-left language each parameter is isolated
 * (FSI … PDI), so a URL or a route name keeps its own direction inside the sentence.
 */
export function describe(wording: Wording, key: MainMessageKey, params: Record<string, string | number> = {}): string {
  const { language } = wording;
  const numbers = new Intl.NumberFormat(language === 'ar' ? `ar-u-nu-${wording.digits ?? 'arab'}` : language, {
    useGrouping: false,
  });
  const text = CATALOGUES[language][key].replace(/\{(\w+)\}/g, (whole, name: string) => {
    if (!Object.hasOwn(params, name)) return whole;
    const value = params[name]!;
    const shown = typeof value === 'number' ? numbers.format(value) : value;
    return ISOLATE_RTL.has(language) ? `\u2068${shown}\u2069` : shown;
  });
  // The catalogue writes Arabic numbers in Arabic-Indic digits; a till set to Latin digits reads them so.
  return language === 'ar' && wording.digits === 'latn'
    ? text.replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x660))
    : text;
}
