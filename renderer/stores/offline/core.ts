import { markRaw, ref } from 'vue';
import {
  createOfflineServices,
  type ConnectionSnapshot,
  type DataKeyProblem,
  type OfflineServices,
  type OfflineServicesOptions,
  type RefreshProgress,
} from '../../offline';
import { useCashierStore } from '../cashier';
import { useErrorLogStore } from '../error-log';
import { useSettingsStore } from '../settings';
import { till } from '../till';
import { reportCacheFacts } from './cache-report';

/** Options the offline core is opened with beyond the bridge and the settings. */
export type OfflineServiceOverrides = Partial<Omit<OfflineServicesOptions, 'api' | 'settings'>>;

/**
 * Options the offline core is opened with, beyond the bridge and the settings. The app
 * uses the defaults (its own IndexedDB database, `navigator.locks`, the window's
 * online/offline hints); store tests give each test its own database.
 */
let serviceOverrides: OfflineServiceOverrides = {};

export function setOfflineServiceOverrides(overrides: OfflineServiceOverrides): void {
  serviceOverrides = overrides;
}

/**
 * The offline store's core: the offline services, opened on first use (reading `window.till`
 * only then) with the till's settings and cashier, and the two feeds the header follows from
 * that moment on, the connection and the cache refresh.
 */
export function useOfflineCore() {
  const settings = useSettingsStore();
  const cashier = useCashierStore();

  let instance: OfflineServices | null = null;
  const connection = ref<ConnectionSnapshot | null>(null);
  const refresh = ref<RefreshProgress | null>(null);
  /** Why the database started blank for want of its key (db/key-at-open.ts); null when it did not. */
  const keyProblem = ref<DataKeyProblem | null>(null);

  function services(): OfflineServices {
    if (instance) return instance;
    const core = markRaw(
      createOfflineServices({
        api: till(),
        settings: () => ({
          defaultCountry: settings.defaultCountry,
          branchId: settings.branchId,
          allowOfflineRedemption: settings.allowOfflineRedemption,
          shopRedeemWhenSplit: settings.shopRedeemWhenSplit,
          ...(settings.cacheRefresh ? { refreshSchedule: settings.cacheRefresh } : {}),
          ...(settings.settings?.journalPersonalDays
            ? { journalPersonalDays: settings.settings.journalPersonalDays }
            : {}),
        }),
        ...(typeof window !== 'undefined' ? { events: window } : {}),
        cashier: () => cashier.current,
        ...serviceOverrides,
      }),
    );
    instance = core;
    // The header follows the monitor from the first call on, started or not.
    connection.value = core.connectionNow();
    refresh.value = core.refreshProgress();
    core.onConnectionChange((snapshot) => (connection.value = snapshot));
    core.onRefreshProgress((progress) => (refresh.value = progress));
    reportCacheFacts(core);
    core.onDataKeyProblem((problem) => (keyProblem.value = problem));
    // A write-through that failed costs only a cache miss later, but the log must show it.
    const errorLog = useErrorLogStore();
    core.onCacheWriteFailure(({ what, error }) => errorLog.report(error, `offline cache: ${what}`));
    return core;
  }

  /** The core if it was opened, without opening it (stopping needs nothing opened). */
  function opened(): OfflineServices | null {
    return instance;
  }

  /** Deletes the database, opening the core first if need be (forgetting the till's data). */
  async function deleteDatabase(): Promise<void> {
    await services().deleteDatabase();
    instance = null;
  }

  return { services, opened, connection, refresh, keyProblem, deleteDatabase };
}
