/**
 * Switching the interface language (and Arabic's digits) while the app runs: the
 * catalogues, the formatting module and the document's `lang` and `dir` change together.
 */
import { watchEffect } from 'vue';
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

/**
 * Follows `locale` (reactive: the settings store's language and digits, read by the caller)
 * from now on; returns the stopper. i18n sits below the stores, so it is told, never asks.
 */
export function followInterfaceLocale(locale: () => InterfaceLocale, root: HTMLElement | null): () => void {
  // Synchronous: the language changes in the same tick as the settings, before anything renders with the old one.
  return watchEffect(() => applyInterfaceLocale(locale(), root), { flush: 'sync' });
}
