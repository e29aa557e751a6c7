import { defineStore } from 'pinia';
import { ref, shallowRef } from 'vue';
import { mergeShopReport, shopReportToCsv, type ShiftReport, type ShopShiftReport } from '../offline';
import { t } from '../i18n';
import { REDEMPTION_STATE_WORDS } from '../lib/redemption-state-words';
import { useManagerPinStore } from './manager-pin';
import { useOfflineStore } from './offline';
import { useSettingsStore } from './settings';
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
  /** "This till" or "The whole shop": the other tills' reports gathered over the shop ledger. */
  const scope = ref<'till' | 'shop'>('till');
  const shopReport = shallowRef<ShopShiftReport | null>(null);
  /** The whole shop was asked for, and this till keeps no ledger (or the manager's PIN was not given). */
  const shopUnavailable = ref(false);

  /** The other tills' reports for the same period, merged with this till's; null when none can be had. */
  async function gatherShop(own: ShiftReport): Promise<ShopShiftReport | null> {
    const since = own.since;
    const answer = await useManagerPinStore().withApproval('approve', () => till().shopReports({ since }));
    if (!answer.ok || !answer.data.enabled) return null;
    const here = { till: useSettingsStore().tillName, report: own };
    return mergeShopReport({ here, others: answer.data.tills, silent: answer.data.silent });
  }

  async function load(): Promise<void> {
    loading.value = true;
    failed.value = false;
    shopUnavailable.value = false;
    try {
      report.value = await offline.services().shiftReport(since.value.toISOString());
      shopReport.value = scope.value === 'shop' ? await gatherShop(report.value) : null;
      shopUnavailable.value = scope.value === 'shop' && shopReport.value === null;
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

  async function showScope(next: 'till' | 'shop'): Promise<void> {
    if (scope.value === next) return;
    scope.value = next;
    await load();
  }

  /** The CSV of the report on screen; null when the manager PIN was asked and not given. */
  async function csv(): Promise<string | null> {
    if (!(await useManagerPinStore().ask('exportJournal'))) return null;
    // The shop's: the same figures as on screen. This till's: the entries behind them.
    if (shopReport.value) return shopReportToCsv(shopReport.value, (state) => t(REDEMPTION_STATE_WORDS[state]));
    return offline.services().exportShiftCsv(since.value.toISOString());
  }

  /** "Save as PDF": the main process prints the page; where it cannot, the browser's print dialog. */
  async function savePdf(): Promise<'saved' | 'cancelled' | 'print-dialog'> {
    const day = new Date().toISOString().slice(0, 10);
    const answer = await till().saveReportPdf({ fileName: `loyalty-till-shift-${day}.pdf` });
    if (answer.ok && answer.data.available) return answer.data.saved ? 'saved' : 'cancelled';
    window.print();
    return 'print-dialog';
  }

  return {
    since,
    report,
    loading,
    failed,
    scope,
    shopReport,
    shopUnavailable,
    load,
    startAt,
    showScope,
    csv,
    savePdf,
  };
});
