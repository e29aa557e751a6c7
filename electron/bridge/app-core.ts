import { hostname } from 'node:os';
import { join } from 'node:path';
import type { ConnectionMode } from '../../common/contract';
import { resolveLanguage } from '../../common/interface-language';
import { openTillKeys } from '../storage/till-keys';
import { openSettings } from '../storage/settings';
import { storageOperations } from '../storage/storage-operations';
import { openDemoMode } from '../demo/demo-mode';
import { demoLeaver, demoOperations } from '../demo/demo-operations';
import { serviceTargetOf } from '../demo/service-target';
import { createServiceConnection } from '../service/service-connection';
import { serviceOperations } from '../service/service-operations';
import { createRedactingLogger, describeError, quietConsoleLogger } from '../log/log';
import { latePersonalValues } from '../log/personal-values';
import { linkOperations } from '../links/link-operations';
import type { Wording } from '../messages';
import { shopOperations } from '../shop-ledger/shop-operations';
import { createManagedSettings } from '../policy/managed-settings';
import { followPolicy } from '../policy/policy-follower';
import { createActivityBoard } from '../updates/till-activity';
import { activityOperations } from '../updates/activity-operations';
import { customerDisplay } from '../display/display-operations';
import { forgetOperations } from '../work-copy/forget-operations';
import { openTillWork } from '../work-copy/till-work-copy';
import { joinOperations } from '../validation/bridge-operation';
import { guardedHandlers } from './guarded-handlers';
import { createManagerApproval } from './manager-approval';
import { openManagerPinGuard } from './manager-pin-guard';
import { managerOperations } from './manager-operations';
import { pageOutputOperations } from './page-output-operations';
import { errorKind } from './shop-ledger-switch';
import { followShopSettings, shopConfigOf } from './shop-config';
import { systemLanguageTags } from './system-languages';
import { tillStateOf } from './till-state';
import { DEFAULT_SHOP_LEDGER_HOSTS, DEFAULT_TIMEOUT_MS, type AppCore, type AppCoreOptions } from './app-core-options';
import { linkNeedsOf } from './link-needs';
import { openHealth } from '../health/health-wiring';

export { LAN_HOSTS, type AppCore, type AppCoreOptions } from './app-core-options';
export type { BridgeHandler, BridgeHandlers, BridgeSender } from './guarded-handlers';

/**
 * The main process without Electron: settings, the key vault, demo mode and the loyalty
 * API client behind one table of bridge handlers. `main.ts` registers the table with
 * `ipcMain.handle`; tests and the end-to-end harness call it directly.
 *
 * The composition root only: it opens what the till keeps, wires the subsystems together, and
 * joins each subsystem's operations (its `*-operations.ts`) into one table (`joinOperations`,
 * which throws on a name defined twice). A new operation goes in its subsystem. Every handler
 * checks the sender, validates its payload, answers with data, never throws, and no answer
 * carries the API key (guarded-handlers.ts).
 */
export async function createAppCore(options: AppCoreOptions): Promise<AppCore> {
  const { userDataDir, cipher } = options;
  const timeoutMs = options.requestTimeoutMs ?? DEFAULT_TIMEOUT_MS;

  let secrets: () => string[] = () => [];
  const personal = latePersonalValues();
  const log = createRedactingLogger(options.log ?? quietConsoleLogger(), () => secrets(), personal.now);

  const ownSettings = await openSettings({ file: join(userDataDir, 'settings.json'), log });
  // The policy is read before anything uses the settings, so a locked service address is
  // the one the first request goes to.
  const policy = await followPolicy({
    ...(options.policySource ? { source: options.policySource } : {}),
    ...(options.policyPollMs ? { pollMs: options.policyPollMs } : {}),
    log,
  });
  const settings = createManagedSettings({
    own: ownSettings,
    policy: policy.applied,
    computerName: options.computerName ?? hostname,
  });
  const activity = createActivityBoard();
  const { vault, dataKey } = await openTillKeys({ folder: userDataDir, cipher, log });
  const demo = await openDemoMode({ dir: join(userDataDir, 'demo'), log });
  const work = await openTillWork({ folder: userDataDir, dataKey, log, settings, wording: () => wording() });
  const { copy: workCopy, forgetting } = work;
  const pinGuard = await openManagerPinGuard({ ...options, policy: policy.reading, log });
  secrets = () => [vault.key(), demo.running()?.apiKey, ...dataKey.secrets()].filter((s): s is string => !!s);

  if (demo.isOn()) {
    // Remembered from the last run; failing here is not fatal, the next call retries.
    await demo.start().catch((error) => log.error(`The demo service could not be restarted: ${describeError(error)}`));
  }

  const mode = (): ConnectionMode =>
    demo.isOn() ? 'demo' : settings.get().baseUrl && vault.key() ? 'service' : 'unconfigured';
  const systemLanguages = () => systemLanguageTags(options.systemLanguages?.() ?? []);
  // The interface's language right now, resolved as the renderer resolves it: the main
  // process's own messages (field errors, refused links) are worded in it.
  const wording = (): Wording => {
    const { language, arabicDigits } = settings.get();
    return { language: resolveLanguage(language, systemLanguages()), digits: arabicDigits };
  };
  // The till's health (health.json, --health's facts), and the personal values the log is cleaned of.
  const health = await openHealth(options, { settings, mode, vault, secrets, work, policy, log, wording });
  personal.follow(health.personal);
  const state = tillStateOf({ settings, vault, dataKey, pinGuard, mode, systemLanguages, wording, policy, forgetting });
  const approval = createManagerApproval({
    guard: pinGuard,
    log,
    wording,
    state,
    keySet: () => vault.status().set,
    settings: () => settings.get(),
  });
  const connection = createServiceConnection({
    target: serviceTargetOf({ demo, baseUrl: () => settings.get().baseUrl, apiKey: () => vault.key(), log, wording }),
    timeoutMs,
    log,
    ...(options.serviceClock ? { clock: options.serviceClock } : {}),
    ...(options.retrySleep ? { retrySleep: options.retrySleep } : {}),
  });

  // The shop ledger follows the settings (shop-config.ts), and so whatever the policy locks.
  const shopLedger = followShopSettings({
    config: () => shopConfigOf(settings.get(), vault.key(), mode()),
    hosts: options.shopLedgerHosts ?? DEFAULT_SHOP_LEDGER_HOSTS,
    folder: userDataDir,
    ...(options.shopDiscovery ? { discovery: options.shopDiscovery } : {}),
    ...(options.shopLedgerAskTimeoutMs ? { askTimeoutMs: options.shopLedgerAskTimeoutMs } : {}),
    log,
  });
  // A policy that changes the service, the branch or the ledger applies without a restart.
  const changed = shopLedger.follow;
  policy.onChange(changed);

  const linking = linkOperations({ ...linkNeedsOf(options, settings, () => secrets()), log, wording });
  const configured = demoLeaver({
    demo,
    configured: () => !!settings.get().baseUrl && !!vault.key(),
    left: () => connection.forget(),
    log,
  });

  const display = customerDisplay({ log, wording, page: linking.page, shell: options });
  const handlers = guardedHandlers(
    joinOperations(
      serviceOperations({
        connection,
        wording,
        mode,
        timeoutMs,
        branchId: () => settings.get().branchId,
        knownBaseUrl: () => demo.running()?.baseUrl ?? settings.get().baseUrl,
        heard: (reachable) => health.health.heard(reachable),
      }),
      storageOperations({ settings, vault, dataKey, approval, forgetting, state, configured, changed, wording }),
      demoOperations({ demo, settings, mode, refusal: approval.refusal, state, changed, log, wording }),
      linking.operations,
      display.operations,
      managerOperations({ approval, wording }),
      pageOutputOperations({ refusal: () => approval.refusal('exportJournal'), shell: options, log, wording }),
      shopOperations({
        running: () => shopLedger.shop.running(),
        checkWaitMs: options.shopCheckWaitMs,
        relay: shopLedger.reports,
        refusal: approval.refusal,
        errorKind,
        log,
        wording,
      }),
      activityOperations({ activity, now: options.now ?? Date.now, policyRevision: policy.revision, wording }),
      work.operations,
      forgetOperations({ forgetting, refusal: approval.refusal, state, wording }),
      health.operations(() => approval.refusal('saveSupportFile'), display.hub),
    ),
    { appOrigin: options.appOrigin, log, wording, secrets: () => secrets() },
  );

  return {
    handlers,
    log,
    links: linking.links,
    page: linking.page,
    display: display.hub,
    workCopy,
    health: health.health,
    activity,
    callbackDeliveries: linking.deliveries,
    shopLedgerSettled: () => shopLedger.shop.settled(),
    policy: policy.reading,
    reloadPolicy: policy.reload,
    async dispose() {
      policy.stop();
      await shopLedger.stop();
      await demo.shutdown();
      await health.health.stop();
      await work.close();
    },
  };
}
