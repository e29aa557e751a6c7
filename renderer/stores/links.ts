import { defineStore } from 'pinia';
import { ref, watch } from 'vue';
import type { LinkMessage, LinkRequest } from '../../common/contract';
import { t } from '../i18n';
import { isolate, ltr } from '../i18n/isolate';
import { readPhone } from '../../common/phone';
import { useCashierStore } from './cashier';
import { useCustomersStore } from './customers';
import { useNavigationStore } from './navigation';
import { useRewardsStore } from './rewards';
import { useSettingsStore } from './settings';
import { till } from './till';

/** A link that arrived while the cashier was typing: within this long of their last key. */
export const TYPING_PAUSE_MS = 4000;

/** The key that opens a link held behind its notice (a function key: no scanner sends one). */
export const ACCEPT_LINK_KEY = 'F6';

export interface HeldLink {
  id: string;
  request: LinkRequest;
}

/**
 * Links from the POS (`loyalty-till://…`), as the main process hands them over, already
 * validated. A link only fills in and navigates; what happens next is the cashier's key
 * press. A link that arrives while the cashier is busy does not take over the screen: it
 * waits behind a notice until the cashier accepts it with one key.
 */
export const useLinksStore = defineStore('links', () => {
  const navigation = useNavigationStore();
  const settings = useSettingsStore();
  const customers = useCustomersStore();
  const rewards = useRewardsStore();
  const cashier = useCashierStore();

  /** Waiting for the cashier's key; a newer link replaces it. */
  const held = ref<HeldLink | null>(null);
  /** A quiet line about a link that was refused or could not be opened. */
  const notice = ref<string | null>(null);
  /** The screen opened by a link, for "opened from a link" while it is on screen. */
  const opened = ref<{
    id: string;
    screen: string;
    words: string;
    /** The cashier the link named, as the header now shows them; `listed`: on Settings' list. */
    cashier: { label: string; listed: boolean } | null;
  } | null>(null);

  // Leaving the screen a link opened ends its "opened from a link" line.
  watch(
    () => navigation.screen.name,
    (name) => {
      if (opened.value && opened.value.screen !== name) opened.value = null;
    },
  );

  let lastKeyAt = Number.NEGATIVE_INFINITY;
  let unsubscribe: (() => void) | null = null;

  /** The page records each key the cashier presses, so a link can tell it would interrupt. */
  function noteKey(at = performance.now()): void {
    lastKeyAt = at;
  }

  function cashierBusy(now = performance.now()): boolean {
    if (now - lastKeyAt < TYPING_PAUSE_MS) return true;
    const screen = navigation.screen.name;
    // Half-filled forms and a reward in the middle of being checked or redeemed stay put.
    if (screen === 'register' || screen === 'correct' || screen === 'settings') return true;
    if (screen === 'reward' && (rewards.checking || rewards.redeeming || rewards.canRedeem)) return true;
    return false;
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

  async function open(link: HeldLink): Promise<void> {
    const { request } = link;
    // The POS says who is at it: the work this link leads to is theirs.
    if (request.cashier) cashier.fromLink(request.cashier);
    const country = ('country' in request && request.country) || settings.defaultCountry;
    const phone = 'phone' in request && request.phone ? readPhone(request.phone, country) : null;
    if ('phone' in request && request.phone && !phone) {
      notice.value = t('links.badPhone', { phone: ltr(request.phone) });
      return;
    }
    switch (request.route) {
      case 'reward': {
        rewards.start(request.code, null);
        if (phone) rewards.draft.phone = phone.international;
        if (request.order) rewards.draft.orderReference = request.order;
        rewards.fromLink = { id: link.id, code: rewards.draft.code };
        navigation.home();
        navigation.go({ name: 'reward' });
        mark(
          link,
          'reward',
          request.order
            ? t('links.rewardForOrder', { code: ltr(rewards.draft.code), order: ltr(request.order) })
            : t('links.reward', { code: ltr(rewards.draft.code) }),
        );
        // Checking changes nothing; redeeming waits for the cashier's key.
        if (phone) void rewards.check();
        return;
      }
      case 'customer': {
        navigation.home();
        const outcome = await customers.openByPhone(phone!);
        if (outcome === 'opened') navigation.go({ name: 'customer' });
        mark(
          link,
          outcome === 'opened' ? 'customer' : 'find',
          t('links.customer', { phone: ltr(phone?.international ?? '') }),
        );
        return;
      }
      case 'register': {
        customers.startRegister(phone?.international ?? '');
        if (request.name) customers.draft.name = request.name;
        navigation.home();
        navigation.go({ name: 'register' });
        mark(link, 'register', t('links.register'));
        return;
      }
      case 'find': {
        navigation.home();
        customers.query = request.q;
        mark(link, 'find', t('links.find', { q: isolate(request.q) }));
        await customers.search(1);
        return;
      }
    }
  }

  /** The screen a link opened, said while it is on show, with the cashier it named (the header changed). */
  function mark(link: HeldLink, screen: string, words: string): void {
    const named = link.request.cashier && cashier.current ? cashier.current : null;
    opened.value = {
      id: link.id,
      screen,
      words,
      cashier: named ? { label: named, listed: cashier.choices.includes(named) } : null,
    };
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
