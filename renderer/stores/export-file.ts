import type { FailedExport, SavedExport } from '../lib/export-outcome';
import { useManagerPinStore } from './manager-pin';
import { till } from './till';

/**
 * Hands a CSV the page made to the main process, which saves it (Electron's save dialog) or
 * serves it once (the browser shell), only with the manager's approval once a PIN is set:
 * refused for want of it, the PIN is asked and the CSV sent again. The page writes no file
 * of its own. Null when the manager or the save dialog cancelled.
 */
export async function saveCsv(fileName: string, csv: string): Promise<SavedExport | FailedExport | null> {
  const answer = await useManagerPinStore().withApproval('exportJournal', () => till().saveExport({ fileName, csv }));
  if (!answer.ok)
    return answer.error.code === 'manager_pin_required' ? null : { ok: false, message: answer.error.message };
  if (answer.data.outcome === 'cancelled') return null;
  const entries = csv.split('\r\n').filter((line) => line !== '').length - 1;
  return { ok: true, fileName, entries, downloadPath: answer.data.downloadPath };
}

/** Today's date in a file name: `loyalty-till-journal-2026-11-27.csv`. */
export function exportFileName(what: string, extension: 'csv' | 'pdf'): string {
  return `loyalty-till-${what}-${new Date().toISOString().slice(0, 10)}.${extension}`;
}
