import { join } from 'node:path';
import { getCountryCallingCode, type CountryCode } from 'libphonenumber-js';
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
} from './contract';
import type { KeyCipher } from './key-cipher';
import { openVault } from './vault';
import { openSettings } from './settings';
import { openDemoMode } from './demo-mode';
import { createLoyaltyApi, type LoyaltyApi, type ServiceTarget } from './loyalty-api';
import { createRedactingLogger, describeError, type Logger } from './log';
import { scrubSecrets } from './scrub-secrets';
import { isFromOrigin } from './sender-origin';
import { describeFieldErrors, fieldErrors } from './validation-errors';
import * as payloads from './bridge-payloads';
import { createRendererErrorLog } from './renderer-error-log';

export type BridgeSender = { url: string } | null | undefined;
export type BridgeHandler = (sender: BridgeSender, payload: unknown) => Promise<unknown>;
export type BridgeHandlers = Record<Channel, BridgeHandler>;

export interface AppCore {
  handlers: BridgeHandlers;
  /** Stops the demo sandbox, if one runs; the remembered mode stays. */
  dispose(): Promise<void>;
  /** The core's redacting logger, for the shell's own messages. */
  log: Logger;
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
}

const DEFAULT_TIMEOUT_MS = 8000;

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

  const settings = await openSettings({ file: join(userDataDir, 'settings.json'), log });
  const vault = await openVault({ file: join(userDataDir, 'api-key.bin'), cipher, log });
  const demo = await openDemoMode({ dir: join(userDataDir, 'demo'), log });
  secrets = () => [vault.key(), demo.running()?.apiKey].filter((s): s is string => !!s);

  if (demo.isOn()) {
    // Remembered from the last run; failing here is not fatal, the next call retries.
    await demo.start().catch((error) => log.error(`The demo service could not be restarted: ${describeError(error)}`));
  }

  const mode = () => (demo.isOn() ? 'demo' : settings.get().baseUrl && vault.key() ? 'service' : 'unconfigured');
  const state = (): TillState => ({ settings: settings.get(), key: vault.status(), mode: mode() });

  let cached: { id: string; api: LoyaltyApi } | null = null;
  /** The client for whatever the till talks to right now, or why there is none. */
  async function currentApi(): Promise<{ api: LoyaltyApi; target: ServiceTarget } | Failure> {
    let target: ServiceTarget;
    if (demo.isOn()) {
      try {
        target = await demo.start();
      } catch (error) {
        log.error(`The demo service could not be started: ${describeError(error)}`);
        return failure({ kind: 'offline', code: 'demo_unavailable', message: 'The demo service could not be started. See the log for details.' });
      }
    } else {
      const baseUrl = settings.get().baseUrl;
      const apiKey = vault.key();
      if (!baseUrl || !apiKey) {
        return failure({
          kind: 'unauthorized',
          code: 'not_configured',
          message: 'No loyalty service is set up yet: enter the service URL and API key in Settings, or try the demo.',
        });
      }
      target = { baseUrl, apiKey };
    }
    const id = `${target.baseUrl}\n${target.apiKey}`;
    if (cached?.id !== id) cached = { id, api: createLoyaltyApi(target, { timeoutMs, log }) };
    return { api: cached.api, target };
  }

  /** Local phone numbers are read with the till's country unless the caller said otherwise. */
  function withCountry<T extends { phone?: string; country_code?: string }>(body: T): T {
    if (!body.phone) return body;
    if (body.phone.startsWith('00')) return { ...body, phone: `+${body.phone.slice(2)}` };
    if (body.phone.startsWith('+') || body.country_code) return body;
    const country = settings.get().defaultCountry as CountryCode;
    return { ...body, country_code: getCountryCallingCode(country) };
  }

  /** Leaving demo mode happens when a real service has just been fully configured. */
  async function leaveDemoIfConfigured(): Promise<void> {
    if (demo.isOn() && settings.get().baseUrl && vault.key()) {
      await demo.turnOff();
      cached = null;
      log.info('Switched from the demo to the configured loyalty service.');
    }
  }

  const reportRendererError = createRendererErrorLog(log);

  // Each operation: the schema its payload must match, and what to do with a valid payload.
  type Run = (payload: unknown) => Promise<Result<unknown> | Failure>;
  const op =
    <S extends z.ZodType>(schema: S, run: (payload: z.output<S>) => Promise<Result<unknown> | Failure>): Run =>
    async (payload) => {
      const parsed = schema.safeParse(payload);
      return parsed.success ? run(parsed.data) : validationFailure(fieldErrors(parsed.error));
    };
  const viaApi =
    <P>(call: (api: LoyaltyApi, payload: P) => Promise<Result<unknown>>) =>
    async (payload: P): Promise<Result<unknown> | Failure> => {
      const current = await currentApi();
      return 'api' in current ? call(current.api, payload) : current;
    };

  const operations: Record<Operation, Run> = {
    searchCustomers: op(
      payloads.searchCustomersPayload,
      viaApi((api, query: z.output<typeof payloads.searchCustomersPayload>) => api.searchCustomers(withCountry(query))),
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
      viaApi((api, body: z.output<typeof payloads.registerCustomerPayload>) => api.registerCustomer(withCountry(body))),
    ),
    updateCustomer: op(
      payloads.updateCustomerPayload,
      viaApi((api, { id, ...body }: z.output<typeof payloads.updateCustomerPayload>) => api.updateCustomer(id, body)),
    ),
    checkReward: op(
      payloads.checkRewardPayload,
      viaApi((api, body: z.output<typeof payloads.checkRewardPayload>) => api.checkReward(withCountry(body))),
    ),
    redeemReward: op(
      payloads.redeemRewardPayload,
      viaApi((api, body: z.output<typeof payloads.redeemRewardPayload>) => {
        const branchId = settings.get().branchId;
        const withBranch = body.branch_id === undefined && branchId ? { ...body, branch_id: branchId } : body;
        return api.redeemReward(withCountry(withBranch));
      }),
    ),
    getState: op(payloads.noPayload, async () => ({ ok: true, data: state() })),
    updateSettings: op(payloads.anyPayload, async (patch) => {
      const outcome = await settings.update(patch);
      if (!outcome.ok) return validationFailure(outcome.fields);
      if (isRecord(patch) && typeof patch.baseUrl === 'string') await leaveDemoIfConfigured();
      return { ok: true, data: state() };
    }),
    setApiKey: op(payloads.setApiKeyPayload, async ({ apiKey }) => {
      const outcome = await vault.store(apiKey);
      if (!outcome.ok) return validationFailure({ apiKey: outcome.message });
      await leaveDemoIfConfigured();
      return { ok: true, data: state() };
    }),
    clearApiKey: op(payloads.noPayload, async () => {
      await vault.clear();
      return { ok: true, data: state() };
    }),
    startDemo: op(payloads.noPayload, async () => {
      try {
        await demo.start();
      } catch (error) {
        log.error(`The demo service could not be started: ${describeError(error)}`);
        return failure({ kind: 'server', code: 'demo_unavailable', message: 'The demo could not be started. See the log for details.' });
      }
      // The demo knows which programme its key earns on; a programme the person chose stays.
      if (settings.get().programId === null) {
        const chosen = await settings.update({ programId: await demo.programId() });
        if (!chosen.ok) log.warn(`The demo's programme could not be saved as this till's: ${describeFieldErrors(chosen.fields)}`);
      }
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
      if (!probe.ok) status.error = probe.error;
      status.checkedAt = new Date().toISOString();
      return { ok: true, data: status };
    }),
    reportError: op(payloads.reportErrorPayload, async (report) => {
      reportRendererError(report);
      return { ok: true, data: null };
    }),
  };

  const handlers = {} as BridgeHandlers;
  for (const operation of Object.keys(CHANNELS) as Operation[]) {
    const run = operations[operation];
    handlers[CHANNELS[operation]] = async (sender, payload) => {
      if (!isFromOrigin(sender?.url, appOrigin)) {
        log.warn(`Refused ${operation}: the request did not come from the app's own page.`);
        return failure({ kind: 'unauthorized', code: 'forbidden_sender', message: "Refused: the request did not come from the till's own page." });
      }
      try {
        return scrubSecrets(await run(payload), secrets());
      } catch (error) {
        log.error(`${operation} failed inside the till app: ${describeError(error)}`);
        return failure({ kind: 'server', code: 'internal_error', message: 'Something went wrong inside the till app. See the log for details.' });
      }
    };
  }

  return {
    handlers,
    log,
    async dispose() {
      await demo.shutdown();
    },
  };
}

function failure(error: BridgeError): Failure {
  return { ok: false, error };
}

function validationFailure(fields: Record<string, string>): Failure {
  return failure({ kind: 'validation', message: describeFieldErrors(fields), fields });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function quietConsoleLogger(): Logger {
  return { info: () => undefined, warn: (m) => console.warn(m), error: (m) => console.error(m) };
}
