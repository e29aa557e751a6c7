import { defineStore } from 'pinia';
import { computed, markRaw, ref, shallowRef } from 'vue';
import type { Program } from '../../common/contract';
import {
  createOfflineServices,
  type ConnectionSnapshot,
  type JournalEntry,
  type OfflineServices,
  type OfflineServicesOptions,
  type OutboxCounts,
  type OutboxItem,
  type RefreshProgress,
  type ReplayPause,
  type ReplayRun,
} from '../offline';
import { exportedJournalCsv } from '../lib/journal-csv';
import { replayPauseWords } from '../lib/outbox-words';
import { useCashierStore } from './cashier';
import { useErrorLogStore } from './error-log';
import { useManagerPinStore } from './manager-pin';
import { exportFileName, saveCsv } from './export-file';
import type { FailedExport, SavedExport } from '../lib/export-outcome';
import { useSettingsStore } from './settings';
import { till } from './till';

/**
 * Options the offline core is opened with, beyond the bridge and the settings. The app
 * uses the defaults (its own IndexedDB database, `navigator.locks`, the window's
 * online/offline hints); store tests give each test its own database.
 */
let serviceOverrides: Partial<Omit<OfflineServicesOptions, 'api' | 'settings'>> = {};

export function setOfflineServiceOverrides(overrides: Partial<Omit<OfflineServicesOptions, 'api' | 'settings'>>): void {
  serviceOverrides = overrides;
}

/** How often the outbox is re-read, for changes made in another window. */
const OUTBOX_POLL_MS = 5_000;

/** "Retry now" waits this long, at most, for a replay already running to finish. */
const LOCK_WAIT_TRIES = 10;
const LOCK_WAIT_MS = 300;

const NO_COUNTS: OutboxCounts = { pending: 0, failed: 0, conflict: 0, done: 0 };

/**
 * The cache, the outbox and the connection monitor, as the screens see them. The other
 * stores reach the service through `services()` so that, when it cannot be reached, the
 * cache (or the outbox) answers instead.
 */
export const useOfflineStore = defineStore('offline', () => {
  const settings = useSettingsStore();
  const cashier = useCashierStore();

  let instance: OfflineServices | null = null;
  let started = false;
  const unsubscribers: Array<() => void> = [];

  /** The offline core, opened on first use (reading `window.till` only then). */
  function services(): OfflineServices {
    if (!instance) {
      const core = markRaw(
        createOfflineServices({
          api: till(),
          settings: () => ({
            defaultCountry: settings.defaultCountry,
            branchId: settings.branchId,
            allowOfflineRedemption: settings.allowOfflineRedemption,
            shopRedeemWhenSplit: settings.shopRedeemWhenSplit,
            ...(settings.cacheRefresh ? { refreshSchedule: settings.cacheRefresh } : {}),
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
      // A write-through that failed costs only a cache miss later, but the log must show it.
      const errorLog = useErrorLogStore();
      core.onCacheWriteFailure(({ what, error }) => errorLog.report(error, `offline cache: ${what}`));
    }
    return instance;
  }

  const connection = ref<ConnectionSnapshot | null>(null);
  const counts = ref<OutboxCounts>({ ...NO_COUNTS });
  const pausedAs = ref<ReplayPause | null>(null);
  /** The queue's pause, its words in the interface language (a language switch re-words them). */
  const pause = computed<ReplayPause | null>(() =>
    pausedAs.value ? { ...pausedAs.value, message: replayPauseWords(pausedAs.value) } : null,
  );
  const refresh = ref<RefreshProgress | null>(null);
  const items = shallowRef<OutboxItem[]>([]);
  const journal = shallowRef<JournalEntry[]>([]);
  const replaying = ref(false);
  /** How far this till's clock is off the service's (ms, service minus till); null while unknown. */
  const tillClockOffMs = ref<number | null>(null);
  const lastReplay = ref<{ at: string; run: ReplayRun } | null>(null);

  const isOffline = computed(() => connection.value?.state === 'offline');
  const needsAttention = computed(() => counts.value.conflict + counts.value.failed);

  async function reloadCounts(): Promise<void> {
    const core = services();
    const [nextCounts, nextPause, clock] = await Promise.all([core.counts(), core.replayPause(), core.serviceClock()]);
    counts.value = nextCounts;
    pausedAs.value = nextPause;
    // Only an offset larger than the estimate's own uncertainty is worth telling.
    tillClockOffMs.value =
      clock &&
      clock.tillClockOffMs !== null &&
      clock.uncertaintyMs !== null &&
      Math.abs(clock.tillClockOffMs) > clock.uncertaintyMs
        ? clock.tillClockOffMs
        : null;
  }

  /** Everything the outbox screen shows. */
  async function loadOutbox(): Promise<void> {
    const core = services();
    const [nextItems, nextJournal] = await Promise.all([core.outboxItems(), core.journal()]);
    items.value = nextItems;
    journal.value = nextJournal;
    await reloadCounts();
  }

  /**
   * Starts the cache refresh, the connection monitor and the replay loop. Called once the
   * till is configured; the cashier never waits for any of it.
   */
  function start(): void {
    if (started) return;
    started = true;
    const core = services();
    unsubscribers.push(core.onOutboxChange(() => void loadOutbox()));
    // Another window of this till (sharing the database) changes the outbox without telling
    // this one: a light re-read keeps the counts true.
    const poll = setInterval(() => void loadOutbox(), OUTBOX_POLL_MS);
    unsubscribers.push(() => clearInterval(poll));
    core.start();
    void loadOutbox();
  }

  function stop(): void {
    if (!started) return;
    started = false;
    for (const unsubscribe of unsubscribers.splice(0)) unsubscribe();
    instance?.stop();
  }

  /**
   * The cashier asked for it: probe the service now, let waiting items go at once instead
   * of at the end of their back-off, and replay.
   */
  async function retryNow(): Promise<ReplayRun | null> {
    if (replaying.value) return null;
    replaying.value = true;
    try {
      const core = services();
      await core.probeConnectionNow();
      connection.value = core.connectionNow();
      if (pause.value) await core.resumeReplay();
      // A person pressed the button: the back-off does not apply.
      await core.clearBackoff();
      // Coming back online starts a background replay at once; wait for it rather than
      // report "someone else is sending" for our own till.
      let run = await core.replayNow();
      for (let tries = 0; !run.ran && tries < LOCK_WAIT_TRIES; tries++) {
        await new Promise((resolve) => setTimeout(resolve, LOCK_WAIT_MS));
        run = await core.replayNow();
      }
      lastReplay.value = { at: new Date().toISOString(), run };
      await loadOutbox();
      return run;
    } finally {
      replaying.value = false;
    }
  }

  /** A person reviewed a failure or conflict: it moves to the journal, never silently. */
  async function acknowledge(seq: number, subject: string | null = null): Promise<boolean> {
    // A person takes responsibility for a failure or conflict: a manager, once a PIN is set.
    if (!(await useManagerPinStore().ask('acknowledge', subject))) return false;
    const done = await services().acknowledge(seq);
    await loadOutbox();
    return done;
  }

  /** Puts a failed item back in the queue (after its cause was fixed). */
  async function retryItem(seq: number): Promise<boolean> {
    const done = await services().retry(seq);
    await loadOutbox();
    return done;
  }

  /** After the key was changed in Settings: a paused queue may go again. */
  async function resumeAfterKeyChange(): Promise<void> {
    await services().resumeAfterKeyChange();
    await reloadCounts();
  }

  /** The header's own probe: a lost network is noticed even while nobody calls the service. */
  function noteReachable(reachable: boolean, reason?: string): void {
    if (!started) return;
    services().noteReachable(reachable, reason);
  }

  /** Saves the journal as CSV through the main process; null when the manager or the save dialog cancelled. */
  async function exportJournal(): Promise<SavedExport | FailedExport | null> {
    return saveCsv(exportFileName('journal', 'csv'), exportedJournalCsv(await services().journalExport()));
  }

  /** Programmes this till has seen on cached customers' cards, for choosing its own. */
  async function programmesSeen(): Promise<Program[]> {
    return services().programmesSeen();
  }

  return {
    services,
    connection,
    counts,
    pause,
    refresh,
    items,
    journal,
    replaying,
    lastReplay,
    tillClockOffMs,
    isOffline,
    needsAttention,
    start,
    stop,
    loadOutbox,
    retryNow,
    retryItem,
    acknowledge,
    resumeAfterKeyChange,
    noteReachable,
    exportJournal,
    programmesSeen,
  };
});
