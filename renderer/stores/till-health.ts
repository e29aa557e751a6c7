import { defineStore } from 'pinia';
import { shallowRef, ref } from 'vue';
import type { HealthReport } from '../../common/contract';
import type { FailedExport, SavedExport } from '../lib/export-outcome';
import { useManagerPinStore } from './manager-pin';
import { till } from './till';

/**
 * The till's health as Settings' "About this till" shows it (the report `--health` prints,
 * from the main process), and the support file the manager saves for the help desk: like
 * every export, only with the manager's approval, and saved by the main process (the save
 * dialog; the browser shell's one-time download).
 */
export const useTillHealthStore = defineStore('tillHealth', () => {
  const report = shallowRef<HealthReport | null>(null);
  const failed = ref(false);

  async function load(): Promise<void> {
    const answer = await till()
      .tillHealth()
      .catch(() => null);
    failed.value = !answer?.ok;
    report.value = answer?.ok ? answer.data : null;
  }

  /** Null when the manager or the save dialog cancelled. */
  async function saveSupportFile(): Promise<SavedExport | FailedExport | null> {
    // The browser's name and version (the browser shell runs in any browser): for the help desk.
    const userAgent = (globalThis.navigator?.userAgent ?? '').slice(0, 512);
    const answer = await useManagerPinStore().withApproval('saveSupportFile', () =>
      till().saveSupportFile({ userAgent }),
    );
    if (!answer.ok)
      return answer.error.code === 'manager_pin_required' ? null : { ok: false, message: answer.error.message };
    if (answer.data.outcome === 'cancelled') return null;
    return { ok: true, fileName: answer.data.fileName, entries: 0, downloadPath: answer.data.downloadPath };
  }

  return { report, failed, load, saveSupportFile };
});
