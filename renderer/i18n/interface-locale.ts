/**
 * Switching the interface language (and Arabic's digits) while the app runs: the
 * catalogues, the formatting module and the document's `lang` and `dir` change together.
 */
import { watchEffect } from 'vue';
import type { Pinia } from 'pinia';
import { useSettingsStore } from '../stores/settings';
import { setFormattingLocale, type InterfaceLocale } from './format';
import { i18n } from './index';
import { directionOf } from './languages';

export function applyInterfaceLocale(next: InterfaceLocale, root: HTMLElement | null): void {
  i18n.global.locale.value = next.language;
  setFormattingLocale(next);
  if (root) {
    root.lang = next.language;
    root.dir = directionOf(next.language);
  }
}

/** Follows the settings store from now on; returns the stopper. */
export function followInterfaceLocale(pinia: Pinia, root: HTMLElement | null): () => void {
  const settings = useSettingsStore(pinia);
  // Synchronous: the language changes in the same tick as the settings, before anything renders with the old one.
  return watchEffect(
    () => applyInterfaceLocale({ language: settings.interfaceLanguage, arabicDigits: settings.arabicDigits }, root),
    { flush: 'sync' },
  );
}
