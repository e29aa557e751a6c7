import { ref, watch, type Ref } from 'vue';
import type { CustomerPhoneEntry } from '../../../common/display-model';
import { readPhone } from '../../../common/phone';
import { t } from '../../i18n';
import { useCustomersStore } from '../customers';
import { useNavigationStore } from '../navigation';
import { useCashierAtWork } from '../cashier-at-work';
import { useSettingsStore } from '../settings';

/**
 * The phone a customer typed on the display, looked up as if the cashier had typed it: the
 * customer opened, or the register form offered with the number, and the till's screen saying
 * who entered it. `blanked` is the display's blank, which a customer's entry lifts.
 */
export function useCustomerEntry(blanked: Ref<boolean>) {
  const settings = useSettingsStore();
  const navigation = useNavigationStore();
  const customers = useCustomersStore();
  const atWork = useCashierAtWork();

  const lookingUp = ref(false);
  const notFound = ref(false);
  /** "Entered by the customer", while the customer they opened is on the till's screen. */
  const enteredByCustomer = ref<string | null>(null);

  watch(
    () => navigation.screen.name,
    (name) => {
      if (name !== 'register') notFound.value = false;
      if (name !== 'customer' && name !== 'reward') enteredByCustomer.value = null;
    },
  );

  /** A phone the customer typed on the display: looked up as the cashier's own search would. */
  async function receive(entry: CustomerPhoneEntry): Promise<void> {
    if (typeof entry?.digits !== 'string' || !settings.isConfigured) return;
    // A cashier in the middle of a form or a redemption is not interrupted by the queue; one
    // who just pressed a key may be, since the customer at the counter is the one they serve.
    if (atWork()) return;
    const phone = readPhone(entry.digits, settings.defaultCountry);
    navigation.home();
    blanked.value = false;
    if (!phone) {
      notFound.value = false;
      return;
    }
    lookingUp.value = true;
    try {
      const outcome = await customers.openByPhone(phone);
      if (outcome === 'opened') {
        navigation.go({ name: 'customer' });
        enteredByCustomer.value = t('customerDisplay.enteredByCustomer');
      } else if (outcome === 'none') {
        customers.startRegister(phone.international);
        navigation.go({ name: 'register' });
        notFound.value = true;
        enteredByCustomer.value = t('customerDisplay.enteredByCustomer');
      }
    } finally {
      lookingUp.value = false;
    }
  }

  return { lookingUp, notFound, enteredByCustomer, receive };
}
