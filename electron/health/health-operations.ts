/**
 * The bridge operations of the till's health: what Settings' "About this till" shows
 * (`tillHealth`, the report `--health` prints), the page's word on its offline cache
 * (`noteCache`), and the support file (`saveSupportFile`), which leaves like every export:
 * only with the manager's approval, only through the shell's way out (the save dialog, the
 * browser shell's one-time download).
 */
import type { ExportOutcome, Failure, Result, SupportFileOutcome } from '../../common/contract';
import { describeError, type Logger } from '../log/log';
import { describe, type Wording } from '../messages';
import { failure, operationMaker, type OperationTable } from '../validation/bridge-operation';
import { noPayload } from '../validation/bridge-payloads';
import { cacheReportPayload, supportFilePayload } from '../validation/health-payloads';
import type { TillHealth } from './till-health';

/** The shell's way out for a file (bridge/exports.ts's `SaveFile`), as this folder needs it. */
export type SaveSupportFile = (file: {
  fileName: string;
  bytes: Buffer;
  contentType: string;
}) => Promise<ExportOutcome>;

export interface HealthOperationNeeds {
  health: TillHealth;
  /** The support file's archive, made now (support-file.ts), for the browser the page names. */
  supportFile: (userAgent: string | null) => Promise<{ fileName: string; bytes: Uint8Array }>;
  /** The guard's refusal (the manager's approval), or null when it may go ahead. */
  refusal: () => Failure | null;
  saveFile?: SaveSupportFile;
  log: Logger;
  wording: () => Wording;
}

export type HealthOperation = 'tillHealth' | 'noteCache' | 'saveSupportFile';

export function healthOperations(needs: HealthOperationNeeds): OperationTable<HealthOperation> {
  const { health, log, wording } = needs;
  const op = operationMaker(wording);
  return {
    tillHealth: op(noPayload, async () => ({ ok: true, data: await health.report() })),
    noteCache: op(cacheReportPayload, async (report) => {
      health.noteCache(report);
      return { ok: true, data: null };
    }),
    saveSupportFile: op(supportFilePayload, async (payload): Promise<Result<SupportFileOutcome> | Failure> => {
      const refused = needs.refusal();
      if (refused) return refused;
      if (!needs.saveFile)
        return failure({
          kind: 'server',
          code: 'export_unavailable',
          message: describe(wording(), 'export.notAvailable'),
        });
      try {
        const { fileName, bytes } = await needs.supportFile(payload.userAgent || null);
        const outcome = await needs.saveFile({
          fileName,
          bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
          contentType: 'application/zip',
        });
        // An audit line, as for every export: that it left, and how.
        if (outcome.outcome !== 'cancelled')
          log.info(`A support file (${fileName}) left the till: ${outcome.outcome}.`);
        return { ok: true, data: { ...outcome, fileName } };
      } catch (error) {
        const reason = describeError(error);
        log.error(`The support file could not be made: ${reason}`);
        return failure({
          kind: 'server',
          code: 'export_failed',
          message: describe(wording(), 'health.supportFileFailed', { reason }),
        });
      }
    }),
  };
}
