/**
 * How long the journal keeps its entries' personal details, and what an entry keeps after
 * (docs/privacy.md#the-journal-after-its-days): both copies of the journal (the page's
 * IndexedDB, the main process's work copy) strip their entries by this one rule, so neither
 * brings back what the other removed.
 *
 * After `journalPersonalDays` an entry keeps what the counts need (its kind, outcome and times,
 * the reward's name and points, the branch, the till that held a reward, the note's code) and
 * a mark that its details were removed; a customer's name, phone and id, the reward's code, the
 * order reference, the cashier and any words of the service are gone from it.
 */

/** The setting's bounds: a day at least, ten years at most; 90 days unless set. */
export const JOURNAL_PERSONAL_DAYS = Object.freeze({ default: 90, min: 1, max: 3650 });

const DAY_MS = 24 * 60 * 60 * 1000;

/** The mark a stripped entry carries: when its details were removed, and after how many days. */
export interface DetailsRemoved {
  at: string;
  afterDays: number;
}

/** What an entry keeps after its days, besides the blanked fields below and its mark. */
const KEPT_FIELDS: ReadonlySet<string> = new Set([
  'seq',
  'uid',
  'outboxUid',
  'outboxSeq',
  'kind',
  'doneAt',
  'outcome',
  'queuedAt',
  'firstAttemptAt',
  'serviceAt',
  'attemptAt',
  'branchId',
  'rewardName',
  'points',
  'heldBy',
  'restoredUid',
]);

/** The personal fields every entry has, as a stripped entry holds them (the shapes stay valid). */
const BLANKED: Readonly<Record<string, unknown>> = Object.freeze({
  code: null,
  customerId: null,
  customerName: '',
  phoneE164: '',
  orderReference: null,
  cashier: null,
  note: null,
});

/** Notes that hold codes, times and till names only (a refusal's `said` is the service's words). */
const PLAIN_NOTES: ReadonlySet<string> = new Set(['confirmed_unread', 'conflict', 'claimed_elsewhere']);

/** The moment before which an entry's details are removed (ISO): `days` before `now`. */
export function detailsCutoff(now: Date, days: number): string {
  return new Date(now.getTime() - days * DAY_MS).toISOString();
}

/** Whether an entry's details were removed already. */
export function detailsWereRemoved(entry: object): boolean {
  const mark = (entry as { detailsRemoved?: unknown }).detailsRemoved;
  return typeof mark === 'object' && mark !== null;
}

/** Whether an entry done before `cutoff` (ISO) still holds its details. */
export function detailsDue(entry: object, cutoff: string): boolean {
  const { doneAt } = entry as { doneAt?: unknown };
  if (detailsWereRemoved(entry) || typeof doneAt !== 'string') return false;
  const done = Date.parse(doneAt);
  return Number.isFinite(done) && done < Date.parse(cutoff);
}

/**
 * The entry without its personal details: only the fields above are kept (an unknown field is
 * dropped, not kept: what the till does not know it needs, it does not keep), the personal
 * ones blanked, and the mark added. An entry stripped already is given back as it is.
 */
export function withoutDetails<T extends object>(entry: T, removed: DetailsRemoved): T {
  if (detailsWereRemoved(entry)) return entry;
  const kept: Record<string, unknown> = { ...BLANKED };
  for (const [field, value] of Object.entries(entry)) {
    if (KEPT_FIELDS.has(field)) kept[field] = value;
  }
  const note = (entry as { note?: unknown }).note;
  if (typeof note === 'object' && note !== null && PLAIN_NOTES.has(String((note as { code?: unknown }).code))) {
    kept.note = note;
  }
  kept.detailsRemoved = { at: removed.at, afterDays: removed.afterDays };
  return kept as T;
}
