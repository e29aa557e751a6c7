import { app, dialog, type BrowserWindow } from 'electron';
import { writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { ExportOutcome } from '../../common/contract';
import type { FileToSave } from '../bridge/exports';

/**
 * The Electron shell's way out for a file: the save dialog, starting in Documents, and the
 * bytes written where the manager chose, private to their account (0600). The page never
 * writes a file itself (web-contents-guards.ts cancels its downloads).
 */
export async function saveWithDialog(
  window: BrowserWindow,
  fileName: string,
  bytes: Buffer,
  filter: { name: string; extensions: string[] },
): Promise<'saved' | 'cancelled'> {
  const choice = await dialog.showSaveDialog(window, {
    defaultPath: join(app.getPath('documents'), fileName),
    filters: [filter],
  });
  if (choice.canceled || !choice.filePath) return 'cancelled';
  await writeFile(choice.filePath, bytes, { mode: 0o600 });
  return 'saved';
}

/** The dialog's filter for what leaves: the CSVs the page makes, and the support file (a ZIP archive). */
const FILTERS: Record<string, { name: string; extensions: string[] }> = {
  csv: { name: 'CSV', extensions: ['csv'] },
  zip: { name: 'ZIP archive', extensions: ['zip'] },
};

/**
 * An export (a CSV the page made, the support file) through the save dialog, its filter the
 * file's own kind: a filter of another kind would have the dialog offer, or add, the wrong one.
 */
export async function saveExportWithDialog(window: BrowserWindow, file: FileToSave): Promise<ExportOutcome> {
  const filter = FILTERS[extname(file.fileName).slice(1).toLowerCase()] ?? { name: 'File', extensions: ['*'] };
  const outcome = await saveWithDialog(window, file.fileName, file.bytes, filter);
  return { outcome, downloadPath: null };
}
