import { defineStore } from 'pinia';
import { computed, ref, shallowRef } from 'vue';
import type { ShiftReport } from '../offline';
import { useManagerPinStore } from './manager-pin';
import { exportFileName, saveCsv } from './export-file';
import type { FailedExport, SavedExport } from '../lib/export-outcome';
import { useOfflineStore } from './offline';
import { till } from './till';

/** The shift starts, unless a manager says otherwise, at the start of today on the till's clock. */
export function startOfToday(now = new Date()): Date {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate());
}

/** The periods a manager picks with one tap: this shift (today so far), yesterday, or a chosen range. */
export type ReportPeriod = 'shift' | 'yesterday' | 'chosen';
export const REPORT_PERIODS: readonly ReportPeriod[] = ['shift', 'yesterday', 'chosen'];

/** A preset's start and end on the till's clock; the end null: up to now. */
export function periodBounds(period: 'shift' | 'yesterday', now = new Date()): { since: Date; until: Date | null } {
  const today = startOfToday(now);
  if (period === 'shift') return { since: today, until: null };
  return { since: new Date(today.getFullYear(), today.getMonth(), today.getDate() - 1), until: today };
}

/**
 * The end-of-shift report (F7): its period (a preset, or a chosen start and end), the figures
 * from the offline core, and its outputs: print, "Save as PDF" through the main process (the
 * browser's print dialog where the shell has no PDF of its own) and the CSV of the same
 * entries, behind the manager PIN like the journal's.
 */
export const useShiftReportStore = defineStore('shiftReport', () => {
  const offline = useOfflineStore();
  const period = ref<ReportPeriod>('shift');
  const since = ref<Date>(startOfToday());
  /** Null: up to now. */
  const until = ref<Date | null>(null);
  const report = shallowRef<ShiftReport | null>(null);
  const loading = ref(false);
  const failed = ref(false);
  /** The chosen end is before the start: said beside the field, the report left as it was. */
  const endBeforeStart = ref(false);
  const untilIso = computed(() => until.value?.toISOString());

  async function load(): Promise<void> {
    loading.value = true;
    failed.value = false;
    try {
      report.value = await offline.services().shiftReport(since.value.toISOString(), untilIso.value);
    } catch (error) {
      console.error('The shift report could not be read', error);
      failed.value = true;
    } finally {
      loading.value = false;
    }
  }

  /** A preset: its bounds at once; "chosen" keeps the period on show for the manager to change. */
  async function choose(next: ReportPeriod): Promise<void> {
    period.value = next;
    endBeforeStart.value = false;
    if (next === 'chosen') {
      until.value ??= new Date();
      return;
    }
    const bounds = periodBounds(next);
    since.value = bounds.since;
    until.value = bounds.until;
    await load();
  }

  /** A chosen start or end (an invalid date is ignored; an end before the start is refused). */
  async function chooseRange(next: { since?: Date; until?: Date }): Promise<void> {
    const start = next.since ?? since.value;
    const end = next.until ?? until.value;
    if (Number.isNaN(start.getTime()) || (end && Number.isNaN(end.getTime()))) return;
    period.value = 'chosen';
    endBeforeStart.value = end !== null && end.getTime() <= start.getTime();
    if (endBeforeStart.value) return;
    since.value = start;
    until.value = end;
    await load();
  }

  /** Saves the CSV of the report's entries through the main process; null when cancelled. */
  async function exportCsv(): Promise<SavedExport | FailedExport | null> {
    return saveCsv(
      exportFileName('shift', 'csv'),
      await offline.services().exportShiftCsv(since.value.toISOString(), untilIso.value),
    );
  }

  /**
   * "Save as PDF": the main process prints the page, once the manager approved; where it
   * cannot (the browser shell), the browser's print dialog opens, after that same approval.
   */
  async function savePdf(): Promise<'saved' | 'cancelled' | 'print-dialog'> {
    const fileName = exportFileName('shift', 'pdf');
    const answer = await useManagerPinStore().withApproval('exportJournal', () => till().saveReportPdf({ fileName }));
    if (!answer.ok) return 'cancelled';
    if (answer.data.available) return answer.data.saved ? 'saved' : 'cancelled';
    window.print();
    return 'print-dialog';
  }

  return {
    period,
    since,
    until,
    report,
    loading,
    failed,
    endBeforeStart,
    load,
    choose,
    chooseRange,
    exportCsv,
    savePdf,
  };
});
