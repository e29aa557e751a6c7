/** What the main process's core is made with, and what it gives the shells (app-core.ts). */
import type { DisplayHub } from '../display/display-hub';
import type { DisplayScreen } from '../../common/contract';
import type { ReportPdf, SaveFile } from './exports';
import type { KeyCipher } from '../storage/key-cipher';
import type { PinCost } from '../storage/manager-pin';
import type { ServiceClock } from '../service/service-clock';
import type { Logger } from '../log/log';
import type { LinkInbox } from '../links/link-inbox';
import type { PageDoor } from '../app-page/page-door';
import type { LinkRateLimit } from '../links/link-rate-limit';
import type { DeliveryResult } from '../links/pos-callback';
import type { DiscoveryFactory } from './shop-ledger-switch';
import type { PolicyReading } from '../policy/policy-reading';
import type { MachinePolicySource } from '../policy/machine-policy';
import type { ActivityBoard } from '../updates/till-activity';
import type { BridgeHandlers } from './guarded-handlers';
import type { WorkCopyStore } from '../work-copy/work-copy';

export interface AppCore {
  handlers: BridgeHandlers;
  /** Stops the demo sandbox, if one runs; the remembered mode stays. */
  dispose(): Promise<void>;
  /** The core's redacting logger, for the shell's own messages. */
  log: Logger;
  /** Where every `loyalty-till://` link the OS delivers goes (main.ts; the e2e harness). */
  links: LinkInbox;
  /** The till's page, as the main process pushes to it: the shell attaches how it sends. */
  page: PageDoor;
  /** Deliveries to the POS callback still under way (tests wait on them). */
  callbackDeliveries(): Promise<DeliveryResult[]>;
  /** Waits until the shop ledger has started, restarted or stopped as the settings last asked. */
  shopLedgerSettled(): Promise<void>;
  /** The organisation's policy as last read (the updater reads its `updates`). */
  policy(): PolicyReading;
  /** Reads the policy again now (tests; the watcher does it on its own). */
  reloadPolicy(): Promise<PolicyReading>;
  /** What the page last said about the till's work: the updater installs only when it is idle. */
  activity: ActivityBoard;
  /** The customer display: the till's model to its windows, the keypad's entries to the page. */
  display: DisplayHub;
  /** The main process's copy of the outbox and the journal (electron/work-copy/). */
  workCopy: WorkCopyStore;
}

export interface AppCoreOptions {
  /** Where settings, the encrypted key and the demo's data live. */
  userDataDir: string;
  cipher: KeyCipher;
  /** The only origin whose frames may call the bridge, e.g. `app://till`. */
  appOrigin: string;
  /**
   * The customer display's own origin (`app://display`; the browser shell's display listener):
   * the only one whose frames may call the display's channels. None: no display is heard.
   */
  displayOrigin?: string;
  /** Where a browser opens the display, with its listener's secret (the browser shell); none in Electron. */
  displayAddress?: string;
  /** Raw log sink; the core wraps it so that secrets are redacted. Defaults to the console (warnings and errors). */
  log?: Logger;
  /** Deadline for one request to the loyalty service. */
  requestTimeoutMs?: number;
  /** Waits before a GET to the loyalty service is retried; a real timer by default (tests record them). */
  retrySleep?: (ms: number) => Promise<void>;
  /** How many links are taken how fast (tests set a generous one). */
  linkRateLimit?: LinkRateLimit;
  /** The clock the default link rate limit refills by (ms since the epoch); `Date.now` by default (the e2e harness moves it on). */
  linkRateLimitNow?: () => number;
  /** Waits before each retry of the POS callback (tests shorten them). */
  callbackRetryDelaysMs?: readonly number[];
  /** The estimate of the service's clock; tests inject one with their own clocks. */
  serviceClock?: ServiceClock;
  /** The OS's preferred languages (Electron's `app.getPreferredSystemLanguages()`); none known by default. */
  systemLanguages?: () => readonly string[];
  /**
   * Where the shop ledger listens, tried in order: 127.0.0.1 by default (tests, tools); the
   * shells listen on every address (`LAN_HOSTS`), and the ledger answers the LAN only.
   */
  shopLedgerHosts?: readonly string[];
  /** How the tills of a shop find each other (mDNS in the shells); none by default. */
  shopDiscovery?: DiscoveryFactory;
  /** How long `shopCheck` waits for the other tills in all (1.5 s by default, at most 10 s). */
  shopCheckWaitMs?: number;
  /** How long the ledger's announcements and catch-up wait for each till (1.5 s by default). */
  shopLedgerAskTimeoutMs?: number;
  /** The organisation's policy (`machinePolicySource()` in the shells); none when absent. */
  policySource?: MachinePolicySource;
  /** How often the policy is read again besides its file's change events (60 s by default). */
  policyPollMs?: number;
  /** The computer's name, for a policy's `{computerName}` till name; the OS's host name by default. */
  computerName?: () => string;
  /** The clock activity reports are stamped with (ms); `Date.now` by default. */
  now?: () => number;
  /** The clock the manager PIN's back-off and approval run on (ms); `Date.now` by default (tests move it on). */
  pinNow?: () => number;
  /** scrypt's cost for a new manager PIN; the default in the app, a cheaper one in tests. */
  pinCost?: PinCost;
  /** Prints the page to a PDF the manager saves (Electron's `printToPDF`); absent where the shell cannot. */
  reportPdf?: ReportPdf;
  /** Saves an export where the manager chooses (Electron's save dialog; the browser shell's one-time download). */
  saveFile?: SaveFile;
  /** The screens a customer display can open on (Electron's `screen`); none where the shell has no windows. */
  screens?: () => DisplayScreen[];
}

export const DEFAULT_TIMEOUT_MS = 8000;
export const DEFAULT_SHOP_LEDGER_HOSTS: readonly string[] = ['127.0.0.1'];
/** Every address, IPv6 and IPv4 (dual stack), or IPv4 alone on a machine without IPv6. */
export const LAN_HOSTS: readonly string[] = ['::', '0.0.0.0'];
