import { hostname } from 'node:os';
import { join } from 'node:path';
import { isRecord } from '../../common/is-record';
import type { z } from 'zod';
import {
  CHANNELS,
  type BridgeError,
  type Channel,
  type ConnectionStatus,
  type Failure,
  type Operation,
  type Result,
  type TillState,
} from '../../common/contract';
import type { KeyCipher } from '../storage/key-cipher';
import { openVault } from '../storage/vault';
import { openSettings } from '../storage/settings';
import { openManagerPinStore, withPolicyPin, type PinCost } from '../storage/manager-pin';
import { createPinGuard } from '../storage/pin-guard';
import { createManagerApproval } from './manager-approval';
import { openDemoMode } from '../demo/demo-mode';
import { inInterfaceLanguage } from '../service/api-errors';
import { createLoyaltyApi, type LoyaltyApi, type ServiceTarget } from '../service/loyalty-api';
import { ServiceClock } from '../service/service-clock';
import { createRedactingLogger, describeError, type Logger } from '../log/log';
import { ResultTooDeepError, scrubSecrets } from '../log/scrub-secrets';
import { isFromOrigin } from './sender-origin';
import { describeFieldErrors, fieldErrors, parseOptions } from '../validation/validation-errors';
import * as payloads from '../validation/bridge-payloads';
import { createRendererErrorLog } from './renderer-error-log';
import { createLinkInbox, type LinkInbox } from '../links/link-inbox';
import type { LinkRateLimit } from '../links/link-rate-limit';
import { createPosCallback, type DeliveryResult } from '../links/pos-callback';
import { systemLanguageTags } from './system-languages';
import { resolveLanguage } from '../../common/interface-language';
import { describe, type Wording } from '../messages';
import { seenTillsFile } from '../shop-ledger/seen-tills';
import { createShopLedgerSwitch, errorKind, type DiscoveryFactory, type ShopLedgerConfig } from './shop-ledger-switch';
import { createManagedSettings } from '../policy/managed-settings';
import { describePolicyProblem, NO_POLICY, policyManagerPinHash, type PolicyReading } from '../policy/policy-reading';
import { watchPolicy, type PolicyWatch } from '../policy/policy-watch';
import type { MachinePolicySource } from '../policy/machine-policy';
import { createActivityBoard, type ActivityBoard } from '../updates/till-activity';
import { createDisplayHub, type DisplayHub } from '../display/display-hub';
import { displayModelSchema } from '../display/display-model-schema';
import { isDisplayPage } from '../display/display-page';
import type { DisplayScreen } from '../../common/contract';

export type BridgeSender = { url: string } | null | undefined;
export type BridgeHandler = (sender: BridgeSender, payload: unknown) => Promise<unknown>;
export type BridgeHandlers = Record<Channel, BridgeHandler>;

export interface AppCore {
  handlers: BridgeHandlers;
  /** Stops the demo sandbox, if one runs; the remembered mode stays. */
  dispose(): Promise<void>;
  /** The core's redacting logger, for the shell's own messages. */
  log: Logger;
  /** Where every `loyalty-till://` link the OS delivers goes (main.ts; the e2e harness). */
  links: LinkInbox;
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
}

export interface AppCoreOptions {
  /** Where settings, the encrypted key and the demo's data live. */
  userDataDir: string;
  cipher: KeyCipher;
  /** The only origin whose frames may call the bridge, e.g. `app://till`. */
  appOrigin: string;
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
  reportPdf?: (fileName: string) => Promise<'saved' | 'cancelled'>;
  /** The screens a customer display can open on (Electron's `screen`); none where the shell has no windows. */
  screens?: () => DisplayScreen[];
}

const DEFAULT_TIMEOUT_MS = 8000;
const DEFAULT_SHOP_LEDGER_HOSTS = ['127.0.0.1'];
/** Every address, IPv6 and IPv4 (dual stack), or IPv4 alone on a machine without IPv6. */
export const LAN_HOSTS: readonly string[] = ['::', '0.0.0.0'];
const DEFAULT_SHOP_CHECK_WAIT_MS = 1500;

/**
 * The main process without Electron: settings, the key vault, demo mode and the loyalty
 * API client behind one table of bridge handlers. `main.ts` registers the table with
 * `ipcMain.handle`; tests and the end-to-end harness call it directly.
 *
 * Every handler checks the sender, validates its payload, and answers with data: it
 * never throws, and no answer contains the API key.
 */
export async function createAppCore(options: AppCoreOptions): Promise<AppCore> {
  const { userDataDir, cipher, appOrigin } = options;
  const timeoutMs = options.requestTimeoutMs ?? DEFAULT_TIMEOUT_MS;

  let secrets: () => string[] = () => [];
  const log = createRedactingLogger(options.log ?? quietConsoleLogger(), () => secrets());

  const ownSettings = await openSettings({ file: join(userDataDir, 'settings.json'), log });
  // The policy is read before anything uses the settings, so a locked service address is
  // the one the first request goes to.
  let policyRevision = 0;
  let onPolicyChange = (): void => undefined;
  const policyWatch: PolicyWatch | null = options.policySource
    ? await watchPolicy({
        read: options.policySource.read,
        file: options.policySource.file,
        ...(options.policyPollMs ? { pollMs: options.policyPollMs } : {}),
        log,
        onChange: () => {
          policyRevision += 1;
          onPolicyChange();
        },
      })
    : null;
  const policyReading = (): PolicyReading => policyWatch?.current() ?? NO_POLICY;
  const appliedPolicy = () => {
    const reading = policyReading();
    return reading.state === 'applied' ? reading.policy : null;
  };
  const settings = createManagedSettings({
    own: ownSettings,
    policy: appliedPolicy,
    computerName: options.computerName ?? hostname,
  });
  const activity = createActivityBoard();
  const now = options.now ?? Date.now;
  const vault = await openVault({ file: join(userDataDir, 'api-key.bin'), cipher, log });
  const demo = await openDemoMode({ dir: join(userDataDir, 'demo'), log });
  const pinGuard = createPinGuard({
    // The organisation's policy may give the PIN (docs/operations.md); the till's own otherwise.
    store: withPolicyPin(await openManagerPinStore({ file: join(userDataDir, 'manager-pin.json'), log }), () =>
      policyManagerPinHash(policyReading()),
    ),
    ...(options.pinNow ? { now: options.pinNow } : {}),
    ...(options.pinCost ? { cost: options.pinCost } : {}),
  });
  secrets = () => [vault.key(), demo.running()?.apiKey].filter((s): s is string => !!s);

  if (demo.isOn()) {
    // Remembered from the last run; failing here is not fatal, the next call retries.
    await demo.start().catch((error) => log.error(`The demo service could not be restarted: ${describeError(error)}`));
  }

  const mode = () => (demo.isOn() ? 'demo' : settings.get().baseUrl && vault.key() ? 'service' : 'unconfigured');
  const systemLanguages = options.systemLanguages ?? (() => []);
  // The interface's language right now, resolved as the renderer resolves it: the main
  // process's own messages (field errors, refused links) are worded in it.
  const wording = (): Wording => {
    const { language, arabicDigits } = settings.get();
    return { language: resolveLanguage(language, systemLanguageTags(systemLanguages())), digits: arabicDigits };
  };
  const state = (): TillState => ({
    settings: settings.get(),
    key: vault.status(),
    mode: mode(),
    systemLanguages: systemLanguageTags(systemLanguages()),
    managed: {
      locked: [...settings.locked()] as TillState['managed']['locked'],
      problem: (() => {
        const reading = policyReading();
        return reading.state === 'refused' ? describePolicyProblem(reading.problem, wording()) : null;
      })(),
      revision: policyRevision,
    },
    pinSet: pinGuard.isSet(),
    pinManaged: pinGuard.isManaged(),
  });
  const approval = createManagerApproval({
    guard: pinGuard,
    log,
    wording,
    state,
    keySet: () => vault.status().set,
    allowsOfflineRedemption: () => settings.get().allowOfflineRedemption,
  });

  // One estimate for the till: every answer from the service it talks to refines it.
  let clock = options.serviceClock ?? new ServiceClock();
  let clockFor: string | null = null;
  let cached: { id: string; api: LoyaltyApi } | null = null;
  /** The client for whatever the till talks to right now, or why there is none. */
  async function currentApi(): Promise<{ api: LoyaltyApi; target: ServiceTarget } | Failure> {
    let target: ServiceTarget;
    if (demo.isOn()) {
      try {
        target = await demo.start();
      } catch (error) {
        log.error(`The demo service could not be started: ${describeError(error)}`);
        return failure({
          kind: 'offline',
          code: 'demo_unavailable',
          message: describe(wording(), 'bridge.demoUnavailable'),
        });
      }
    } else {
      const baseUrl = settings.get().baseUrl;
      const apiKey = vault.key();
      if (!baseUrl || !apiKey) {
        return failure({
          kind: 'unauthorized',
          code: 'not_configured',
          message: describe(wording(), 'bridge.notConfigured'),
        });
      }
      target = { baseUrl, apiKey };
    }
    const id = `${target.baseUrl}\n${target.apiKey}`;
    if (cached?.id !== id) {
      // Another service has another clock; a new key for the same service does not.
      if (clockFor !== null && clockFor !== target.baseUrl)
        clock = new ServiceClock({ monotonicNow: clock.monotonicNow, wallNow: clock.wallNow });
      clockFor = target.baseUrl;
      cached = {
        id,
        api: createLoyaltyApi(target, {
          timeoutMs,
          log,
          clock,
          ...(options.retrySleep ? { sleep: options.retrySleep } : {}),
        }),
      };
    }
    return { api: cached.api, target };
  }

  /** Leaving demo mode happens when a real service has just been fully configured. */
  async function leaveDemoIfConfigured(): Promise<void> {
    if (demo.isOn() && settings.get().baseUrl && vault.key()) {
      await demo.turnOff();
      cached = null;
      log.info('Switched from the demo to the configured loyalty service.');
    }
  }

  /**
   * A failure in the till's own words is reworded in the interface language; the service's
   * words stay, and so does everything else the failure carries (its attempt's timing).
   */
  const spoken = <T>(result: Result<T> | Failure): Result<T> | Failure =>
    result.ok ? result : { ...result, error: inInterfaceLanguage(result.error, wording()) };

  const reportRendererError = createRendererErrorLog(log);

  // The shop ledger: only a till that talks to its service (not the demo) with a branch,
  // and with the ledger on in Settings, is in a shop.
  const shop = createShopLedgerSwitch({
    hosts: options.shopLedgerHosts ?? DEFAULT_SHOP_LEDGER_HOSTS,
    seenTills: seenTillsFile(join(userDataDir, 'shop-tills.json')),
    ...(options.shopDiscovery ? { discovery: options.shopDiscovery } : {}),
    log,
    ...(options.shopLedgerAskTimeoutMs ? { askTimeoutMs: options.shopLedgerAskTimeoutMs } : {}),
  });
  const shopCheckWaitMs = options.shopCheckWaitMs ?? DEFAULT_SHOP_CHECK_WAIT_MS;
  const shopConfig = (): ShopLedgerConfig | null => {
    const current = settings.get();
    const apiKey = vault.key();
    if (mode() !== 'service' || !current.shopLedger || !apiKey || !current.baseUrl || !current.branchId) return null;
    return {
      apiKey,
      baseUrl: current.baseUrl,
      branchId: current.branchId,
      programId: current.programId,
      tillName: current.tillName,
      peers: current.shopPeers,
      port: current.shopLedgerPort,
    };
  };
  /** After anything that may change the shop: the ledger follows, without holding up the answer. */
  const followShop = (): void => void shop.update(shopConfig());
  followShop();
  // A policy that changes the service, the branch or the ledger applies without a restart.
  onPolicyChange = followShop;
  const noShop = { enabled: false, claimedBy: null, unreachable: [] };

  const links = createLinkInbox({
    log,
    wording,
    ...(options.linkRateLimit ? { rateLimit: options.linkRateLimit } : {}),
    ...(options.linkRateLimitNow ? { rateLimitNow: options.linkRateLimitNow } : {}),
  });
  const posCallback = createPosCallback({
    url: () => settings.get().posCallbackUrl,
    log,
    secrets: () => secrets(),
    ...(options.callbackRetryDelaysMs ? { retryDelaysMs: options.callbackRetryDelaysMs } : {}),
  });
  const deliveries = new Set<Promise<DeliveryResult>>();
  const display = createDisplayHub({
    log,
    toTill: (message) => links.hand(message),
    isDisplaySender: (sender) => isDisplayPage(sender?.url, appOrigin),
  });

  // Each operation: the schema its payload must match, and what to do with a valid payload.
  type Run = (payload: unknown) => Promise<Result<unknown> | Failure>;
  const op =
    <S extends z.ZodType>(schema: S, run: (payload: z.output<S>) => Promise<Result<unknown> | Failure>): Run =>
    async (payload) => {
      const words = wording();
      const parsed = schema.safeParse(payload, parseOptions(words));
      if (parsed.success) return run(parsed.data);
      return validationFailure(fieldErrors(parsed.error, words), words);
    };
  const viaApi =
    <P>(call: (api: LoyaltyApi, payload: P) => Promise<Result<unknown>>) =>
    async (payload: P): Promise<Result<unknown> | Failure> => {
      const current = await currentApi();
      return 'api' in current ? spoken(await call(current.api, payload)) : current;
    };

  const operations: Record<Operation, Run> = {
    searchCustomers: op(
      payloads.searchCustomersPayload,
      viaApi((api, query: z.output<typeof payloads.searchCustomersPayload>) => api.searchCustomers(query)),
    ),
    customerPage: op(
      payloads.customerPagePayload,
      viaApi((api, query: z.output<typeof payloads.customerPagePayload>) => api.customerPage(query)),
    ),
    getCustomer: op(
      payloads.getCustomerPayload,
      viaApi((api, { id }: z.output<typeof payloads.getCustomerPayload>) => api.getCustomer(id)),
    ),
    registerCustomer: op(
      payloads.registerCustomerPayload,
      viaApi((api, body: z.output<typeof payloads.registerCustomerPayload>) => api.registerCustomer(body)),
    ),
    updateCustomer: op(
      payloads.updateCustomerPayload,
      viaApi((api, { id, ...body }: z.output<typeof payloads.updateCustomerPayload>) => api.updateCustomer(id, body)),
    ),
    checkReward: op(
      payloads.checkRewardPayload,
      viaApi((api, body: z.output<typeof payloads.checkRewardPayload>) => api.checkReward(body)),
    ),
    redeemReward: op(
      payloads.redeemRewardPayload,
      viaApi((api, body: z.output<typeof payloads.redeemRewardPayload>) => {
        const branchId = settings.get().branchId;
        const withBranch = body.branch_id === undefined && branchId ? { ...body, branch_id: branchId } : body;
        return api.redeemReward(withBranch);
      }),
    ),
    getState: op(payloads.noPayload, async () => ({ ok: true, data: state() })),
    updateSettings: op(payloads.anyPayload, async (patch) => {
      const refused = approval.forSettings(patch);
      if (refused) return refused;
      const words = wording();
      const outcome = await settings.update(patch, words);
      if (!outcome.ok) return validationFailure(outcome.fields, words);
      if (isRecord(patch) && typeof patch.baseUrl === 'string') await leaveDemoIfConfigured();
      followShop();
      return { ok: true, data: state() };
    }),
    setApiKey: op(payloads.setApiKeyPayload, async ({ apiKey }) => {
      const refused = approval.forKey();
      if (refused) return refused;
      const outcome = await vault.store(apiKey);
      if (!outcome.ok) {
        const words = wording();
        return validationFailure({ apiKey: describe(words, outcome.why) }, words);
      }
      await leaveDemoIfConfigured();
      followShop();
      return { ok: true, data: state() };
    }),
    clearApiKey: op(payloads.noPayload, async () => {
      const refused = approval.forKeyRemoval();
      if (refused) return refused;
      await vault.clear();
      followShop();
      return { ok: true, data: state() };
    }),
    startDemo: op(payloads.noPayload, async () => {
      // A till already set up does not go (back) to the demo's practice data without a manager.
      const refused = mode() === 'unconfigured' ? null : approval.refusal('switching to the demo');
      if (refused) return refused;
      try {
        await demo.start();
      } catch (error) {
        log.error(`The demo service could not be started: ${describeError(error)}`);
        return failure({
          kind: 'server',
          code: 'demo_unavailable',
          message: describe(wording(), 'bridge.demoNotStarted'),
        });
      }
      // The demo knows which programme its key earns on; a programme the person chose stays.
      if (settings.get().programId === null) {
        const chosen = await settings.update({ programId: await demo.programId() });
        if (!chosen.ok)
          log.warn(`The demo's programme could not be saved as this till's: ${describeFieldErrors(chosen.fields)}`);
      }
      followShop();
      return { ok: true, data: state() };
    }),
    connectionStatus: op(payloads.noPayload, async () => {
      const status: ConnectionStatus = {
        mode: mode(),
        baseUrl: demo.running()?.baseUrl ?? settings.get().baseUrl,
        reachable: null,
        checkedAt: new Date().toISOString(),
      };
      if (status.mode === 'unconfigured') return { ok: true, data: status };
      const current = await currentApi();
      const probe = 'api' in current ? await current.api.probe() : current;
      if ('api' in current) status.baseUrl = current.target.baseUrl;
      // "Reachable" means the service answered; a refused key or a 5xx is reachable but failing.
      status.reachable = probe.ok || (probe.error.kind !== 'offline' && probe.error.kind !== 'timeout');
      if (!probe.ok) status.error = inInterfaceLanguage(probe.error, wording());
      status.checkedAt = new Date().toISOString();
      return { ok: true, data: status };
    }),
    serviceClock: op(payloads.noPayload, async () => {
      const estimate = clock.estimate();
      return {
        ok: true,
        data: {
          offsetMs: estimate?.offsetMs ?? null,
          uncertaintyMs: estimate?.uncertaintyMs ?? null,
          tillClockOffMs: estimate?.wallOffsetMs ?? null,
          localNow: clock.monotonicNow(),
          requestTimeoutMs: timeoutMs,
        },
      };
    }),
    reportError: op(payloads.reportErrorPayload, async (report) => {
      reportRendererError(report);
      return { ok: true, data: null };
    }),
    takeLinkMessages: op(payloads.noPayload, async () => ({ ok: true, data: links.take() })),
    reportLinkOutcome: op(payloads.linkOutcomePayload, async (report) => {
      // Only a reward link this process handed out, once, for the code it named: the page
      // cannot make the till post outcomes of its own invention.
      const link = links.claimRewardLink(report.link_id);
      if (!link || link.code.toUpperCase() !== report.reward_code.toUpperCase()) {
        log.warn(
          'An outcome was reported for a link that is unknown, already reported, or for another code; nothing was sent.',
        );
        const words = wording();
        return validationFailure({ link_id: describe(words, 'link.outcomeUnknown') }, words);
      }
      const sent = posCallback.send({
        event: 'loyalty-till.redemption',
        link_id: report.link_id,
        outcome: report.outcome,
        reward_code: report.reward_code,
        order_reference: report.order_reference ?? null,
        points_balance: report.points_balance ?? null,
        card_serial_number: report.card_serial_number ?? null,
        message: report.message ?? null,
        till_name: settings.get().tillName,
        cashier: report.cashier ?? null,
      });
      deliveries.add(sent.delivery);
      void sent.delivery.finally(() => deliveries.delete(sent.delivery));
      return { ok: true, data: { callback: sent.callback } };
    }),
    saveReportPdf: op(payloads.reportPdfPayload, async ({ fileName }) => {
      if (!options.reportPdf) return { ok: true, data: { available: false, saved: false } };
      try {
        return { ok: true, data: { available: true, saved: (await options.reportPdf(fileName)) === 'saved' } };
      } catch (error) {
        log.error(`The report could not be saved as a PDF: ${describeError(error)}`);
        return failure({ kind: 'server', code: 'pdf_failed', message: describe(wording(), 'bridge.internal') });
      }
    }),
    verifyManagerPin: op(payloads.verifyPinPayload, (payload) => approval.verify(payload)),
    setManagerPin: op(payloads.setPinPayload, (payload) => approval.set(payload)),
    endManagerApproval: op(payloads.noPayload, () => approval.end()),
    shopCheck: op(payloads.shopRewardPayload, async ({ reward_code }) => {
      const ledger = shop.running();
      if (ledger === null) return { ok: true, data: noShop };
      try {
        const { claimedBy, unreachable } = await ledger.check(reward_code, { waitMs: shopCheckWaitMs });
        const holder = claimedBy && { till: claimedBy.till, at: claimedBy.at };
        return { ok: true, data: { enabled: true, claimedBy: holder, unreachable } };
      } catch (error) {
        log.warn(`The other tills of the shop could not be asked (${errorKind(error)}); this till decides alone.`);
        return { ok: true, data: noShop };
      }
    }),
    shopClaim: op(payloads.shopRewardPayload, async ({ reward_code }) => {
      const ledger = shop.running();
      const alone = { ok: true as const, data: { enabled: false, winner: null, won: true, unreachable: [] } };
      if (ledger === null) return alone;
      try {
        const { winner, won, unreachable } = await ledger.claim(reward_code);
        return { ok: true, data: { enabled: true, winner: { till: winner.till, at: winner.at }, won, unreachable } };
      } catch (error) {
        log.warn(`The claim could not be kept in the shop ledger (${errorKind(error)}); this till decides alone.`);
        return alone;
      }
    }),
    shopSettle: op(payloads.shopRewardPayload, async ({ reward_code }) => {
      shop.running()?.settle(reward_code);
      return { ok: true, data: null };
    }),
    shopHolder: op(payloads.shopRewardPayload, async ({ reward_code }) => {
      const held = shop.running()?.holder(reward_code) ?? null;
      return { ok: true, data: { holder: held && { till: held.till, at: held.at } } };
    }),
    reportActivity: op(payloads.tillActivityPayload, async (report) => {
      activity.report(report, now());
      return { ok: true, data: { policyRevision } };
    }),
    showOnDisplay: op(displayModelSchema, async (model) => ({ ok: true, data: { displays: display.show(model) } })),
    listScreens: op(payloads.noPayload, async () => ({ ok: true, data: options.screens?.() ?? [] })),
  };

  const handlers = {} as BridgeHandlers;
  for (const operation of Object.keys(CHANNELS) as Operation[]) {
    const run = operations[operation];
    handlers[CHANNELS[operation]] = async (sender, payload) => {
      if (!isFromOrigin(sender?.url, appOrigin)) {
        log.warn(`Refused ${operation}: the request did not come from the app's own page.`);
        return failure({
          kind: 'unauthorized',
          code: 'forbidden_sender',
          message: describe(wording(), 'bridge.forbiddenSender'),
        });
      }
      try {
        return scrubSecrets(await run(payload), secrets());
      } catch (error) {
        if (error instanceof ResultTooDeepError) {
          log.warn(`${operation}: ${error.message}`);
          return failure({ kind: 'bad_response', message: describe(wording(), 'bridge.tooDeep') });
        }
        log.error(`${operation} failed inside the till app: ${describeError(error)}`);
        return failure({ kind: 'server', code: 'internal_error', message: describe(wording(), 'bridge.internal') });
      }
    };
  }

  return {
    handlers,
    log,
    links,
    callbackDeliveries: () => Promise.all([...deliveries]),
    shopLedgerSettled: () => shop.settled(),
    policy: policyReading,
    reloadPolicy: () => policyWatch?.reload() ?? Promise.resolve(NO_POLICY),
    activity,
    display,
    async dispose() {
      policyWatch?.stop();
      await shop.stop();
      await demo.shutdown();
    },
  };
}

function failure(error: BridgeError): Failure {
  return { ok: false, error };
}

function validationFailure(fields: Record<string, string>, wording: Wording): Failure {
  return failure({ kind: 'validation', message: describeFieldErrors(fields, wording), fields });
}

function quietConsoleLogger(): Logger {
  return { info: () => undefined, warn: (m) => console.warn(m), error: (m) => console.error(m) };
}
