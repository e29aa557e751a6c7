/**
 * The bridge operations on what the till keeps: the page hands over what its database
 * committed (`keepWork`, answered once it is on disk), reads the main process's copy back to
 * reconcile the two (`workCopy`) whenever its database opens, and says whether the browser
 * keeps its storage for good (`noteStorage`).
 */
import type { StoragePersistence } from '../../common/contract';
import { describeError, type Logger } from '../log/log';
import { describe, type Wording } from '../messages';
import { failure, operationMaker, type OperationTable } from '../validation/bridge-operation';
import { keepWorkPayload, storagePersistencePayload, workCopyPayload } from '../validation/work-copy-payloads';
import type { WorkCopyStore } from './work-copy';

export interface WorkCopyNeeds {
  copy: WorkCopyStore;
  log: Logger;
  wording: () => Wording;
}

/** What the page last said of its storage; null until it said anything. */
export interface PageStorage {
  last(): StoragePersistence | null;
}

export function workCopyOperations(needs: WorkCopyNeeds): {
  operations: OperationTable<'keepWork' | 'workCopy' | 'noteStorage'>;
  storage: PageStorage;
} {
  const { copy, log, wording } = needs;
  const op = operationMaker(wording);
  let storage: StoragePersistence | null = null;
  const operations: OperationTable<'keepWork' | 'workCopy' | 'noteStorage'> = {
    keepWork: op(keepWorkPayload, async ({ changes }) => {
      try {
        return { ok: true as const, data: { kept: await copy.keep(changes) } };
      } catch (error) {
        // A full or failing disk: the page must not say "Queued" on the strength of this copy.
        const reason = describeError(error);
        log.error(`The work copy could not be written: ${reason}`);
        return failure({ kind: 'server', message: describe(wording(), 'workCopy.notKept', { reason }) });
      }
    }),
    workCopy: op(workCopyPayload, async (page) => ({ ok: true, data: copy.read(page) })),
    noteStorage: op(storagePersistencePayload, async (report) => {
      // Said once, and again only when it changes: every window and reload reports it.
      if (storage?.persisted !== report.persisted) log.info(storageWords(report));
      storage = report;
      return { ok: true, data: null };
    }),
  };
  return { operations, storage: { last: () => storage } };
}

function storageWords({ persisted }: StoragePersistence): string {
  if (persisted === true) return "The browser keeps the till's page storage for good (persistent storage granted).";
  if (persisted === false)
    return "The browser keeps the till's page storage only as long as it needs no room (persistent storage not granted); the outbox and the journal are kept by the main process too.";
  return "The browser cannot say whether it keeps the till's page storage for good; the outbox and the journal are kept by the main process too.";
}
