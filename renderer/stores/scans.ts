import { defineStore } from 'pinia';
import { ref } from 'vue';
import { t } from '../i18n';
import { isolate, ltr } from '../i18n/isolate';
import { readScan, type ScanMeaning } from '../lib/scan-route';
import type { ScanContext } from '../lib/scanner';
import { useCustomersStore } from './customers';
import { useNavigationStore } from './navigation';
import { useRewardsStore } from './rewards';
import { useSettingsStore } from './settings';

/**
 * Where a barcode scan goes, from any screen: a reward code opens the reward check (for the
 * customer on screen, if any), a phone number opens its customer. Anything else is left as
 * ordinary typing.
 */
export const useScansStore = defineStore('scans', () => {
  const navigation = useNavigationStore();
  const settings = useSettingsStore();
  const customers = useCustomersStore();
  const rewards = useRewardsStore();

  /** A short line for the cashier about the last scan that was not routed. */
  const message = ref<string | null>(null);

  /** The customer the cashier is looking at right now, if any. */
  function customerOnScreen() {
    const screen = navigation.screen.name;
    if (screen === 'customer' || screen === 'correct') return customers.current;
    if (screen === 'reward') return rewards.forCustomer;
    return null;
  }

  /**
   * The scan listener's handler: the route for a reward code or a phone, or null for
   * anything else (which then stays ordinary typing).
   */
  function handle(text: string, _context: ScanContext): (() => void) | null {
    // Until the till is set up there is nothing to look anything up with.
    if (!settings.isConfigured || navigation.screen.name === 'settings') return null;
    const meaning = readScan(text, settings.defaultCountry);
    message.value = null;

    if (meaning.kind === 'reward') {
      return () => {
        const customer = customerOnScreen();
        rewards.start(meaning.code, customer);
        navigation.go({ name: 'reward' });
        if (customer) void rewards.check();
      };
    }

    if (meaning.kind === 'phone') {
      return () => {
        navigation.home();
        void customers.openByPhone(meaning.phone).then((outcome) => {
          if (outcome === 'opened') navigation.go({ name: 'customer' });
        });
      };
    }

    // A loyalty card: its holder, as a phone opens its customer. Digits that read as a phone
    // are a phone first, and the card's serial when nobody has that phone (lib/scan-route.ts).
    if (meaning.kind === 'card' || meaning.kind === 'phone-or-card') {
      return () => {
        navigation.home();
        void openCard(meaning);
      };
    }

    message.value = t('scans.notRecognised', { text: isolate(text) });
    return null;
  }

  async function openCard(meaning: Extract<ScanMeaning, { kind: 'card' | 'phone-or-card' }>): Promise<void> {
    if (meaning.kind === 'phone-or-card') {
      const byPhone = await customers.openByPhone(meaning.phone);
      if (byPhone === 'opened') return navigation.go({ name: 'customer' });
      if (byPhone !== 'none') return;
    }
    const byCard = await customers.openByCard(meaning.serial);
    if (byCard === 'opened') {
      navigation.go({ name: 'customer' });
      if (meaning.kind === 'phone-or-card')
        message.value = t('customerDisplay.openedAsCard', { serial: ltr(meaning.serial) });
    } else if (byCard === 'none') message.value = t('customerDisplay.noCard', { serial: ltr(meaning.serial) });
    else if (byCard === 'several') message.value = t('customerDisplay.severalCards', { serial: ltr(meaning.serial) });
  }

  function dismiss(): void {
    message.value = null;
  }

  return { message, handle, dismiss };
});
