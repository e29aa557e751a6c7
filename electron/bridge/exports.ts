import type { ExportFile, ExportOutcome, Failure, ReportPdfOutcome, Result } from '../../common/contract';
import { describeError, type Logger } from '../log/log';
import { describe, type Wording } from '../messages';

/** A file the main process hands to the shell to save: Electron's save dialog, the browser shell's one-time download. */
export interface FileToSave {
  fileName: string;
  bytes: Buffer;
  contentType: string;
}

/** Saves a file the way the shell can (see `FileToSave`). */
export type SaveFile = (file: FileToSave) => Promise<ExportOutcome>;

/** Prints the page to a PDF the manager saves (Electron's `printToPDF`). */
export type ReportPdf = (fileName: string) => Promise<'saved' | 'cancelled'>;

/**
 * The exports, which leave the till only through the main process and only with the manager's
 * approval once a PIN is set (the guarded action `exportJournal`): the journal's and the shift's
 * CSV, which the page makes from its IndexedDB and hands over, and the report's PDF. The page
 * has no other way to write a file: Electron cancels any download it starts
 * (shell/web-contents-guards.ts), and the browser shell serves a CSV once, under its secret.
 */
export function createExportHandlers(options: {
  /** The guard's refusal of the export, or null when it may go ahead. */
  refusal: () => Failure | null;
  saveFile?: SaveFile;
  reportPdf?: ReportPdf;
  log: Logger;
  wording: () => Wording;
}) {
  const { refusal, log, wording } = options;
  const failed = (code: string, message: string): Failure => ({
    ok: false,
    error: { kind: 'server', code, message },
  });

  return {
    async saveExport({ fileName, csv }: ExportFile): Promise<Result<ExportOutcome> | Failure> {
      const refused = refusal();
      if (refused) return refused;
      if (!options.saveFile) return failed('export_unavailable', describe(wording(), 'export.notAvailable'));
      try {
        const bytes = Buffer.from(csv, 'utf8');
        const outcome = await options.saveFile({ fileName, bytes, contentType: 'text/csv; charset=utf-8' });
        // An audit line: that a file left, and how; never what it holds.
        if (outcome.outcome !== 'cancelled') log.info(`An export (${fileName}) left the till: ${outcome.outcome}.`);
        return { ok: true, data: outcome };
      } catch (error) {
        log.error(`An export could not be saved: ${describeError(error)}`);
        return failed('export_failed', describe(wording(), 'bridge.internal'));
      }
    },

    /** Where the shell cannot print to PDF (the browser shell), the page opens the print dialog, once approved. */
    async saveReportPdf({ fileName }: { fileName: string }): Promise<Result<ReportPdfOutcome> | Failure> {
      const refused = refusal();
      if (refused) return refused;
      if (!options.reportPdf) return { ok: true, data: { available: false, saved: false } };
      try {
        const saved = (await options.reportPdf(fileName)) === 'saved';
        if (saved) log.info(`The shift report (${fileName}) was saved as a PDF.`);
        return { ok: true, data: { available: true, saved } };
      } catch (error) {
        log.error(`The report could not be saved as a PDF: ${describeError(error)}`);
        return failed('pdf_failed', describe(wording(), 'bridge.internal'));
      }
    },
  };
}
