/**
 * What the page hands the main process to keep: its errors, for the main log, and the
 * end-of-shift report, printed to a PDF the manager saves where the shell can print.
 */
import { describeError, type Logger } from '../log/log';
import { describe, type Wording } from '../messages';
import * as payloads from '../validation/bridge-payloads';
import { failure, operationMaker, type OperationTable } from '../validation/bridge-operation';
import { createRendererErrorLog } from './renderer-error-log';

export interface ReportNeeds {
  /** Prints the page to a PDF the manager saves (Electron's `printToPDF`); absent where the shell cannot. */
  reportPdf?: (fileName: string) => Promise<'saved' | 'cancelled'>;
  log: Logger;
  wording: () => Wording;
}

export function reportOperations(needs: ReportNeeds): OperationTable<'reportError' | 'saveReportPdf'> {
  const { reportPdf, log, wording } = needs;
  const op = operationMaker(wording);
  const reportRendererError = createRendererErrorLog(log);
  return {
    reportError: op(payloads.reportErrorPayload, async (report) => {
      reportRendererError(report);
      return { ok: true, data: null };
    }),
    saveReportPdf: op(payloads.reportPdfPayload, async ({ fileName }) => {
      if (!reportPdf) return { ok: true, data: { available: false, saved: false } };
      try {
        return { ok: true, data: { available: true, saved: (await reportPdf(fileName)) === 'saved' } };
      } catch (error) {
        log.error(`The report could not be saved as a PDF: ${describeError(error)}`);
        return failure({ kind: 'server', code: 'pdf_failed', message: describe(wording(), 'bridge.internal') });
      }
    }),
  };
}
