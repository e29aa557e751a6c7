/**
 * The till's settings, its key and its connection as the bridge carries them, with what the
 * page reports of itself (its activity, its errors) and the manager PIN's answer. Part of the
 * bridge contract (contract.ts re-exports them).
 */

import type { BridgeError } from './bridge-results';
import type { DataKeyLoss, KeyProtection } from './data-key-contract';
import type { TillForgotten } from './work-copy-contract';
import type { ArabicDigits, InterfaceLanguage, Theme } from './settings-choices';

/** Not secret; kept by the main process in the user-data folder. */
export interface Settings {
  /** https, or http only for 127.0.0.1 / localhost. null until configured. */
  baseUrl: string | null;
  /** ISO 3166-1 alpha-2 country used to read local phone numbers, e.g. `SA`. */
  defaultCountry: string;
  /** The branch this till belongs to (uuid), sent with redemptions. */
  branchId: string | null;
  tillName: string;
  /** When false, a redemption made while offline is refused instead of queued. */
  allowOfflineRedemption: boolean;
  /**
   * The programme (uuid) whose card points this till shows first. The service does not say
   * which programme a key earns on, so the till is told; null shows every card's points.
   */
  programId: string | null;
  /**
   * Where the outcome of a redemption a POS link prepared is POSTed (see docs/pos-integration.md):
   * https, or http only for 127.0.0.1 / localhost. Set here only, never by a link. null: no callback.
   */
  posCallbackUrl: string | null;
  /** Light, dark, or whatever the operating system prefers (`system`). */
  theme: Theme;
  /** ISO 4217 code for amounts such as "spent"; null takes the default country's currency. */
  currency: string | null;
  /** The interface language; null follows the operating system's preferred languages. */
  language: InterfaceLanguage | null;
  /** Digits used for numbers, dates and money when the interface is in Arabic. */
  arabicDigits: ArabicDigits;
  /** When the offline cache is refreshed from the service in full. */
  cacheRefresh: CacheRefreshSchedule;
  /**
   * Whether this till keeps the shop ledger with the other tills of its shop (same service,
   * key, programme and branch; docs/shop-ledger.md): on by default, so that a reward redeemed
   * offline at one till is refused at the others. Off, the till works alone and an offline
   * redemption asks no other till.
   */
  shopLedger: boolean;
  /**
   * When a till of the shop cannot be reached (it may have redeemed the reward), whether an
   * offline redemption still goes ahead, with a warning (true, the default), or is refused.
   */
  shopRedeemWhenSplit: boolean;
  /**
   * Tills of the shop to ask directly, as `host:port` (a name, an IPv4 address or `[IPv6]`),
   * for networks that drop multicast; at most 16. Empty: none named.
   */
  shopPeers: string[];
  /** The TCP port the shop ledger listens on, 1024-65535 (47231 by default). */
  shopLedgerPort: number;
  /**
   * The cashiers a person can choose on the till (no password at the counter): a name, and
   * optionally their number on the POS; at most 50. A POS link may name one (`cashier`).
   */
  cashiers: CashierEntry[];
  /**
   * The customer display (docs/screens.md#the-customer-display): the id of the screen its
   * window opens on (Electron's `Display.id`), or null for none. Never the cashier's screen
   * unless chosen.
   */
  customerDisplayId: number | null;
  /** Seconds without activity after which the customer display clears back to idle (10-600). */
  displayIdleSeconds: number;
  /**
   * Days the journal keeps its entries' personal details (1-3650, 90 by default), then their
   * counts only (docs/privacy.md#the-journal-after-its-days); a policy may lock it.
   */
  journalPersonalDays: number;
}

/** One of the till's cashiers, as Settings lists them. */
export interface CashierEntry {
  name: string;
  /** Their number on the POS (letters, digits, `-`), or null. */
  number: string | null;
}

/**
 * Once a day by default, at a random moment of a night window (02:00-05:00 local), so a
 * fleet of tills does not page the service all at once nor during opening hours.
 */
export interface CacheRefreshSchedule {
  /** Hours between complete refreshes, 1-168; 24 or more refreshes inside the window. */
  everyHours: number;
  /** Local hour (0-23) the window opens. */
  windowFromHour: number;
  /** Local hour (0-23) it closes; before `windowFromHour` means past midnight. */
  windowToHour: number;
}

export type SettingsPatch = Partial<Settings>;

export interface KeyStatus {
  set: boolean;
  /** The last four characters, for "set, ending in 1234". */
  lastFour: string | null;
  protection: KeyProtection;
}

/**
 * What Settings may know of the till's data key (docs/security.md#the-data-key), never the key:
 * whether this start could read the data from before (`lost` when not), how the sealed key is
 * protected, and whether it is kept at all (not on a computer without encryption).
 */
export interface DataKeyStatus {
  state: 'ready' | 'lost';
  /** Why this run's key is a new one, and since when (`lost` only): the page says it. */
  loss?: { reason: DataKeyLoss; lostAt: string };
  protection: KeyProtection;
  kept: boolean;
}

export type ConnectionMode = 'unconfigured' | 'demo' | 'service';

export interface ConnectionStatus {
  mode: ConnectionMode;
  baseUrl: string | null;
  /** Outcome of a light probe of the service just now; null when nothing is configured. */
  reachable: boolean | null;
  /** Why the probe failed, when it did. */
  error?: BridgeError;
  checkedAt: string;
}

export interface TillState {
  settings: Settings;
  key: KeyStatus;
  /** The till's data key as Settings says it: how it is protected, whether it is kept (never the key). */
  dataKey: DataKeyStatus;
  mode: ConnectionMode;
  /**
   * The operating system's preferred languages, most preferred first, as BCP 47 tags
   * (`ar-SA`, `en-GB`); what the interface follows while `settings.language` is null.
   */
  systemLanguages: string[];
  /** What the organisation's policy decides on this till (docs/operations.md#the-policy). */
  managed: ManagedState;
  /** Whether a manager PIN is set on this till: all the renderer ever knows of it. */
  pinSet: boolean;
  /** The organisation's policy gives the PIN: Settings shows it as set by the organisation, and cannot change it. */
  pinManaged: boolean;
  /** The till's data was forgotten this run (absent when it was not): the page starts blank. */
  forgotten?: TillForgotten;
}

/** The organisation's policy as Settings shows it. */
export interface ManagedState {
  /** The settings the policy sets and locks: shown as set by the organisation, refused by the bridge. */
  locked: Array<keyof Settings>;
  /** Why a policy that is there was not applied, in the interface language; null when none is wrong. */
  problem: string | null;
  /** Rises each time the policy changes, so the page knows to read the state again. */
  revision: number;
}

/**
 * What the page is doing, for the updater: an update installs only while the till is idle.
 * The page sends it whenever it changes.
 */
export interface TillActivity {
  /** A customer is open on screen (a cashier is serving someone). */
  customerOpen: boolean;
  /** Redemptions and registrations sent to the service and not yet answered. */
  inFlight: number;
  /** Everything the outbox holds is written to IndexedDB (nothing only in memory). */
  outboxDurable: boolean;
}

/**
 * The main process's answer to a PIN: accepted or not, and how long before another try is
 * heard. Never the PIN, nor anything of its hash.
 */
export interface PinCheck {
  accepted: boolean;
  /** Seconds before the next try is heard (wrong PINs make it grow); 0 when at once. */
  waitSeconds: number;
}

export interface RendererErrorEntry {
  message: string;
  /** Where it happened, e.g. a store or view name. */
  source?: string;
  stack?: string;
}
