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
 * renamed between the wire, the bridge and the renderer's cache. The shapes live by subsystem
 * beside this file (the service's resources, results, payloads, settings, links, the shop
 * ledger), re-exported here: this file holds the operations, their channels and `createTillApi`.
 */

export * from './service-resources';
import type { Customer, Reward } from './service-resources';
export * from './bridge-results';
import type { CustomerPageResult, Result, SearchResult, ServiceClockReading } from './bridge-results';
export * from './service-payloads';
import type {
  CheckRewardPayload,
  CustomerPagePayload,
  GetCustomerPayload,
  RedeemRewardPayload,
  Redemption,
  RegisterCustomerPayload,
  RegisterOutcome,
  SearchCustomersPayload,
  UpdateCustomerPayload,
} from './service-payloads';
export { ARABIC_DIGITS, INTERFACE_LANGUAGES, THEMES } from './settings-choices';
export type { ArabicDigits, InterfaceLanguage, Theme } from './settings-choices';
export * from './settings-contract';
import type {
  ConnectionStatus,
  PinCheck,
  RendererErrorEntry,
  SettingsPatch,
  TillActivity,
  TillState,
} from './settings-contract';
export * from './link-contract';
import type { LinkMessage, LinkOutcomeReceipt, LinkOutcomeNotice } from './link-contract';
export * from './data-key-contract';
import type { DataKeyGrant } from './data-key-contract';
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
import type { CustomerPhoneEntry, DisplayModel } from './display-model';
export * from './work-copy-contract';
import type {
  ConfirmWaitingLossPayload,
  KeepWorkPayload,
  KeptWork,
  StoragePersistence,
  WorkCopy,
  WorkCopyPayload,
} from './work-copy-contract';
export * from './health-contract';
import type { CacheReport, HealthReport } from './health-contract';

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
  logError: { payload: RendererErrorEntry; result: Result<null> };
  /** Links that arrived before the page could listen (a link that started the app). */
  takeLinkMessages: { payload: void; result: Result<LinkMessage[]> };
  /** After a redemption a link prepared: the main process POSTs the outcome to the POS callback. */
  sendLinkOutcome: { payload: LinkOutcomeNotice; result: Result<LinkOutcomeReceipt> };
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
  noteActivity: { payload: TillActivity; result: Result<{ policyRevision: number }> };
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
  /**
   * The till's data key, for the page to encrypt what it keeps (the till's page only, never
   * the customer display's); `lost` when the data encrypted before cannot be read with it.
   */
  dataKey: { payload: void; result: Result<DataKeyGrant> };
  // ---- the customer display (common/display-model.ts) ----
  /** Shows the sanitised model on the customer display; the answer says whether one is attached. */
  showOnDisplay: { payload: DisplayModel; result: Result<{ displays: number }> };
  /** The screens a display window can open on (Electron); none in the browser shell. */
  listScreens: { payload: void; result: Result<DisplayScreen[]> };
  // ---- the main process's copy of the outbox and the journal (common/work-copy-contract.ts) ----
  /** Keeps what the page's database committed; answered once it is on disk. */
  keepWork: { payload: KeepWorkPayload; result: Result<KeptWork> };
  /** The copy as it stands: the items, and a page of the journal. */
  workCopy: { payload: WorkCopyPayload; result: Result<WorkCopy> };
  /** Whether the browser granted persistent storage, for the log and the till's health. */
  noteStorage: { payload: StoragePersistence; result: Result<null> };
  // ---- the till's health (common/health-contract.ts) ----
  /** The health report as `--health` prints it, for Settings' "About this till". */
  tillHealth: { payload: void; result: Result<HealthReport> };
  /** The page's word on its offline cache (its last complete refresh), for the health report. */
  noteCache: { payload: CacheReport; result: Result<null> };
  /**
   * Saves the support file (nothing personal, nothing secret) where the manager chooses; guarded.
   * `userAgent`: the browser the page runs in, for the help desk (empty where it cannot say).
   */
  saveSupportFile: { payload: { userAgent: string }; result: Result<SupportFileOutcome> };
  /**
   * Where a browser opens the customer display (the browser shell: a listener of its own, with
   * its own secret), for Settings to show; null where the display is a window (Electron).
   */
  displayAddress: { payload: void; result: Result<{ address: string | null }> };
  // ---- forgetting the till's data (docs/privacy.md#forgetting-a-till) ----
  /** Deletes the work copy and destroys the data key (guarded); refused while items wait unconfirmed. */
  forgetTill: { payload: void; result: Result<TillState> };
  /** The manager confirms that the next forgetting (within two minutes) may lose this many waiting items. */
  confirmWaitingLoss: { payload: ConfirmWaitingLossPayload; result: Result<null> };
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

/** How the support file left, and its name (the main process names it). */
export interface SupportFileOutcome extends ExportOutcome {
  fileName: string;
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
  logError: 'till:log:error',
  takeLinkMessages: 'till:links:take',
  sendLinkOutcome: 'till:links:outcome',
  shopCheck: 'till:shop:check',
  shopClaim: 'till:shop:claim',
  shopSettle: 'till:shop:settle',
  shopHolder: 'till:shop:holder',
  shopReports: 'till:shop:reports',
  shopReportRequest: 'till:shop:report-request',
  shopReportAnswer: 'till:shop:report-answer',
  noteActivity: 'till:activity:report',
  verifyManagerPin: 'till:pin:verify',
  setManagerPin: 'till:pin:set',
  endManagerApproval: 'till:pin:end',
  saveReportPdf: 'till:report:pdf',
  saveExport: 'till:export:save',
  shopTills: 'till:shop:tills',
  dataKey: 'till:data-key:get',
  showOnDisplay: 'till:display:show',
  listScreens: 'till:display:screens',
  keepWork: 'till:work:keep',
  workCopy: 'till:work:copy',
  noteStorage: 'till:work:storage',
  tillHealth: 'till:health:get',
  noteCache: 'till:health:cache',
  saveSupportFile: 'till:health:support-file',
  displayAddress: 'till:display:address',
  forgetTill: 'till:data:forget',
  confirmWaitingLoss: 'till:data:confirm-loss',
} as const satisfies Record<Operation, string>;

export type Channel = (typeof CHANNELS)[Operation];

/**
 * What the main process pushes to the till's page unasked, each on a channel of its own: a
 * link arrived, or a customer typed their phone on the customer display.
 */
export const PAGE_PUSH_CHANNELS = {
  link: 'till:push:link',
  customerEntry: 'till:push:customer-entry',
} as const;

export type PagePushChannel = (typeof PAGE_PUSH_CHANNELS)[keyof typeof PAGE_PUSH_CHANNELS];

/** Each push channel's payload. */
export interface PagePushes {
  'till:push:link': LinkMessage;
  'till:push:customer-entry': CustomerPhoneEntry;
}

export type TillApi = {
  [K in Operation]: TillOperations[K]['payload'] extends void
    ? () => Promise<TillOperations[K]['result']>
    : (payload: TillOperations[K]['payload']) => Promise<TillOperations[K]['result']>;
} & {
  /** Calls `listener` with every link message the main process pushes; returns the unsubscribe. */
  onLinkMessage(listener: (message: LinkMessage) => void): () => void;
  /** Calls `listener` with every phone a customer types on the display; returns the unsubscribe. */
  onCustomerEntry(listener: (entry: CustomerPhoneEntry) => void): () => void;
};

export type Invoke = (channel: Channel, payload?: unknown) => Promise<unknown>;

/** Listens on a push channel: `ipcRenderer.on` in the preload (the event object stays behind). */
export type Subscribe = (channel: PagePushChannel, listener: (payload: unknown) => void) => () => void;

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
    subscribe(PAGE_PUSH_CHANNELS.link, (payload) => listener(payload as LinkMessage));
  api.onCustomerEntry = (listener: (entry: CustomerPhoneEntry) => void) =>
    subscribe(PAGE_PUSH_CHANNELS.customerEntry, (payload) => listener(payload as CustomerPhoneEntry));
  return Object.freeze(api) as unknown as TillApi;
}

/** For a `window.till` over the handler table alone (unit tests): nothing is ever pushed. */
const nothingPushed: Subscribe = () => () => undefined;
