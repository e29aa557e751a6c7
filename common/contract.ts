/**
 * The bridge contract between the renderer and the main process.
 *
 * Both sides share it from common/: the main process for its channels and types, the
 * preload (and the end-to-end harness) for `createTillApi`, the factory that builds
 * `window.till` over an `invoke(channel, payload)` function. The renderer imports it for its
 * types only (`import type`) and calls `window.till`. It must stay free of Node and DOM
 * dependencies.
 *
 * Resource shapes mirror `loyalty-api.md` field for field (snake_case), so nothing is
 * renamed between the wire, the bridge and the renderer's cache.
 */

export * from './service-resources';
import type { Card, Customer, PageMeta, Reward } from './service-resources';
export * from './shop-contract';
import type {
  ShopCheck,
  ShopClaim,
  ShopHolder,
  ShopReportPart,
  ShopReportRequest,
  ShopReports,
  ShopRewardPayload,
  ShopTills,
} from './shop-contract';

// ---------------------------------------------------------------------------------------
// Results: everything crosses the bridge as data, never as a thrown error
// ---------------------------------------------------------------------------------------

export const ERROR_KINDS = [
  'offline', // the service could not be reached (network down, DNS, connection refused or reset)
  'timeout', // the service was reached but did not answer in time
  'unauthorized', // 401/403, or no API key configured
  'not_found', // 404: unknown customer, unknown or mismatched reward code
  'validation', // 400/413/415/422 other than reward_unavailable, or a payload the bridge refused
  'reward_unavailable', // 422 reward_unavailable: already redeemed, expired, or otherwise not available
  'rate_limited', // 429; `retryAfterMs` says when to try again where the service told us
  'server', // 5xx
  'bad_response', // an answer we cannot read: HTML, malformed JSON, wrong envelope
] as const;

export type ErrorKind = (typeof ERROR_KINDS)[number];

export interface BridgeError {
  kind: ErrorKind;
  /** Plain words, safe to show and log: never contains the API key. */
  message: string;
  /** HTTP status, when there was a response. */
  status?: number;
  /** The service's own error code when it sent one (e.g. `reward_unavailable`). */
  code?: string;
  /** Field name -> message, for validation errors, shown beside the field. */
  fields?: Record<string, string>;
  /** From `Retry-After`, for `rate_limited`; capped (a hostile or broken value never means "for ever"). */
  retryAfterMs?: number;
  /** For `manager_pin_required`: the guarded action refused, so the page names it when it asks the PIN. */
  action?: GuardedAction;
}

/**
 * When one request to the service was made, for reconciling a lost answer. Times are
 * milliseconds: `local*` on the main process's monotonic clock, the others on the service's
 * clock as estimated from the `Date` headers of its answers (null while it is not known).
 */
export interface AttemptTiming {
  localStart: number;
  localEnd: number;
  /** Just before the request was handed to the network, on the service's clock. */
  start: number | null;
  /** When the answer came or the till gave up on it, on the service's clock. */
  end: number | null;
  /** Both service times are true to within this many ms. */
  uncertaintyMs: number | null;
  /**
   * Whether the whole request was written to the connection. False when the connection
   * failed before that: the service cannot have acted on it.
   */
  requestSent: boolean;
}

/** The service's clock as this till estimates it (see electron/service/service-clock.ts). */
export interface ServiceClockReading {
  /** service time = local (monotonic) time + offsetMs; null while unknown. */
  offsetMs: number | null;
  uncertaintyMs: number | null;
  /** service time - this till's own clock: how far off the till's clock is; null while unknown. */
  tillClockOffMs: number | null;
  /** Now on the main process's monotonic clock, the scale of `AttemptTiming.local*`. */
  localNow: number;
  /** The longest one request may take before the till gives up on it. */
  requestTimeoutMs: number;
}

export interface Success<T> {
  ok: true;
  data: T;
  /** HTTP status of the service's answer, where one was made (201 vs 200 on register). */
  status?: number;
  /** The service's human-readable `message`, where it sent one. */
  message?: string;
  /** When the request was made (redemptions only). */
  attempt?: AttemptTiming;
}

export interface Failure {
  ok: false;
  error: BridgeError;
  /** When the request was made and whether it was completely sent (redemptions only). */
  attempt?: AttemptTiming;
}

export type Result<T> = Success<T> | Failure;

/**
 * In a list, a record the till cannot read is left out and counted, never the page:
 * `skipped` says how many (absent when none).
 */
export interface Skipped {
  skipped?: number;
}

/** Search results carry the service's pagination. */
export type SearchResult = (Success<Customer[]> & { meta: PageMeta } & Skipped) | Failure;

/**
 * One page of the whole customer list, for the cache refresh: with the service's entity
 * tag where it sent one, or `notModified` when the tag the till sent still matches (304),
 * in which case the till keeps what it stored for that page.
 */
export type CustomerPageResult =
  | (Success<Customer[]> & { meta: PageMeta; etag?: string; notModified?: false } & Skipped)
  | (Success<null> & { notModified: true; etag?: string; status: 304 })
  | Failure;

// ---------------------------------------------------------------------------------------
// Payloads (mirroring the service's request fields)
// ---------------------------------------------------------------------------------------

export interface SearchCustomersPayload {
  /** Exact phone: international (`+...`), or local together with `country_code`. */
  phone?: string;
  /** Dialling code without `+`, e.g. `966`. */
  country_code?: string;
  /** Part of a name or number. */
  search?: string;
  /** From 1. */
  page?: number;
  /** 1..100, default 20. */
  per_page?: number;
}

export interface CustomerPagePayload {
  /** From 1. */
  page: number;
  /** 1..100. */
  per_page: number;
  /** The entity tag stored with this page: a 304 answer means it has not changed. */
  if_none_match?: string;
}

export interface GetCustomerPayload {
  id: string;
}

export interface RegisterCustomerPayload {
  name: string;
  phone: string;
  country_code?: string;
  email?: string;
  birthday?: string;
}

export interface RegisterOutcome {
  customer: Customer;
  /** true when the service created the customer (201), false when the phone was known (200). */
  created: boolean;
}

/** The phone is the identity and cannot be corrected: it is not part of this payload. */
export interface UpdateCustomerPayload {
  id: string;
  name?: string;
  /** null removes the email; absent leaves it as it is. */
  email?: string | null;
  /** null removes the birthday; absent leaves it as it is. */
  birthday?: string | null;
}

export interface CheckRewardPayload {
  reward_code: string;
  phone: string;
  country_code?: string;
}

export interface RedeemRewardPayload {
  reward_code: string;
  phone: string;
  country_code?: string;
  branch_id?: string;
  order_reference?: string;
}

/**
 * A 2xx to a redeem is the truth that the service redeemed, even when its body cannot be read
 * in full: then the part that could not be read is null, and the till says so.
 */
export interface Redemption {
  reward: Reward | null;
  card: Card | null;
}

// ---------------------------------------------------------------------------------------
// Settings, key and connection
// ---------------------------------------------------------------------------------------

import type { GuardedAction } from './guarded-actions';
export { ARABIC_DIGITS, INTERFACE_LANGUAGES, THEMES } from './settings-choices';
export type { ArabicDigits, InterfaceLanguage, Theme } from './settings-choices';
import type { ArabicDigits, InterfaceLanguage, Theme } from './settings-choices';
import type { DisplayModel } from './display-model';

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

/** How the stored key is protected at rest. */
export type KeyProtection =
  | 'os' // safeStorage with a real OS keychain / DPAPI / libsecret / kwallet
  | 'basic_text' // Linux fallback: obfuscated with a hard-coded password, not protected
  | 'key_file' // the browser shell: AES-256-GCM with a key file in the user-data folder, not the OS's store
  | 'unavailable'; // no encryption at all: the key is not stored

export interface KeyStatus {
  set: boolean;
  /** The last four characters, for "set, ending in 1234". */
  lastFour: string | null;
  protection: KeyProtection;
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

export interface RendererErrorReport {
  message: string;
  /** Where it happened, e.g. a store or view name. */
  source?: string;
  stack?: string;
}

// ---------------------------------------------------------------------------------------
// Links from the POS: `loyalty-till://…` (see electron/links/till-link.ts and docs/pos-integration.md)
// ---------------------------------------------------------------------------------------

/**
 * What a link asks the till to open, validated by the main process. A link only fills in and
 * navigates: nothing here redeems, registers or changes anything by itself.
 */
export type LinkRequest = (
  | { route: 'customer'; phone: string; country?: string }
  | { route: 'reward'; code: string; phone?: string; country?: string; order?: string }
  | { route: 'register'; name?: string; phone?: string; country?: string }
  | { route: 'find'; q: string }
) & {
  /** Who is at the POS (their name or number), recorded with the work the link leads to. */
  cashier?: string;
};

export type LinkRoute = LinkRequest['route'];

/** Pushed from the main process to the page, or handed over when the page starts. */
export type LinkMessage =
  | { kind: 'request'; id: string; request: LinkRequest; receivedAt: string }
  | { kind: 'refused'; reason: string; receivedAt: string }
  /** The customer typed their phone on the customer display (digits only); never stored. */
  | { kind: 'customer-entry'; digits: string; receivedAt: string };

export type LinkOutcome = 'redeemed' | 'queued' | 'refused';

/** The page's word on how a redemption that a link prepared ended; the main process tells the POS. */
export interface LinkOutcomeReport {
  /** The `id` of the link's request message. */
  link_id: string;
  outcome: LinkOutcome;
  reward_code: string;
  order_reference?: string;
  /** The card's points after the redemption, when the service answered with the card. */
  points_balance?: number;
  card_serial_number?: string;
  /** Plain words, for a refusal. */
  message?: string;
  /** Who was at the till when it ended (the link's cashier, or the one chosen on the till). */
  cashier?: string;
}

export interface LinkOutcomeReceipt {
  /** `not_set`: no callback URL in Settings, nothing is sent. */
  callback: 'sending' | 'not_set';
}

// ---------------------------------------------------------------------------------------
// The bridge: one channel per operation
// ---------------------------------------------------------------------------------------

/** The operations of `window.till`, each with its payload and its result. */
export interface TillOperations {
  searchCustomers: { payload: SearchCustomersPayload; result: SearchResult };
  customerPage: { payload: CustomerPagePayload; result: CustomerPageResult };
  getCustomer: { payload: GetCustomerPayload; result: Result<Customer> };
  registerCustomer: { payload: RegisterCustomerPayload; result: Result<RegisterOutcome> };
  updateCustomer: { payload: UpdateCustomerPayload; result: Result<Customer> };
  checkReward: { payload: CheckRewardPayload; result: Result<Reward> };
  redeemReward: { payload: RedeemRewardPayload; result: Result<Redemption> };
  getState: { payload: void; result: Result<TillState> };
  updateSettings: { payload: SettingsPatch; result: Result<TillState> };
  setApiKey: { payload: { apiKey: string }; result: Result<TillState> };
  clearApiKey: { payload: void; result: Result<TillState> };
  startDemo: { payload: void; result: Result<TillState> };
  connectionStatus: { payload: void; result: Result<ConnectionStatus> };
  /** The service's clock as estimated from its answers; no request is made. */
  serviceClock: { payload: void; result: Result<ServiceClockReading> };
  /** Renderer errors go to the main process's log file; the renderer has no file access. */
  reportError: { payload: RendererErrorReport; result: Result<null> };
  /** Links that arrived before the page could listen (a link that started the app). */
  takeLinkMessages: { payload: void; result: Result<LinkMessage[]> };
  /** After a redemption a link prepared: the main process POSTs the outcome to the POS callback. */
  reportLinkOutcome: { payload: LinkOutcomeReport; result: Result<LinkOutcomeReceipt> };
  /** Asks the other tills of the shop, within a bounded wait, whether one holds the reward. */
  shopCheck: { payload: ShopRewardPayload; result: Result<ShopCheck> };
  /** Claims the reward for this till in the shop ledger and tells the other tills. */
  shopClaim: { payload: ShopRewardPayload; result: Result<ShopClaim> };
  /** The service has answered this till's redemption of the reward: the shop's claims on it are done with. */
  shopSettle: { payload: ShopRewardPayload; result: Result<null> };
  /** Which other till claimed the reward, from this till's ledger (for a conflict's words). */
  shopHolder: { payload: ShopRewardPayload; result: Result<ShopHolder> };
  /** The other tills' reports since a time, over the ledger (the manager's approval needed). */
  shopReports: { payload: { since: string; until?: string }; result: Result<ShopReports> };
  /** Waits (at most 20 s) for another till to ask for this till's report; null when none did. */
  shopReportRequest: { payload: void; result: Result<ShopReportRequest> };
  /** This till's report, for the request of that id (or null: it cannot be read). */
  shopReportAnswer: { payload: { id: number; report: ShopReportPart | null }; result: Result<null> };
  /** The page says whether the till is idle; the answer carries the policy's revision. */
  reportActivity: { payload: TillActivity; result: Result<{ policyRevision: number }> };
  /** Checks the manager PIN (a right one approves risky operations for a few minutes). */
  verifyManagerPin: { payload: { pin: string }; result: Result<PinCheck> };
  /** Sets, replaces or removes (null) the manager PIN; once one is set, only with the manager's approval. */
  setManagerPin: { payload: { pin: string | null }; result: Result<TillState> };
  /** Ends the manager's approval (leaving Settings). */
  endManagerApproval: { payload: void; result: Result<null> };
  /** Saves the page on screen (the end-of-shift report) as a PDF where the manager chooses. */
  saveReportPdf: { payload: { fileName: string }; result: Result<ReportPdfOutcome> };
  /** Saves a CSV the page made (the journal's, the shift's) where the manager chooses; guarded. */
  saveExport: { payload: ExportFile; result: Result<ExportOutcome> };
  /** The shop's other tills now: each asked, whether it answered, when it last did (Settings' live list). */
  shopTills: { payload: void; result: Result<ShopTills> };
  // ---- the customer display (common/display-model.ts) ----
  /** Shows the sanitised model on the customer display; the answer says whether one is attached. */
  showOnDisplay: { payload: DisplayModel; result: Result<{ displays: number }> };
  /** The screens a display window can open on (Electron); none in the browser shell. */
  listScreens: { payload: void; result: Result<DisplayScreen[]> };
}

/** A screen of the till PC, as Settings offers it for the customer display. */
export interface DisplayScreen {
  id: number;
  label: string;
  width: number;
  height: number;
  /** The screen the till's own window is on. */
  cashiers: boolean;
}

/** A CSV export as the page hands it over: a plain file name and its text. */
export interface ExportFile {
  fileName: string;
  csv: string;
}

/**
 * How an export left: `saved` where the manager chose (Electron's save dialog), `cancelled`,
 * or `download` in the browser shell, which serves the file once at `downloadPath` (relative
 * to the page, under the session's secret) for the page to open.
 */
export interface ExportOutcome {
  outcome: 'saved' | 'cancelled' | 'download';
  downloadPath: string | null;
}

/**
 * `available: false` where the shell cannot print to PDF (the browser shell): the page then
 * opens the browser's own print dialog, whose "Save as PDF" does the same.
 */
export interface ReportPdfOutcome {
  available: boolean;
  saved: boolean;
}

export type Operation = keyof TillOperations;

/** The IPC channel of each operation. Only these channels exist. */
export const CHANNELS = {
  searchCustomers: 'till:customers:search',
  customerPage: 'till:customers:page',
  getCustomer: 'till:customers:get',
  registerCustomer: 'till:customers:register',
  updateCustomer: 'till:customers:update',
  checkReward: 'till:rewards:check',
  redeemReward: 'till:rewards:redeem',
  getState: 'till:state:get',
  updateSettings: 'till:settings:update',
  setApiKey: 'till:key:set',
  clearApiKey: 'till:key:clear',
  startDemo: 'till:demo:start',
  connectionStatus: 'till:connection:status',
  serviceClock: 'till:clock:get',
  reportError: 'till:log:error',
  takeLinkMessages: 'till:links:take',
  reportLinkOutcome: 'till:links:outcome',
  shopCheck: 'till:shop:check',
  shopClaim: 'till:shop:claim',
  shopSettle: 'till:shop:settle',
  shopHolder: 'till:shop:holder',
  shopReports: 'till:shop:reports',
  shopReportRequest: 'till:shop:report-request',
  shopReportAnswer: 'till:shop:report-answer',
  reportActivity: 'till:activity:report',
  verifyManagerPin: 'till:pin:verify',
  setManagerPin: 'till:pin:set',
  endManagerApproval: 'till:pin:end',
  saveReportPdf: 'till:report:pdf',
  saveExport: 'till:export:save',
  shopTills: 'till:shop:tills',
  showOnDisplay: 'till:display:show',
  listScreens: 'till:display:screens',
} as const satisfies Record<Operation, string>;

export type Channel = (typeof CHANNELS)[Operation];

/** The one message the main process pushes to the page unasked: a link arrived. */
export const LINK_PUSH_CHANNEL = 'till:push:link';

export type TillApi = {
  [K in Operation]: TillOperations[K]['payload'] extends void
    ? () => Promise<TillOperations[K]['result']>
    : (payload: TillOperations[K]['payload']) => Promise<TillOperations[K]['result']>;
} & {
  /** Calls `listener` with every link message the main process pushes; returns the unsubscribe. */
  onLinkMessage(listener: (message: LinkMessage) => void): () => void;
};

export type Invoke = (channel: Channel, payload?: unknown) => Promise<unknown>;

/** Listens on the push channel: `ipcRenderer.on` in the preload (the event object stays behind). */
export type Subscribe = (channel: typeof LINK_PUSH_CHANNEL, listener: (payload: unknown) => void) => () => void;

/**
 * Builds `window.till` over an invoke function and a subscribe function: `ipcRenderer` in
 * the preload, Playwright bindings in the end-to-end tests. Nothing else is exposed: no
 * generic send or listen, only the fixed channels.
 */
export function createTillApi(invoke: Invoke, subscribe: Subscribe = nothingPushed): TillApi {
  const api = {} as Record<string, unknown>;
  for (const operation of Object.keys(CHANNELS) as Operation[]) {
    const channel = CHANNELS[operation];
    api[operation] = (payload?: unknown) => invoke(channel, payload);
  }
  api.onLinkMessage = (listener: (message: LinkMessage) => void) =>
    subscribe(LINK_PUSH_CHANNEL, (payload) => listener(payload as LinkMessage));
  return Object.freeze(api) as unknown as TillApi;
}

/** For a `window.till` over the handler table alone (unit tests): nothing is ever pushed. */
const nothingPushed: Subscribe = () => () => undefined;
