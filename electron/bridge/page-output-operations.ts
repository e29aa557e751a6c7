/**
 * What the page hands the main process to keep or to let out: its errors, for the main log;
 * the journal's and the shift's CSV, and the end-of-shift report's PDF, which leave only
 * through the shell's way out and only with the manager's approval (exports.ts).
 */
import type { Failure } from '../../common/contract';
import type { Logger } from '../log/log';
import type { Wording } from '../messages';
import * as payloads from '../validation/bridge-payloads';
import { operationMaker, type OperationTable } from '../validation/bridge-operation';
import { createExportHandlers, type ReportPdf, type SaveFile } from './exports';
import { createRendererErrorLog } from './renderer-error-log';

export interface PageOutputNeeds {
  /** The guard's refusal of an export, or null when it may go ahead. */
  refusal: () => Failure | null;
  /** The shell's ways out, each absent where the shell cannot (app-core-options.ts). */
  shell: { reportPdf?: ReportPdf; saveFile?: SaveFile };
  log: Logger;
  wording: () => Wording;
}

export function pageOutputOperations(
  needs: PageOutputNeeds,
): OperationTable<'logError' | 'saveReportPdf' | 'saveExport'> {
  const { refusal, shell, log, wording } = needs;
  const op = operationMaker(wording);
  const logRendererError = createRendererErrorLog(log);
  const exports = createExportHandlers({
    refusal,
    log,
    wording,
    ...(shell.reportPdf ? { reportPdf: shell.reportPdf } : {}),
    ...(shell.saveFile ? { saveFile: shell.saveFile } : {}),
  });
  return {
    logError: op(payloads.logErrorPayload, async (report) => {
      logRendererError(report);
      return { ok: true, data: null };
    }),
    saveReportPdf: op(payloads.reportPdfPayload, exports.saveReportPdf),
    saveExport: op(payloads.exportPayload, exports.saveExport),
  };
}
