import type { InterfaceLanguage } from '../../common/settings-choices';
import { BASE_LANGUAGE, isInterfaceLanguage, resolveLanguage } from '../../common/interface-language';

// Shared with the main process, which words its own messages in the same language.
export { BASE_LANGUAGE, isInterfaceLanguage, resolveLanguage };

/**
 * Each language named in itself, as language pickers do: a cashier who cannot read the
 * current interface still finds their own language. Not translated, by design.
 */
export const LANGUAGE_NAMES: Record<InterfaceLanguage, string> = { en: 'English', ar: 'العربية' };

const RIGHT_TO_LEFT = new Set<string>(['ar']);

export function directionOf(language: string): 'rtl' | 'ltr' {
  return RIGHT_TO_LEFT.has(language) ? 'rtl' : 'ltr';
}
