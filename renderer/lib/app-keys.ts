/**
 * The till's keys, each command once: its key, when it applies, and what the shortcut bar says
 * of it. One table for the whole app, as VS Code keeps commands and keybindings in one registry
 * with `when` clauses: the keyboard (stores/app-keys.ts, the one keydown listener of the page's
 * app keys) and the bar (components/ShortcutBar.vue) read it, and a test finds two commands on
 * one key at once (test/renderer/lib/app-keys.test.ts). What each command does is the store's
 * (stores/app-keys.ts); this module is data and pure functions.
 *
 * Function keys, because a scanner never sends them and they work while a field has focus
 * without taking a character from it; Esc for back.
 */
import type { MessageKey } from '../i18n';
import type { ScreenName } from './screens';

/** What a key's meaning depends on, read from the stores at the moment it is pressed. */
export interface KeyContext {
  screen: ScreenName;
  /** The first run: nothing but Settings until the till is set up. */
  firstRun: boolean;
  /** The manager PIN's dialog is open: the keys are its own. */
  pinAsking: boolean;
  /** A POS link waits for the cashier's yes (F6) or no (Esc); `linkNotice`: one is said on screen. */
  linkHeld: boolean;
  linkNotice: boolean;
  /** The till has a service (or the demo). */
  configured: boolean;
  /** The reward screen shows an outcome (redeemed or queued): Esc, like Enter, is the next customer. */
  outcomeShown: boolean;
  /** The reward screen asks whether to redeem while a till of the shop is out of reach. */
  splitQuestion: boolean;
  /** A customer display is attached (its blanking key is offered in the bar). */
  displayAttached: boolean;
}

export type CommandId =
  | 'acceptLink'
  | 'pickCashier'
  | 'askAtOtherTill'
  | 'redeemAnyway'
  | 'nextCustomer'
  | 'dismissLink'
  | 'back'
  | 'correctDetails'
  | 'find'
  | 'checkReward'
  | 'report'
  | 'outbox'
  | 'settings'
  | 'blankDisplay';

export interface AppKey {
  id: CommandId;
  /** `KeyboardEvent.key`, and the key cap the bar prints. */
  key: string;
  when(context: KeyContext): boolean;
  /** In the shortcut bar: what it does, shown where `showIn` says (where it applies, by default). */
  bar?: {
    does: MessageKey;
    /** On wide screens only: the header offers it too, or it is seldom the next step. */
    wide?: boolean;
    /** A button a finger can press, for a till with a touch screen and no keyboard. */
    button?: boolean;
    showIn?(context: KeyContext): boolean;
  };
}

const ESCAPE = 'Escape';
const settled = (c: KeyContext) => !c.pinAsking && !c.firstRun;
/** The reward screen's own Esc (its question, its outcome) comes before a link's and back. */
const rewardOwnsEscape = (c: KeyContext) => c.screen === 'reward' && (c.splitQuestion || c.outcomeShown);
const linkShown = (c: KeyContext) => c.linkHeld || c.linkNotice;

/** In the order the bar shows them. */
export const APP_KEYS: readonly AppKey[] = [
  { id: 'acceptLink', key: 'F6', when: (c) => !c.pinAsking && c.linkHeld },
  // The header's picker shows F6 (CashierPicker.vue): not repeated in the bar.
  { id: 'pickCashier', key: 'F6', when: (c) => settled(c) && c.configured && !c.linkHeld },
  {
    id: 'correctDetails',
    key: 'F4',
    when: (c) => settled(c) && c.screen === 'customer',
    bar: { does: 'shortcuts.correctDetails' },
  },
  {
    id: 'redeemAnyway',
    key: 'F5',
    when: (c) => !c.pinAsking && c.screen === 'reward' && c.splitQuestion,
  },
  { id: 'askAtOtherTill', key: ESCAPE, when: (c) => !c.pinAsking && c.screen === 'reward' && c.splitQuestion },
  {
    id: 'nextCustomer',
    key: ESCAPE,
    when: (c) => !c.pinAsking && c.screen === 'reward' && c.outcomeShown && !c.splitQuestion,
    bar: { does: 'shortcuts.nextCustomer', button: true },
  },
  { id: 'dismissLink', key: ESCAPE, when: (c) => !c.pinAsking && linkShown(c) && !rewardOwnsEscape(c) },
  {
    id: 'back',
    key: ESCAPE,
    when: (c) => settled(c) && !linkShown(c) && !rewardOwnsEscape(c),
    // Find is where Esc leads: not offered there.
    bar: {
      does: 'shortcuts.back',
      button: true,
      showIn: (c) => settled(c) && c.screen !== 'find' && !rewardOwnsEscape(c),
    },
  },
  {
    id: 'blankDisplay',
    key: 'F10',
    when: (c) => !c.pinAsking && c.configured,
    bar: {
      does: 'customerDisplay.blankKey',
      wide: true,
      button: true,
      showIn: (c) => !c.firstRun && c.displayAttached,
    },
  },
  // Narrow, Esc leads back to Find as well: F2 is for wide screens.
  {
    id: 'find',
    key: 'F2',
    when: settled,
    bar: { does: 'shortcuts.findCustomer', wide: true, button: true, showIn: (c) => settled(c) && c.screen !== 'find' },
  },
  {
    id: 'checkReward',
    key: 'F3',
    when: settled,
    bar: { does: 'shortcuts.checkReward', button: true, showIn: (c) => settled(c) && c.screen !== 'reward' },
  },
  // The report and Settings have no other way in on a touch screen: in the bar at every width.
  {
    id: 'report',
    key: 'F7',
    when: settled,
    bar: { does: 'shortcuts.report', button: true, showIn: (c) => settled(c) && c.screen !== 'report' },
  },
  // F8 is the header's Outbox button (it shows the key): not repeated in the bar.
  { id: 'outbox', key: 'F8', when: settled },
  {
    id: 'settings',
    key: 'F9',
    when: (c) => !c.pinAsking,
    bar: { does: 'shortcuts.settings', button: true, showIn: (c) => settled(c) && c.screen !== 'settings' },
  },
];

/** The command a key runs in this context; null when it does nothing here. */
export function commandFor(key: string, context: KeyContext): AppKey | null {
  return APP_KEYS.find((command) => command.key === key && command.when(context)) ?? null;
}

/**
 * What the shortcut bar offers in this context, in its order. While the manager PIN is asked the
 * bar is inert, and shows what the keys will do once the dialog is gone.
 */
export function barKeys(context: KeyContext): AppKey[] {
  const shown = { ...context, pinAsking: false };
  return APP_KEYS.filter((command) => command.bar && (command.bar.showIn ?? command.when)(shown));
}

/** How a key is printed on its cap (`Escape` is "Esc"). */
export function keyCap(key: string): string {
  return key === ESCAPE ? 'Esc' : key;
}

/** The key a command is on (for words that name it: "press F6"). */
export function keyOf(id: CommandId): string {
  const command = APP_KEYS.find((entry) => entry.id === id);
  if (!command) throw new Error(`No key for ${id}.`);
  return command.key;
}
