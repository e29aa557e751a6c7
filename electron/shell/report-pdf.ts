import type { BrowserWindow } from 'electron';
import { saveWithDialog } from './save-with-dialog';

/**
 * "Save as PDF" of the end-of-shift report: Electron prints the page as it is on screen
 * (its print stylesheet hides the app's chrome) with `printToPDF`, and the manager chooses
 * where the file goes. Thin on purpose: what the report says is built and tested in the
 * renderer (`renderer/offline/shift-report/shift-report.ts`); this only turns the page into a file. The core
 * asks it only once the manager approved (bridge/exports.ts).
 */
export async function saveReportPdf(window: BrowserWindow, fileName: string): Promise<'saved' | 'cancelled'> {
  const pdf = await window.webContents.printToPDF({ printBackground: true, pageSize: 'A4', landscape: false });
  return saveWithDialog(window, fileName, pdf, { name: 'PDF', extensions: ['pdf'] });
}
