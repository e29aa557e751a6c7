import { INTERFACE_LANGUAGES, type InterfaceLanguage } from '../../common/settings-choices';

/** The language everything falls back to, and the reference catalogue. */
export const BASE_LANGUAGE: InterfaceLanguage = 'en';

/**
 * Each language named in itself, as language pickers do: a cashier who cannot read the
 * current interface still finds their own language. Not translated, by design.
 */
export const LANGUAGE_NAMES: Record<InterfaceLanguage, string> = { en: 'English', ar: 'العربية' };

const RIGHT_TO_LEFT = new Set<string>(['ar']);

export function isInterfaceLanguage(value: unknown): value is InterfaceLanguage {
  return typeof value === 'string' && (INTERFACE_LANGUAGES as readonly string[]).includes(value);
}

/**
 * The interface language: the one chosen in Settings, else the first of the OS's preferred
 * languages that the till ships (`ar-SA` -> `ar`, `en-US` -> `en`), else English.
 */
export function resolveLanguage(chosen: string | null | undefined, preferred: readonly string[]): InterfaceLanguage {
  if (isInterfaceLanguage(chosen)) return chosen;
  for (const tag of preferred) {
    let language: string;
    try {
      language = new Intl.Locale(tag).language;
    } catch {
      continue;
    }
    if (isInterfaceLanguage(language)) return language;
  }
  return BASE_LANGUAGE;
}

export function directionOf(language: string): 'rtl' | 'ltr' {
  return RIGHT_TO_LEFT.has(language) ? 'rtl' : 'ltr';
}
