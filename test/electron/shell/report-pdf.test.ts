import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

// A recording stand-in for Electron: the save dialog answers what each test says.
const electron = vi.hoisted(() => ({
  app: { getPath: vi.fn((_name: string) => '/home/till/Documents') },
  dialog: { showSaveDialog: vi.fn() },
}));
vi.mock('electron', () => electron);

import type { BrowserWindow } from 'electron';
import { saveReportPdf } from '../../../electron/shell/report-pdf';
import { saveExportWithDialog } from '../../../electron/shell/save-with-dialog';

const PDF = Buffer.from('%PDF-1.7 the report');
const window = {
  webContents: { printToPDF: vi.fn(async () => PDF) },
} as unknown as BrowserWindow & { webContents: { printToPDF: ReturnType<typeof vi.fn> } };

let dir = '';
afterEach(async () => {
  vi.clearAllMocks();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('Save as PDF of the shift report', () => {
  it('prints the page on A4 with its backgrounds and writes it where the manager chose', async () => {
    dir = await mkdtemp(join(tmpdir(), 'till-pdf-'));
    const target = join(dir, 'shift.pdf');
    electron.dialog.showSaveDialog.mockResolvedValue({ canceled: false, filePath: target });
    expect(await saveReportPdf(window, 'loyalty-till-shift-2026-11-26.pdf')).toBe('saved');
    expect(window.webContents.printToPDF).toHaveBeenCalledWith({
      printBackground: true,
      pageSize: 'A4',
      landscape: false,
    });
    expect(electron.dialog.showSaveDialog).toHaveBeenCalledWith(window, {
      defaultPath: join('/home/till/Documents', 'loyalty-till-shift-2026-11-26.pdf'),
      filters: [{ name: 'PDF', extensions: ['pdf'] }],
    });
    expect(await readFile(target)).toEqual(PDF);
  });

  it('writes nothing when the manager cancels', async () => {
    electron.dialog.showSaveDialog.mockResolvedValue({ canceled: true, filePath: '' });
    expect(await saveReportPdf(window, 'x.pdf')).toBe('cancelled');
  });
});

describe('an export through the save dialog', () => {
  it('writes the CSV where the manager chose, private to their account; nothing when cancelled', async () => {
    dir = await mkdtemp(join(tmpdir(), 'till-export-'));
    const target = join(dir, 'journal.csv');
    const file = {
      fileName: 'loyalty-till-journal-2026-11-27.csv',
      bytes: Buffer.from('time,code\r\n'),
      contentType: 'text/csv',
    };
    electron.dialog.showSaveDialog.mockResolvedValue({ canceled: false, filePath: target });
    expect(await saveExportWithDialog(window, file)).toEqual({ outcome: 'saved', downloadPath: null });
    expect(electron.dialog.showSaveDialog).toHaveBeenCalledWith(window, {
      defaultPath: join('/home/till/Documents', 'loyalty-till-journal-2026-11-27.csv'),
      filters: [{ name: 'CSV', extensions: ['csv'] }],
    });
    expect(await readFile(target, 'utf8')).toBe('time,code\r\n');
    if (process.platform !== 'win32') expect((await stat(target)).mode & 0o777).toBe(0o600);
    electron.dialog.showSaveDialog.mockResolvedValue({ canceled: true, filePath: '' });
    expect(await saveExportWithDialog(window, file)).toEqual({ outcome: 'cancelled', downloadPath: null });
  });

  it('offers the file’s own kind: the support file is saved as a ZIP archive, not under a CSV filter', async () => {
    dir = await mkdtemp(join(tmpdir(), 'till-export-'));
    const target = join(dir, 'support.zip');
    const fileName = 'loyalty-till-support-LT-7K3M-Q9XZ-2026-11-28.zip';
    electron.dialog.showSaveDialog.mockResolvedValue({ canceled: false, filePath: target });
    // An archive's bytes (the local header's signature, then a byte no UTF-8 text has): written as they are.
    const bytes = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0xff, 0x00]);
    const file = { fileName, bytes, contentType: 'application/zip' };
    expect(await saveExportWithDialog(window, file)).toEqual({ outcome: 'saved', downloadPath: null });
    expect(electron.dialog.showSaveDialog).toHaveBeenCalledWith(window, {
      defaultPath: join('/home/till/Documents', fileName),
      filters: [{ name: 'ZIP archive', extensions: ['zip'] }],
    });
    expect(await readFile(target)).toEqual(bytes);
  });
});
