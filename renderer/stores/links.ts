import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { LinkMessage } from '../../common/contract';
import { t } from '../i18n';
import { keyOf } from '../lib/app-keys';
import { useLinkOpening, type HeldLink } from './links/open-link';
import { useCashierAtWork } from './cashier-at-work';
import { useSettingsStore } from './settings';
import { till } from './till';

export type { HeldLink } from './links/open-link';

/** A link that arrived while the cashier was typing: within this long of their last key. */
export const TYPING_PAUSE_MS = 4000;

/** The key that opens a link held behind its notice (a function key: no scanner sends one). */
export const ACCEPT_LINK_KEY = keyOf('acceptLink');

/**
 * Links from the POS (`loyalty-till://…`), as the main process hands them over, already
 * validated. A link only fills in and navigates; what happens next is the cashier's key
 * press. A link that arrives while the cashier is busy does not take over the screen: it
 * waits behind a notice until the cashier accepts it with one key.
 */
export const useLinksStore = defineStore('links', () => {
  const settings = useSettingsStore();
  const atWork = useCashierAtWork();

  /** Waiting for the cashier's key; a newer link replaces it. */
  const held = ref<HeldLink | null>(null);
  /** A quiet line about a link that was refused or could not be opened. */
  const notice = ref<string | null>(null);
  const { opened, open } = useLinkOpening(notice);

  let lastKeyAt = Number.NEGATIVE_INFINITY;
  let unsubscribe: (() => void) | null = null;

  /** The page records each key the cashier presses, so a link can tell it would interrupt. */
  function noteKey(at = performance.now()): void {
    lastKeyAt = at;
  }

  /** Typing, or in the middle of something (cashier-at-work.ts): a link waits behind its notice. */
  function cashierBusy(now = performance.now()): boolean {
    return now - lastKeyAt < TYPING_PAUSE_MS || atWork();
  }

  function receive(message: LinkMessage): void {
    if (!message || typeof message !== 'object') return;
    if (message.kind === 'refused') {
      notice.value = message.reason;
      return;
    }
    if (message.kind !== 'request') return;
    notice.value = null;
    // Until the till is set up there is nothing to open; the link is not kept for later.
    if (!settings.isConfigured) {
      notice.value = t('links.notSetUp');
      return;
    }
    const link = { id: message.id, request: message.request };
    if (cashierBusy()) held.value = link;
    else void open(link);
  }

  function accept(): boolean {
    const link = held.value;
    if (!link) return false;
    held.value = null;
    void open(link);
    return true;
  }

  function dismiss(): void {
    held.value = null;
    notice.value = null;
  }

  /** Subscribes to pushed links, then takes any that arrived before the page listened. */
  async function listen(): Promise<void> {
    if (unsubscribe) return;
    unsubscribe = till().onLinkMessage(receive);
    const waiting = await till().takeLinkMessages();
    if (waiting.ok) for (const message of waiting.data) receive(message);
  }

  function stop(): void {
    unsubscribe?.();
    unsubscribe = null;
  }

  return { held, notice, opened, noteKey, cashierBusy, receive, accept, dismiss, listen, stop };
});
