import { ref, watch, type Ref } from 'vue';
import type { LinkRequest } from '../../../common/contract';
import { readPhone } from '../../../common/phone';
import { t } from '../../i18n';
import { isolate, ltr } from '../../i18n/isolate';
import { useCashierStore } from '../cashier';
import { useCustomersStore } from '../customers';
import { useNavigationStore } from '../navigation';
import { useRewardsStore } from '../rewards';
import { useSettingsStore } from '../settings';

export interface HeldLink {
  id: string;
  request: LinkRequest;
}

/** The screen a link opened, while it is on screen, in the cashier's words. */
export interface OpenedLink {
  id: string;
  screen: string;
  words: string;
  /** The cashier the link named, as the header now shows them; `listed`: on Settings' list. */
  cashier: { label: string; listed: boolean } | null;
}

/**
 * Opening a link: it fills in and navigates (a reward is checked, never redeemed), and the
 * screen it opened says so while it is on show. A link whose phone cannot be read is not
 * opened; `notice` says why.
 */
export function useLinkOpening(notice: Ref<string | null>) {
  const navigation = useNavigationStore();
  const settings = useSettingsStore();
  const customers = useCustomersStore();
  const rewards = useRewardsStore();
  const cashier = useCashierStore();

  /** The screen opened by a link, for "opened from a link" while it is on screen. */
  const opened = ref<OpenedLink | null>(null);

  // Leaving the screen a link opened ends its "opened from a link" line.
  watch(
    () => navigation.screen.name,
    (name) => {
      if (opened.value && opened.value.screen !== name) opened.value = null;
    },
  );

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

  return { opened, open };
}
