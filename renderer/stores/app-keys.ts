import { defineStore } from 'pinia';
import { computed } from 'vue';
import { APP_KEYS, barKeys, commandFor, type AppKey, type CommandId, type KeyContext } from '../lib/app-keys';
import { useCashierStore } from './cashier';
import { useCustomerDisplayStore } from './customer-display';
import { useCustomersStore } from './customers';
import { useLinksStore } from './links';
import { useManagerPinStore } from './manager-pin';
import { useNavigationStore } from './navigation';
import { useRewardsStore } from './rewards';
import { useScansStore } from './scans';
import { useSettingsStore } from './settings';

/**
 * What each of the till's keys does (lib/app-keys.ts says which key, when, and what the bar
 * says): the context read from the stores, a handler a command, and the page's one keydown
 * listener for app keys. Pressed on the keyboard or tapped in the shortcut bar, a key does the
 * same. A view that wants a key adds a command there, not a listener of its own
 * (test/renderer/lib/app-keys.test.ts finds one).
 */
export const useAppKeysStore = defineStore('appKeys', () => {
  const navigation = useNavigationStore();
  const settings = useSettingsStore();
  const customers = useCustomersStore();
  const rewards = useRewardsStore();
  const scans = useScansStore();
  const links = useLinksStore();
  const managerPin = useManagerPinStore();
  const cashier = useCashierStore();
  const customerDisplay = useCustomerDisplayStore();

  const context = computed<KeyContext>(() => {
    const screen = navigation.screen;
    return {
      screen: screen.name,
      firstRun: screen.name === 'settings' && screen.firstRun === true,
      pinAsking: managerPin.asking !== null,
      linkHeld: links.held !== null,
      linkNotice: links.notice !== null,
      configured: settings.isConfigured,
      outcomeShown: rewards.redemption !== null || rewards.queued !== null,
      splitQuestion: rewards.splitQuestion !== null,
      displayAttached: customerDisplay.attached > 0,
    };
  });

  /** Once the till is set up, Settings (the key, offline redemption) opens with the manager PIN. */
  async function openSettings(): Promise<void> {
    const { firstRun, screen } = context.value;
    if (firstRun || screen === 'settings' || (await managerPin.ask('openSettings')))
      navigation.go({ name: 'settings', firstRun });
  }

  const run: Record<CommandId, () => void> = {
    acceptLink: () => links.accept(),
    pickCashier: () => cashier.askToPick(),
    correctDetails: () => {
      customers.startCorrect();
      navigation.go({ name: 'correct' });
    },
    redeemAnyway: () => void rewards.redeem({ anyway: true }),
    askAtOtherTill: () => rewards.askAtTheOtherTill(),
    nextCustomer: () => {
      rewards.start();
      customers.clearSearch();
      navigation.home();
    },
    dismissLink: () => links.dismiss(),
    back: () => {
      scans.dismiss();
      navigation.back();
    },
    // What a display opened since the till last sent its model shows is sent with the next: the key makes one.
    blankDisplay: () => customerDisplay.toggleBlank(),
    find: () => navigation.home(),
    checkReward: () => {
      rewards.start('', context.value.screen === 'customer' ? customers.current : null);
      navigation.go({ name: 'reward' });
    },
    report: () => navigation.go({ name: 'report' }),
    outbox: () => navigation.go({ name: 'outbox' }),
    settings: () => void openSettings(),
  };

  /** A key pressed or tapped: true when it did something. */
  function press(key: string): boolean {
    const command = commandFor(key, context.value);
    if (!command) return false;
    run[command.id]();
    return true;
  }

  function onKeyDown(event: KeyboardEvent): void {
    // Every key counts as typing: a link arriving now waits behind its notice.
    links.noteKey(event.timeStamp);
    if (event.defaultPrevented || event.ctrlKey || event.altKey || event.metaKey) return;
    if (press(event.key)) event.preventDefault();
  }

  /** The page's one listener of app keys (App.vue installs it); returns what removes it. */
  function listen(target: Pick<Window, 'addEventListener' | 'removeEventListener'>): () => void {
    target.addEventListener('keydown', onKeyDown);
    return () => target.removeEventListener('keydown', onKeyDown);
  }

  /** What the shortcut bar offers now. */
  const bar = computed<AppKey[]>(() => barKeys(context.value));

  /** A command run from a screen's own button (Next customer, Redeem anyway): the key's very handler. */
  function runCommand(id: CommandId): void {
    run[id]();
  }

  return { context, press, runCommand, listen, bar, commands: APP_KEYS };
});
