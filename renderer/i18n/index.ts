/**
 * The interface's words: one vue-i18n instance (Composition API mode) for the views
 * (`useI18n()`, `$t`) and for the stores and lib modules (`t` below), so that every word the
 * app shows comes from the catalogues in `messages/`.
 *
 * The locale is global and reactive: a computed that calls `t` re-runs when the language
 * changes, which is how the interface switches without a restart.
 */
import { createI18n } from 'vue-i18n';
import { INTERFACE_LANGUAGES, type InterfaceLanguage } from '../../common/settings-choices';
import { ar } from './messages/ar';
import { en, type MessageSchema } from './messages/en';
import { BASE_LANGUAGE } from './languages';
import { pluralRuleFor } from './plural-rules';

export const CATALOGUES: Record<InterfaceLanguage, MessageSchema> = { en, ar };

/** Dotted paths to every message: `errors.offline.title`. */
type PathsOf<T> = {
  [K in keyof T & string]: T[K] extends string ? K : `${K}.${PathsOf<T[K]>}`;
}[keyof T & string];

export type MessageKey = PathsOf<MessageSchema>;

export type MessageParams = Record<string, string | number>;

export const i18n = createI18n<[MessageSchema], InterfaceLanguage, false>({
  legacy: false,
  locale: BASE_LANGUAGE,
  fallbackLocale: BASE_LANGUAGE,
  messages: CATALOGUES,
  pluralRules: Object.fromEntries(INTERFACE_LANGUAGES.map((language) => [language, pluralRuleFor(language)])),
  // A missing key is a bug the catalogue check catches; at run time English stands in, silently.
  missingWarn: false,
  fallbackWarn: false,
});

/** A message in the interface language. */
export function t(key: MessageKey, params: MessageParams = {}): string {
  return i18n.global.t(key, params);
}

/** A plural message: the form for `count`, with `params` (which should carry the formatted count). */
export function tPlural(key: MessageKey, count: number, params: MessageParams): string {
  return i18n.global.t(key, params, count);
}

export function currentLanguage(): InterfaceLanguage {
  return i18n.global.locale.value;
}
