/**
 * Why the cache refresh stopped, in words for the Settings screen. The refresh keeps a
 * reason (vocabulary/refresh.ts `RefreshStop`), never words, and the words come from the
 * catalogues (`settingsView.refresh.*`) in the interface language of the moment: call it
 * from a computed or a render, and a language switch re-words it.
 *
 * What others said is passed on as they said it, isolated: the bridge's message (the till's
 * own words, made in the interface language of the call, or the service's message) and the
 * storage's message when the cache could not store.
 */
import { t } from '../i18n';
import { isolate } from '../i18n/isolate';
import type { RefreshStop } from '../vocabulary/refresh';

export function refreshStopWords(stop: RefreshStop): string {
  switch (stop.reason) {
    case 'stopped':
      return t('settingsView.refresh.stopped');
    case 'not_stored':
      return t('settingsView.refresh.notStored', { detail: isolate(stop.detail) });
    case 'not_modified_unasked':
      return t('settingsView.refresh.notModifiedUnasked');
    case 'call_failed':
      return isolate(stop.message);
  }
}
