/**
 * The tables that hold what the till has promised, the outbox and the journal, kept to a
 * higher standard than the cache (docs/offline.md, "Two copies of the queue"):
 *
 * - **strict durability.** A write transaction over either asks IndexedDB for `strict`: it
 *   completes only once its data is flushed to disk, where Chromium's default (`relaxed`) lets
 *   it complete while the data is still in the operating system's buffers, and a power cut a
 *   second after "Queued" could lose it. The database asks the same of every other write
 *   (open.ts says why); this is what holds for these tables whatever it asks.
 * - **a second copy.** Every row they commit (and every outbox item they delete) is handed to
 *   whoever attached to the database (`attachKeptWrites`: the main process's copy,
 *   outbox/main-copy.ts), in the order the transactions began, with nothing sent for a
 *   transaction that aborted.
 * - **an id for every row.** A row written without a `uid` is given one, so every path to the
 *   tables writes rows the copy can name.
 *
 * One Dexie middleware does all three, so that no writer of these tables, today's or a later
 * one, can forget any of them.
 */
import type { DBCore, DBCoreMutateRequest, DBCoreTable, DBCoreTransaction, Dexie } from 'dexie';

/** The tables kept to the promise's standard. */
export const KEPT_TABLES = ['outbox', 'journal'] as const;
export type KeptTable = (typeof KEPT_TABLES)[number];

/** One row a transaction wrote to a kept table, as written; or an outbox item it deleted (its `uid`). */
export type KeptRowChange =
  { table: KeptTable; row: Record<string, unknown> } | { table: 'outbox'; deletedUid: string };

/** The changes of one write transaction, told as they happen and when it ends. */
export interface KeptBatch {
  add(change: KeptRowChange): void;
  /** The transaction committed: its changes are on the page's disk. */
  committed(): void;
  /** The transaction aborted: none of its changes happened. */
  aborted(): void;
}

/** What receives the kept tables' changes (the main process's copy). */
export interface KeptWrites {
  /** A write transaction began changing a kept table: a batch for its changes, in the order begun. */
  began(): KeptBatch;
}

const receivers = new WeakMap<Dexie, KeptWrites>();

/** Hands every later change of the kept tables of `db` to `writes` (one receiver a database). */
export function attachKeptWrites(db: Dexie, writes: KeptWrites): void {
  receivers.set(db, writes);
}

const isKept = (table: string): table is KeptTable => (KEPT_TABLES as readonly string[]).includes(table);

/** Installs the middleware; `openOfflineDb` does, before the database first opens. */
export function keepTables(db: Dexie): void {
  const batches = new WeakMap<DBCoreTransaction, KeptBatch>();
  db.use({
    stack: 'dbcore',
    name: 'KeptTables',
    create(down: DBCore): DBCore {
      return {
        ...down,
        transaction(stores, mode, options) {
          const kept = mode === 'readwrite' && stores.some(isKept);
          return kept
            ? down.transaction(stores, mode, { ...options, durability: 'strict' })
            : down.transaction(stores, mode, options);
        },
        table(name) {
          const table = down.table(name);
          if (!isKept(name)) return table;
          return { ...table, mutate: (request) => mutateKept(db, name, table, request, batches) };
        },
      };
    },
  });
}

async function mutateKept(
  db: Dexie,
  name: KeptTable,
  table: DBCoreTable,
  request: DBCoreMutateRequest,
  batches: WeakMap<DBCoreTransaction, KeptBatch>,
) {
  if (request.type === 'add' || request.type === 'put') {
    for (const value of request.values as Array<Record<string, unknown>>) {
      value.uid ??= crypto.randomUUID();
      if (name === 'journal') value.outboxUid ??= null;
    }
  }
  const receiver = receivers.get(db);
  if (!receiver) return table.mutate(request);
  const batch = batchOf(request.trans, receiver, batches);
  if (request.type === 'add' || request.type === 'put') {
    // A copy as written now: the caller may change its object after the write.
    for (const value of request.values) batch.add({ table: name, row: structuredClone(value) });
    return table.mutate(request);
  }
  if (name === 'outbox') {
    for (const uid of await deletedUids(table, request)) batch.add({ table: 'outbox', deletedUid: uid });
  }
  return table.mutate(request);
}

/** The ids of the outbox rows a delete removes, read in its transaction before it runs. */
async function deletedUids(table: DBCoreTable, request: DBCoreMutateRequest): Promise<string[]> {
  const { trans } = request;
  const rows =
    request.type === 'delete'
      ? await table.getMany({ trans, keys: request.keys })
      : request.type === 'deleteRange'
        ? (await table.query({ trans, values: true, query: { index: table.schema.primaryKey, range: request.range } }))
            .result
        : [];
  return rows.flatMap((row: { uid?: unknown } | undefined) => (typeof row?.uid === 'string' ? [row.uid] : []));
}

/** The batch of a transaction, made when it first changes a kept table, told how it ends. */
function batchOf(
  trans: DBCoreTransaction,
  receiver: KeptWrites,
  batches: WeakMap<DBCoreTransaction, KeptBatch>,
): KeptBatch {
  let batch = batches.get(trans);
  if (batch) return batch;
  const made = receiver.began();
  batches.set(trans, made);
  // The DBCore transaction of IndexedDB's core is the IDBTransaction itself.
  const events = trans as unknown as EventTarget;
  events.addEventListener('complete', () => made.committed());
  events.addEventListener('abort', () => made.aborted());
  batch = made;
  return batch;
}
