/**
 * The customer display: what the till shows the customer across the counter, and the few
 * operations of the display's own page (`window.tillDisplay`).
 *
 * The model is sanitised by construction: it has no field for a phone number, an email, a
 * birthday, a reward code, an id, an order reference or a note, and the main process refuses
 * any model with a field it does not know (electron/display/display-model-schema.ts). It carries
 * data, not words: the display words it in the language the customer chose on it.
 */
import type { ArabicDigits, InterfaceLanguage, Theme } from './settings-choices';

/** One card's points, by programme: this till's programme first. */
export interface DisplayCard {
  programme: string;
  points: number;
}

/** A reward as the customer sees it: its name and what it gives, never its code. */
export interface DisplayReward {
  name: string;
  description: string | null;
  /**
   * What the customer is handed: how many items, chosen from how many products (the service
   * lists products by id, which the display never shows); null where the service did not say.
   */
  products: { quantity: number; choices: number } | null;
  /** The day it expires (YYYY-MM-DD, the till's calendar), or null. */
  expiresOn: string | null;
  /** It expires within the next seven days. */
  expiresThisWeek: boolean;
}

/** Points before and after a points reward: "130 points left, −50". */
export interface DisplayPoints {
  before: number;
  after: number;
  cost: number;
}

export type DisplayView =
  | { kind: 'idle' }
  | { kind: 'blank' }
  /** First name and last initial only ("Sara A."). */
  | { kind: 'customer'; name: string; cards: DisplayCard[]; rewards: DisplayReward[] }
  /** A phone typed on the display matched nobody: the cashier can sign them up. */
  | { kind: 'not-found' }
  /** The customer's phone is being looked up. */
  | { kind: 'looking-up' }
  | {
      kind: 'check';
      reward: DisplayReward;
      /** `available-offline`: by the till's cache, redeemed when the till reconnects. */
      verdict: 'available' | 'available-offline' | 'used' | 'expired' | 'unavailable';
    }
  | { kind: 'redeemed'; reward: DisplayReward; points: DisplayPoints | null; queued: boolean }
  /** The shop (another till, or the service) says the reward was already used. */
  | { kind: 'refused'; reward: DisplayReward };

export type DisplayViewKind = DisplayView['kind'];

export interface DisplayModel {
  view: DisplayView;
  /** The name of this till's programme, for the idle screen; null when none is chosen. */
  programme: string | null;
  /** From the till's cache while offline: the time the cache was filled (ISO); null when live. */
  asOf: string | null;
  /** The till's language: the display starts in it until the customer picks another. */
  language: InterfaceLanguage;
  digits: ArabicDigits;
  theme: Theme;
  /** Seconds without activity after which the display clears itself back to idle. */
  idleSeconds: number;
  /** Rises with every model the till sends, so a display can tell a new state from a repeat. */
  revision: number;
}

/** How the till hears that the customer typed their phone on the display. */
export interface DisplayPhoneEntry {
  /** Digits only, as typed on the display's keypad (a local or international number). */
  digits: string;
}

/**
 * A phone a customer typed on the display, as the main process hands it to the till's page on a
 * push channel of its own (`PAGE_PUSH_CHANNELS.customerEntry`); never stored or logged.
 */
export interface CustomerPhoneEntry extends DisplayPhoneEntry {
  /** When the main process took it, on the till's clock. */
  receivedAt: string;
}

/**
 * The answer to a keypad entry: taken, or refused: `wait` for the rate limit (with the seconds
 * to wait), `invalid` for something that is not 4-15 digits, `no_till` when the till's page is
 * not listening, `forbidden_sender` for a page that is not the display's.
 */
export type DisplayEntryReceipt =
  | { accepted: true }
  | { accepted: false; reason: 'wait' | 'invalid' | 'no_till' | 'forbidden_sender'; waitSeconds: number };

/** The display page's operations, and nothing else: no `window.till`. */
export interface TillDisplayApi {
  /** The model on show now (a display that just opened, or reloaded). */
  currentModel(): Promise<DisplayModel | null>;
  /** Calls `listener` with every model the till pushes; returns the unsubscribe. */
  onModel(listener: (model: DisplayModel) => void): () => void;
  /** The customer typed their phone number on the display's keypad. */
  enterPhone(entry: DisplayPhoneEntry): Promise<DisplayEntryReceipt>;
}

/**
 * Where the display's page is among the renderer's files. It is served on an origin of its own
 * (`app://display` in Electron, a listener of its own in the browser shell), never the till's,
 * so it shares no storage, socket or file with the till's page (docs/security.md).
 */
export const DISPLAY_PAGE_FILE = '/display.html';

/** The display's channels, apart from the till's: neither page's bridge reaches the other's. */
export const DISPLAY_CHANNELS = {
  currentModel: 'display:model:current',
  enterPhone: 'display:phone:enter',
} as const;

export type DisplayChannel = (typeof DISPLAY_CHANNELS)[keyof typeof DISPLAY_CHANNELS];

/** The one message pushed to the display page: the till's new model. */
export const DISPLAY_PUSH_CHANNEL = 'display:push:model';

/** Entries a minute the keypad accepts (against trying numbers one after another). */
export const DISPLAY_ENTRIES_PER_MINUTE = 5;

/** Longest number the keypad takes: 15 digits is E.164's limit. */
export const DISPLAY_PHONE_MAX_DIGITS = 15;

/** The display's transport: invoke one of its channels, listen to its one push. */
export interface DisplayTransport {
  invoke(channel: DisplayChannel, payload?: unknown): Promise<unknown>;
  onModelPush(listener: (payload: unknown) => void): () => void;
}

/** `window.tillDisplay` as both shells build it (the display preload, the browser shell's display bridge). */
export function createTillDisplayApi(transport: DisplayTransport): TillDisplayApi {
  return Object.freeze({
    currentModel: () => transport.invoke(DISPLAY_CHANNELS.currentModel) as Promise<DisplayModel | null>,
    onModel: (listener: (model: DisplayModel) => void) =>
      transport.onModelPush((payload) => listener(payload as DisplayModel)),
    enterPhone: (entry: DisplayPhoneEntry) =>
      transport.invoke(DISPLAY_CHANNELS.enterPhone, entry) as Promise<DisplayEntryReceipt>,
  });
}
