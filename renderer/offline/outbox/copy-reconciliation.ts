/**
 * The page's database and the main process's copy of its outbox and journal, made one again
 * whenever the database opens (docs/offline.md, "Two copies of the queue"):
 *
 * - an item the copy holds and the page lacks was lost by the page (a new origin, an eviction,
 *   "clear site data", a power cut): it is put back in the outbox, with a journal entry that
 *   says so, unless the page's journal says it left the outbox (every item that leaves writes
 *   an entry naming it), in which case the copy is told it is gone;
 * - an item the page holds and the copy lacks (queued by a version before the copy, or a send
 *   the page did not live to make) is handed to the copy;
 * - the journals likewise, entry by entry, whenever their counts differ.
 *
 * Put back, an item is replayed like any other, once: a redemption the service had already made
 * during one of its attempts (recorded in the copy before the request left) is reconciled as
 * this till's, never as a conflict (attribution.ts).
 */
import type { KeptItem, KeptJournalEntry, TillApi, WorkChange } from '../../../common/contract';
import { MAX_WORK_COPY_PAGE } from '../../../common/work-copy-contract';
import { addCustomerRow, customerTables } from '../customers/customer-blocks';
import { getCustomerRow } from '../customers/customer-reads';
import { nameWordsOf } from '../../../common/fold';
import { readPhone } from '../../../common/phone';
import {
  rewardKey,
  SEALING_META_KEYS,
  type CachedCustomer,
  type JournalEntry,
  type OfflineDb,
  type OutboxItem,
} from '../db/schema';
import type { Timers } from '../connection/connection-monitor';
import type { MainCopy } from './main-copy';

export interface Reconciliation {
  /** Items put back in the outbox from the copy. */
  restoredItems: number;
  /** Journal entries put back from the copy. */
  restoredEntries: number;
  /** Items and entries the copy lacked, handed to it. */
  handedOver: number;
  /**
   * The page's database was empty (nothing queued, nothing journalled, nothing cached) while
   * the copy held the till's work: a till this browser has never seen, or one it forgot.
   */
  newDatabase: boolean;
}

export async function reconcileWithMainCopy(
  db: OfflineDb,
  api: Pick<TillApi, 'workCopy'>,
  copy: MainCopy,
  now: Date,
): Promise<Reconciliation> {
  const head = await read(api.workCopy({ journalLimit: 0 }));
  const pageItems = await db.outbox.toArray();
  const pageJournalCount = await db.journal.count();
  // The sealing's own rows (the key check) are not the till's: a database holding only them is new.
  const tillMeta = await db.meta
    .where(':id')
    .noneOf([...SEALING_META_KEYS])
    .count();
  const newDatabase = pageItems.length === 0 && pageJournalCount === 0 && tillMeta === 0;
  const outcome: Reconciliation = { restoredItems: 0, restoredEntries: 0, handedOver: 0, newDatabase: false };

  const toCopy: WorkChange[] = [];
  const pageUids = new Set(pageItems.map((item) => item.uid));
  const lost: KeptItem[] = [];
  for (const item of head.items) {
    if (pageUids.has(item.uid)) continue;
    if ((await db.journal.where('outboxUid').equals(item.uid).count()) > 0) toCopy.push({ op: 'gone', uid: item.uid });
    else lost.push(item);
  }
  const copyUids = new Set(head.items.map((item) => item.uid));
  for (const item of pageItems) {
    if (!copyUids.has(item.uid)) toCopy.push({ op: 'item', item: item as unknown as KeptItem });
  }

  if (head.journalTotal !== pageJournalCount) {
    const kept = await readJournal(api, head.journalTotal);
    const pageEntries = await db.journal.toArray();
    const pageEntryUids = new Set(pageEntries.map((entry) => entry.uid));
    const keptUids = new Set(kept.map((entry) => entry.uid));
    const missing = kept.filter((entry) => !pageEntryUids.has(entry.uid));
    if (missing.length > 0) {
      await db.journal.bulkAdd(
        missing.map((entry) => withoutSeq(entry as { seq?: unknown }) as unknown as JournalEntry),
      );
      outcome.restoredEntries = missing.length;
    }
    for (const entry of pageEntries) {
      if (!keptUids.has(entry.uid)) toCopy.push({ op: 'journal', entry: entry as unknown as KeptJournalEntry });
    }
  }
  if (lost.length > 0) outcome.restoredItems = await restoreItems(db, lost, now);
  if (toCopy.length > 0) {
    await copy.handOver(toCopy);
    outcome.handedOver = toCopy.length;
  }
  outcome.newDatabase = newDatabase && (head.items.length > 0 || head.journalTotal > 0);
  return outcome;
}

async function read<T>(answer: Promise<{ ok: true; data: T } | { ok: false; error: { message: string } }>): Promise<T> {
  const result = await answer;
  if (!result.ok) throw new Error(`The main process's copy could not be read: ${result.error.message}`);
  return result.data;
}

async function readJournal(api: Pick<TillApi, 'workCopy'>, total: number): Promise<KeptJournalEntry[]> {
  const entries: KeptJournalEntry[] = [];
  for (let from = 0; from < total; from += MAX_WORK_COPY_PAGE) {
    const page = await read(api.workCopy({ journalFrom: from, journalLimit: MAX_WORK_COPY_PAGE }));
    entries.push(...page.journal);
    if (page.journal.length === 0) break;
  }
  return entries;
}

function withoutSeq<T extends { seq?: unknown }>(record: T): Omit<T, 'seq'> {
  const { seq: _seq, ...rest } = record;
  return rest;
}

/**
 * Puts lost items back in the outbox, each with a journal entry saying so, in one transaction:
 * a redemption's cached reward is marked pending again; a registration's customer, usable on
 * this till at once, is made again where the database lost it.
 */
async function restoreItems(db: OfflineDb, lost: readonly KeptItem[], now: Date): Promise<number> {
  const at = now.toISOString();
  await db.transaction('rw', [db.outbox, db.journal, db.rewards, ...customerTables(db)], async () => {
    for (const kept of lost) {
      const item = { ...withoutSeq(kept as unknown as OutboxItem), restoredAt: at } as OutboxItem;
      if (item.kind === 'register') await restoreLocalCustomer(db, item, at);
      const seq = await db.outbox.add(item);
      if (item.kind === 'redeem') {
        await db.rewards
          .where('code')
          .equals(rewardKey(item.code))
          .modify((reward) => {
            reward.pendingOutboxSeq ??= seq;
          });
      }
      await db.journal.add(restoredEntry(item, at));
    }
  });
  return lost.length;
}

/** A registration's customer, made again if the database lost it (its row, its local id). */
async function restoreLocalCustomer(
  db: OfflineDb,
  item: Extract<OutboxItem, { kind: 'register' }>,
  at: string,
): Promise<void> {
  const stored = await getCustomerRow(db, item.customerPk);
  if (stored?.id === item.localCustomerId) return;
  const row: CachedCustomer = {
    id: item.localCustomerId,
    phoneE164: item.phoneE164,
    nameWords: nameWordsOf(item.name),
    customer: {
      id: item.localCustomerId,
      name: item.name,
      phone: readPhone(item.phoneE164, 'SA')?.international ?? item.phoneE164,
      email: item.email,
      birthday: item.birthday,
      status: 'pending',
      cards: [],
      created_at: item.queuedAt,
      last_visit_at: null,
    },
    fetchedAt: at,
    localOnly: true,
  };
  item.customerPk = await addCustomerRow(db, row);
}

/** The journal's note that an item was put back: what it was, and that this browser had lost it. */
function restoredEntry(item: OutboxItem, at: string): JournalEntry {
  const redemption = item.kind === 'redeem' ? item : null;
  return {
    uid: crypto.randomUUID(),
    outboxUid: null,
    outboxSeq: null,
    kind: item.kind,
    doneAt: at,
    outcome: 'restored',
    code: redemption?.code ?? null,
    customerId: redemption?.customerId ?? null,
    customerName: item.kind === 'redeem' ? item.customerName : item.name,
    phoneE164: item.phoneE164,
    orderReference: redemption?.orderReference ?? null,
    branchId: redemption?.branchId ?? null,
    queuedAt: item.queuedAt,
    firstAttemptAt: item.firstAttemptAt,
    note: null,
    cashier: item.cashier ?? null,
    rewardName: redemption?.rewardName ?? null,
    points: redemption?.points ?? null,
    restoredUid: item.uid,
  };
}

/** How long one reconciliation may wait for the main process before the database opens without it. */
const RECONCILE_WAIT_MS = 5_000;
/** After a reconciliation that could not finish, the next try. */
const RECONCILE_RETRY_MS = 30_000;

export interface ReconcileAtOpenOptions {
  api: Pick<TillApi, 'workCopy'>;
  copy: MainCopy;
  now: () => Date;
  timers: Timers;
  /** Told of every reconciliation that finished. */
  reconciled: (outcome: Reconciliation) => void;
}

/**
 * Reconciles whenever the database opens: at start, and when it opens afresh after it was
 * deleted under the page (eviction, "clear site data": Dexie opens it again on next use). The
 * database waits for it (Dexie's `ready`), so nothing reads the outbox before what was lost is
 * back; a main process that does not answer in time lets it open anyway, and is asked again
 * later. Returns what stops the later tries.
 */
export function reconcileAtEveryOpen(db: OfflineDb, options: ReconcileAtOpenOptions): () => void {
  const { timers } = options;
  let retry: unknown = null;
  let stopped = false;
  const attempt = async (target: OfflineDb): Promise<void> => {
    try {
      options.reconciled(
        await withDeadline(reconcileWithMainCopy(target, options.api, options.copy, options.now()), RECONCILE_WAIT_MS),
      );
    } catch (error) {
      console.warn("The outbox could not be reconciled with the main process's copy; trying again shortly", error);
      if (!stopped && retry === null) {
        retry = timers.setTimeout(() => {
          retry = null;
          void attempt(db);
        }, RECONCILE_RETRY_MS);
      }
    }
  };
  db.on('ready', (vip) => attempt(vip as OfflineDb), true);
  return () => {
    stopped = true;
    if (retry !== null) timers.clearTimeout(retry);
  };
}

/** A wait on the main process, on the real clock: the page's own timers may be a test's. */
function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
