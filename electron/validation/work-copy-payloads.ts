import { z } from 'zod';
import { MAX_WORK_CHANGES, MAX_WORK_COPY_PAGE } from '../../common/contract';
import { nestsDeeperThan } from '../../common/json-depth';
import { msg } from '../messages';

/**
 * What the page may hand the main process's copy of its outbox and journal
 * (electron/work-copy/). The copy relies on a record's id, kind, state and times, so those are
 * checked; the rest of a record is the page's own, kept whole as given, within a size and a
 * depth no real record comes near.
 */

/** Far above an outbox item or a journal entry (a few hundred bytes; a conflict's service answer, a few KiB). */
const MAX_RECORD_CHARS = 32 * 1024;
const MAX_RECORD_DEPTH = 8;

const RECORD = msg('payload.workCopy.record');
/** The page's ids: a UUID as `crypto.randomUUID()` makes them. */
const uid = z.string(RECORD).regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, RECORD);
const isoTime = z.string(RECORD).min(10, RECORD).max(40, RECORD);
const word = z.string(RECORD).min(1, RECORD).max(40, RECORD);

/** Whole, within bounds: a record that would not fit the file's line is refused, not cut. */
function bounded(value: unknown): boolean {
  try {
    return JSON.stringify(value).length <= MAX_RECORD_CHARS && !nestsDeeperThan(value, MAX_RECORD_DEPTH);
  } catch {
    return false;
  }
}

const keptItem = z
  .looseObject({
    uid,
    kind: z.enum(['redeem', 'register'], RECORD),
    state: z.enum(['pending', 'failed', 'conflict'], RECORD),
    queuedAt: isoTime,
  })
  .refine(bounded, RECORD);

const keptJournalEntry = z
  .looseObject({
    uid,
    outboxUid: uid.nullable(),
    kind: word,
    outcome: word,
    doneAt: isoTime,
  })
  .refine(bounded, RECORD);

const workChange = z.discriminatedUnion(
  'op',
  [
    z.strictObject({ op: z.literal('item'), item: keptItem }),
    z.strictObject({ op: z.literal('gone'), uid }),
    z.strictObject({ op: z.literal('journal'), entry: keptJournalEntry }),
  ],
  RECORD,
);

export const keepWorkPayload = z.strictObject({
  changes: z.array(workChange, RECORD).min(1, RECORD).max(MAX_WORK_CHANGES, msg('payload.workCopy.tooMany')),
});

/** The page's word on its storage: persisted or not, or null where the browser cannot say. */
export const storagePersistencePayload = z.strictObject({ persisted: z.boolean(RECORD).nullable() });

/** The manager's count of waiting items to lose: what the page counted, never more than the outbox holds. */
export const confirmWaitingLossPayload = z.strictObject({
  waiting: z.int(RECORD).min(1, RECORD).max(1_000_000, RECORD),
});

const PAGE = msg('payload.workCopy.page');
export const workCopyPayload = z.strictObject({
  journalFrom: z.int(PAGE).min(0, PAGE).optional(),
  journalLimit: z.int(PAGE).min(0, PAGE).max(MAX_WORK_COPY_PAGE, PAGE).optional(),
});
