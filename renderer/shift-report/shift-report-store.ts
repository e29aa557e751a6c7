import { defineStore } from 'pinia';
import { computed, ref, shallowRef } from 'vue';
import {
  mergeShopReport,
  REDEMPTION_STATES,
  type RedemptionState,
  type ShiftReport,
  type ShopShiftReport,
} from '../offline';
import { exportedJournalCsv } from '../lib/journal-csv';
import { shopReportToCsv } from './shop-report-csv';
import { useManagerPinStore } from '../stores/manager-pin';
import { exportFileName, saveCsv } from '../stores/export-file';
import type { FailedExport, SavedExport } from '../lib/export-outcome';
import { useOfflineStore } from '../stores/offline';
import { useSettingsStore } from '../stores/settings';
import { till } from '../stores/till';

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
  /** "This till" or "The whole shop": the other tills' reports gathered over the shop ledger. */
  const scope = ref<'till' | 'shop'>('till');
  const shopReport = shallowRef<ShopShiftReport | null>(null);
  /** The whole shop was asked for, and this till keeps no ledger (or the manager's PIN was not given). */
  const shopUnavailable = ref(false);

  /** The other tills' reports for the same period, merged with this till's; null when none can be had. */
  async function gatherShop(own: ShiftReport): Promise<ShopShiftReport | null> {
    const period = { since: own.since, ...(untilIso.value ? { until: untilIso.value } : {}) };
    const answer = await useManagerPinStore().withApproval('gatherShopReport', () => till().shopReports(period));
    if (!answer.ok || !answer.data.enabled) return null;
    const here = { till: useSettingsStore().tillName, report: own };
    return mergeShopReport({ here, others: answer.data.tills, silent: answer.data.silent });
  }

  async function load(): Promise<void> {
    loading.value = true;
    failed.value = false;
    shopUnavailable.value = false;
    try {
      report.value = await offline.services().shiftReport(since.value.toISOString(), untilIso.value);
      shopReport.value = scope.value === 'shop' ? await gatherShop(report.value) : null;
      shopUnavailable.value = scope.value === 'shop' && shopReport.value === null;
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

  async function showScope(next: 'till' | 'shop'): Promise<void> {
    if (scope.value === next) return;
    scope.value = next;
    await load();
  }

  /**
   * Saves the CSV of the report on screen through the main process; null when cancelled.
   * `stateWord` words a redemption's state as the screen does (the view owns those words).
   */
  async function exportCsv(stateWord: (state: RedemptionState) => string): Promise<SavedExport | FailedExport | null> {
    // The shop's: the same figures as on screen. This till's: the entries behind them.
    const csv = shopReport.value
      ? shopReportToCsv(shopReport.value, REDEMPTION_STATES, stateWord)
      : exportedJournalCsv(await offline.services().shiftExport(since.value.toISOString(), untilIso.value));
    return saveCsv(exportFileName(shopReport.value ? 'shop' : 'shift', 'csv'), csv);
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
    scope,
    shopReport,
    shopUnavailable,
    load,
    choose,
    chooseRange,
    showScope,
    exportCsv,
    savePdf,
  };
});
