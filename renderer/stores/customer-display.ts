import { defineStore } from 'pinia';
import { computed, ref, watch } from 'vue';
import type { DisplayScreen, LinkMessage, SettingsPatch } from '../../common/contract';
import type { DisplayModel } from '../../common/display-model';
import { t } from '../i18n';
import { displayView } from '../lib/display-model';
import { readPhone } from '../../common/phone';
import { useCustomersStore } from './customers';
import { useNavigationStore } from './navigation';
import { useRewardsStore } from './rewards';
import { useSettingsStore } from './settings';
import { till } from './till';

/** The key that blanks the customer display and brings it back (shown in the shortcut bar). */
export const BLANK_DISPLAY_KEY = 'F10';

/**
 * The till's side of the customer display: the sanitised model of what the till is doing,
 * sent to the main process on every change (which pushes it to the display's window), the
 * cashier's key that blanks the display, and the phone a customer typed on it, looked up as if
 * the cashier had typed it.
 */
export const useCustomerDisplayStore = defineStore('customerDisplay', () => {
  const settings = useSettingsStore();
  const navigation = useNavigationStore();
  const customers = useCustomersStore();
  const rewards = useRewardsStore();

  const blanked = ref(false);
  const lookingUp = ref(false);
  const notFound = ref(false);
  /** "Entered by the customer", while the customer they opened is on the till's screen. */
  const enteredByCustomer = ref<string | null>(null);
  /** How many displays heard the last model (0: none attached). */
  const attached = ref(0);
  /** The name of this till's programme, learnt from the cards of customers opened. */
  const programmeName = ref<string | null>(null);
  let revision = 0;
  /** The screens a display window can open on (Electron); none in the browser shell. */
  const screens = ref<DisplayScreen[]>([]);
  /** Field errors of the last save of the display's settings. */
  const fieldErrors = ref<Record<string, string>>({});

  async function loadScreens(): Promise<void> {
    const result = await till().listScreens();
    screens.value = result.ok ? result.data : [];
  }

  /** Saves the display's settings on their own (Settings' "Customer display" group). */
  async function saveSettings(
    patch: Pick<SettingsPatch, 'customerDisplayId' | 'displayIdleSeconds'>,
  ): Promise<boolean> {
    const result = await till().updateSettings(patch);
    fieldErrors.value = result.ok ? {} : (result.error.fields ?? { customerDisplayId: result.error.message });
    if (result.ok) await settings.load();
    return result.ok;
  }

  watch(
    () => navigation.screen.name,
    (name) => {
      if (name !== 'register') notFound.value = false;
      if (name !== 'customer' && name !== 'reward') enteredByCustomer.value = null;
    },
  );
  watch(
    () => customers.current,
    (customer) => {
      const mine = customer?.cards.find((card) => card.program.id === settings.programId);
      if (mine) programmeName.value = mine.program.name;
    },
  );

  const asOf = computed(() => {
    const screen = navigation.screen.name;
    if (screen === 'reward' && rewards.offlineCheck) return rewards.offlineCheck.cachedAt;
    if ((screen === 'customer' || screen === 'reward') && customers.origin?.source === 'cache')
      return customers.origin.cachedAt;
    return null;
  });

  /** Whether a redemption was refused, and whether because the reward was already used. */
  const refusal = computed<'used' | 'other' | null>(() => {
    const usedElsewhere = rewards.claimedElsewhere !== null;
    const queuedHere = rewards.refusedNote !== null && rewards.pendingHere;
    const usedAtService = rewards.unavailableNote !== null && !!rewards.reward?.redeemed_at;
    if (usedElsewhere || queuedHere || usedAtService) return 'used';
    return rewards.refusedNote !== null || rewards.unavailableNote !== null ? 'other' : null;
  });

  const view = computed(() =>
    displayView({
      screen: navigation.screen.name,
      blanked: blanked.value,
      lookingUp: lookingUp.value,
      notFound: notFound.value,
      customer: customers.current,
      tillProgramId: settings.programId,
      reward: {
        checked: rewards.reward ?? rewards.offlineCheck?.reward ?? null,
        offlineVerdict: rewards.offlineCheck?.verdict ?? null,
        redemption: rewards.redemption,
        queued: rewards.queued !== null,
        refused: refusal.value,
        customer: rewards.forCustomer,
      },
      now: new Date(),
    }),
  );

  const model = computed<Omit<DisplayModel, 'revision'>>(() => {
    const current = view.value;
    const live = current.kind === 'idle' || current.kind === 'blank' || current.kind === 'looking-up';
    return {
      view: current,
      programme: programmeName.value,
      asOf: live ? null : asOf.value,
      language: settings.interfaceLanguage,
      digits: settings.arabicDigits,
      theme: settings.theme,
      idleSeconds: settings.settings?.displayIdleSeconds ?? 30,
    };
  });

  async function push(next: Omit<DisplayModel, 'revision'>): Promise<void> {
    if (!settings.isConfigured) return;
    revision += 1;
    const result = await till().showOnDisplay({ ...next, revision });
    if (result.ok) attached.value = result.data.displays;
  }

  function toggleBlank(): void {
    blanked.value = !blanked.value;
  }

  /** A phone the customer typed on the display: looked up as the cashier's own search would. */
  async function receive(message: LinkMessage): Promise<void> {
    if (message?.kind !== 'customer-entry' || !settings.isConfigured) return;
    // A cashier in the middle of a form or a redemption is not interrupted by the queue; one
    // who just pressed a key may be, since the customer at the counter is the one they serve.
    if (inTheMiddleOfSomething()) return;
    const phone = readPhone(message.digits, settings.defaultCountry);
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

  function inTheMiddleOfSomething(): boolean {
    const screen = navigation.screen.name;
    if (screen === 'register' || screen === 'correct' || screen === 'settings' || screen === 'report') return true;
    return screen === 'reward' && (rewards.checking || rewards.redeeming || rewards.canRedeem);
  }

  let stopPushing: (() => void) | null = null;
  let unsubscribe: (() => void) | null = null;

  function onKeyDown(event: KeyboardEvent): void {
    // The till's own key handling (App.vue's `press`, which a tap on the bar also uses) may have
    // blanked it already: one press, one toggle.
    if (event.defaultPrevented || event.key !== BLANK_DISPLAY_KEY || !settings.isConfigured) return;
    event.preventDefault();
    toggleBlank();
  }

  function start(): void {
    if (stopPushing) return;
    stopPushing = watch(model, (next) => void push(next), { immediate: true });
    unsubscribe = till().onLinkMessage((message) => void receive(message));
    window.addEventListener('keydown', onKeyDown);
  }

  function stop(): void {
    stopPushing?.();
    unsubscribe?.();
    stopPushing = unsubscribe = null;
    window.removeEventListener('keydown', onKeyDown);
  }

  return {
    blanked,
    lookingUp,
    notFound,
    enteredByCustomer,
    attached,
    view,
    model,
    screens,
    fieldErrors,
    loadScreens,
    saveSettings,
    toggleBlank,
    receive,
    start,
    stop,
  };
});
