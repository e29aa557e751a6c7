import { app, dialog, type BrowserWindow } from 'electron';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * "Save as PDF" of the end-of-shift report: Electron prints the page as it is on screen
 * (its print stylesheet hides the app's chrome) with `printToPDF`, and the manager chooses
 * where the file goes. Thin on purpose: what the report says is built and tested in the
 * renderer (`renderer/lib/shift-report.ts`); this only turns the page into a file.
 */
export async function saveReportPdf(window: BrowserWindow, fileName: string): Promise<'saved' | 'cancelled'> {
  const pdf = await window.webContents.printToPDF({ printBackground: true, pageSize: 'A4', landscape: false });
  const choice = await dialog.showSaveDialog(window, {
    defaultPath: join(app.getPath('documents'), fileName),
    filters: [{ name: 'PDF', extensions: ['pdf'] }],
  });
  if (choice.canceled || !choice.filePath) return 'cancelled';
  await writeFile(choice.filePath, pdf);
  return 'saved';
}
