import { computed, ref, shallowRef } from 'vue';
import type { FailedExport, SavedExport } from '../../lib/export-outcome';
import { exportedJournalCsv } from '../../lib/journal-csv';
import { replayPauseWords } from '../../lib/outbox-words';
import {
  type JournalEntry,
  type OfflineServices,
  type OutboxCounts,
  type OutboxItem,
  type Reconciliation,
  type ReplayPause,
} from '../../offline';
import { exportFileName, saveCsv } from '../export-file';
import { useManagerPinStore } from '../manager-pin';

const NO_COUNTS: OutboxCounts = { pending: 0, failed: 0, conflict: 0, done: 0 };

/**
 * The offline store's outbox, as its screen and the header show it: the counts, the queue's
 * pause in the cashier's words, the items and the journal, the till's clock against the
 * service's, and what a person does to an item (acknowledge, retry) or to the journal (export).
 */
export function useOutboxView(services: () => OfflineServices) {
  const counts = ref<OutboxCounts>({ ...NO_COUNTS });
  const pausedAs = ref<ReplayPause | null>(null);
  /** The queue's pause, its words in the interface language (a language switch re-words them). */
  const pause = computed<ReplayPause | null>(() =>
    pausedAs.value ? { ...pausedAs.value, message: replayPauseWords(pausedAs.value) } : null,
  );
  const items = shallowRef<OutboxItem[]>([]);
  const journal = shallowRef<JournalEntry[]>([]);
  /** How far this till's clock is off the service's (ms, service minus till); null while unknown. */
  const tillClockOffMs = ref<number | null>(null);
  const needsAttention = computed(() => counts.value.conflict + counts.value.failed);
  /**
   * What the last reconciliation with the main process's copy put back that this browser had
   * lost, until the cashier has seen it; null when nothing was.
   */
  const restored = shallowRef<Reconciliation | null>(null);

  function noteReconciled(outcome: Reconciliation): void {
    if (outcome.restoredItems > 0 || (outcome.newDatabase && outcome.restoredEntries > 0)) restored.value = outcome;
  }

  function dismissRestored(): void {
    restored.value = null;
  }

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

  /** Saves the journal as CSV through the main process; null when the manager or the save dialog cancelled. */
  async function exportJournal(): Promise<SavedExport | FailedExport | null> {
    return saveCsv(exportFileName('journal', 'csv'), exportedJournalCsv(await services().journalExport()));
  }

  return {
    counts,
    pause,
    items,
    journal,
    tillClockOffMs,
    needsAttention,
    restored,
    noteReconciled,
    dismissRestored,
    loadOutbox,
    acknowledge,
    retryItem,
    resumeAfterKeyChange,
    exportJournal,
  };
}
