import { defineStore } from 'pinia';
import { ref, shallowRef } from 'vue';
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

/**
 * The end-of-shift report (F7): its start (chosen, by default the start of today), the
 * figures from the offline core, and its outputs: print, "Save as PDF" through the main
 * process (the browser's print dialog where the shell has no PDF of its own) and the CSV
 * of the same entries, behind the manager PIN like the journal's.
 */
export const useShiftReportStore = defineStore('shiftReport', () => {
  const offline = useOfflineStore();
  const since = ref<Date>(startOfToday());
  const report = shallowRef<ShiftReport | null>(null);
  const loading = ref(false);
  const failed = ref(false);

  async function load(): Promise<void> {
    loading.value = true;
    failed.value = false;
    try {
      report.value = await offline.services().shiftReport(since.value.toISOString());
    } catch (error) {
      console.error('The shift report could not be read', error);
      failed.value = true;
    } finally {
      loading.value = false;
    }
  }

  async function startAt(next: Date): Promise<void> {
    if (Number.isNaN(next.getTime())) return;
    since.value = next;
    await load();
  }

  /** Saves the CSV of the report's entries through the main process; null when cancelled. */
  async function exportCsv(): Promise<SavedExport | FailedExport | null> {
    return saveCsv(exportFileName('shift', 'csv'), await offline.services().exportShiftCsv(since.value.toISOString()));
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

  return { since, report, loading, failed, load, startAt, exportCsv, savePdf };
});
