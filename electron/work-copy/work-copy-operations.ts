/**
 * The bridge operations on the main process's copy of the outbox and the journal: the page
 * hands over what its database committed (`keepWork`, answered once it is on disk), and reads
 * the copy back to reconcile the two (`workCopy`) whenever its database opens.
 */
import type { Failure, Result } from '../../common/contract';
import { describeError, type Logger } from '../log/log';
import { describe, type Wording } from '../messages';
import { failure, operationMaker, type OperationTable } from '../validation/bridge-operation';
import { keepWorkPayload, workCopyPayload } from '../validation/work-copy-payloads';
import type { WorkCopyStore } from './work-copy';

export interface WorkCopyNeeds {
  copy: WorkCopyStore;
  log: Logger;
  wording: () => Wording;
}

export function workCopyOperations(needs: WorkCopyNeeds): OperationTable<'keepWork' | 'workCopy'> {
  const { copy, log, wording } = needs;
  const op = operationMaker(wording);
  return {
    keepWork: op(keepWorkPayload, async ({ changes }): Promise<Result<unknown> | Failure> => {
      try {
        return { ok: true, data: { kept: await copy.keep(changes) } };
      } catch (error) {
        // A full or failing disk: the page must not say "Queued" on the strength of this copy.
        const reason = describeError(error);
        log.error(`The work copy could not be written: ${reason}`);
        return failure({ kind: 'server', message: describe(wording(), 'workCopy.notKept', { reason }) });
      }
    }),
    workCopy: op(workCopyPayload, async (page) => ({ ok: true, data: copy.read(page ?? {}) })),
  };
}
