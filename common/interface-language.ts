import { INTERFACE_LANGUAGES, type InterfaceLanguage } from './settings-choices';

/**
 * Which language the interface speaks. The renderer picks its catalogue with it and the
 * main process words its own messages (field errors, refused links) with it: one function,
 * so the two can never disagree about the language of one screen.
 */

/** The language everything falls back to, and the reference catalogue. */
export const BASE_LANGUAGE: InterfaceLanguage = 'en';

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
