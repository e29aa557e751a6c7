/**
 * The main process's own copy of what the till has promised (docs/offline.md, "Two copies of
 * the queue"): the outbox's items and the journal's entries, as the page's database holds
 * them, written by the main process to a file it flushes to disk before the page tells the
 * cashier "Queued". The page's database lives in a browser's storage, which a new origin, an
 * eviction or "clear site data" can empty; this copy does not, and the two are reconciled
 * whenever the page's database opens.
 *
 * The main process reads only what it must of each record (its id, its kind, its state and
 * times, for the health check); the rest it keeps as the page gave it, whole.
 */

/** An outbox item as the page holds it now; every field beyond these is kept as given. */
export interface KeptItem {
  /** The item's own id, the same in both copies (the page's `seq` is not: a new database renumbers). */
  uid: string;
  kind: 'redeem' | 'register';
  state: 'pending' | 'failed' | 'conflict';
  /** When it was queued, on the till's clock (ISO). */
  queuedAt: string;
  [field: string]: unknown;
}

/** A journal entry as the page holds it; every field beyond these is kept as given. */
export interface KeptJournalEntry {
  uid: string;
  /** The outbox item it came from (its `uid`); null for work the service answered at once. */
  outboxUid: string | null;
  kind: string;
  outcome: string;
  doneAt: string;
  [field: string]: unknown;
}

/**
 * One change of the page's outbox or journal, as the page's database committed it:
 * - `item`: an item was queued or changed (its whole record, as it stands now);
 * - `gone`: an item left the outbox (into the journal, or withdrawn before it was sent);
 * - `journal`: an entry was written to the journal.
 */
export type WorkChange =
  { op: 'item'; item: KeptItem } | { op: 'gone'; uid: string } | { op: 'journal'; entry: KeptJournalEntry };

/** `keepWork`: the changes of one or more committed transactions, kept in the order given. */
export interface KeepWorkPayload {
  changes: WorkChange[];
}

/** What `keepWork` answers once the changes are on disk. */
export interface KeptWork {
  /** How many changes were kept (all of them: a refusal is an error, never a part). */
  kept: number;
}

/** `workCopy`: the items, and a page of the journal (oldest first) from `journalFrom`. */
export interface WorkCopyPayload {
  journalFrom?: number;
  journalLimit?: number;
}

/** The main process's copy as it stands: every item still in the outbox, and a page of the journal. */
export interface WorkCopy {
  items: KeptItem[];
  journal: KeptJournalEntry[];
  /** How many journal entries the copy holds in all. */
  journalTotal: number;
  /** When the copy was first written (ISO): null while it holds nothing and never did. */
  since: string | null;
  /**
   * This start found a copy none of whose lines opened under the data key (the key was lost):
   * it was renamed aside, not read, and this copy started anew (docs/privacy.md).
   */
  setAside?: { at: string; lines: number };
}

/**
 * Whether the browser keeps the page's storage for good (`navigator.storage.persist()` granted)
 * or only while it needs no room (best-effort: it may evict it, and "clear browsing data" wipes
 * it); null where the browser cannot say.
 */
export interface StoragePersistence {
  persisted: boolean | null;
}

/**
 * The till's data forgotten this run (docs/privacy.md#forgetting-a-till): when, and whether a
 * manager asked ("Forget this till's data") or the till was switched to another service, key or
 * programme. The page, told by the till's state, deletes its database and starts blank.
 */
export interface TillForgotten {
  at: string;
  why: 'manager' | 'switch';
}

/** `confirmWaitingLoss`: the manager confirms that forgetting may lose this many waiting items. */
export interface ConfirmWaitingLossPayload {
  waiting: number;
}

/** At most this many changes in one `keepWork`, and this many journal entries in one page of `workCopy`. */
export const MAX_WORK_CHANGES = 500;
export const MAX_WORK_COPY_PAGE = 2000;
