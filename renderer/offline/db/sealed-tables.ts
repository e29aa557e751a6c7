/**
 * Everything personal the page keeps in IndexedDB, sealed at rest under the till's data key
 * (docs/security.md#what-the-page-keeps-sealed), by one Dexie middleware that every read and
 * write of the sealed tables passes through (table-seals.ts says what each keeps readable).
 * The core's writers and readers (customer-blocks.ts, search-chunks.ts, listings.ts,
 * reward-cache.ts, the outbox, the journal) keep their code and see plain records; IndexedDB
 * never does.
 *
 * - **Writes** (add, put) seal each record as it is sent: one seal a record, synchronously
 *   (sealing/keyring.ts says why: a transaction commits by itself at the first await that is
 *   not one of its requests), unless it was sealed before its transaction opened
 *   (`sealAhead`, by Web Crypto, off the page's thread). A write to a sealed table while no
 *   keyring is attached to the database is refused (it throws), never written plain; only a
 *   version upgrade, which runs before the keyring can be attached and rewrites records an
 *   earlier version stored plain, passes them as they are (the sealing pass seals them right
 *   after).
 * - **Reads** open what they read on every path: get, getMany, query with values, and a
 *   cursor's value. A record without the sealed field is a legacy one, written before sealing
 *   (an upgraded till, until its first-start pass has sealed it): it is read as it is.
 * - **Reward codes** are keys, and a key cannot be sealed (IndexedDB must compare it): the
 *   rewards' primary key is the keyed digest of the upper-cased code (128 bits, binary), and
 *   the code itself is sealed with the rest. The middleware turns a code into its digest
 *   wherever one is asked for (get, getMany, delete, an equality on the primary key) and gives
 *   the code back on every read, so `db.rewards.get(code)`, `where('code').equals(code)` and
 *   `modify` work as before. Until the sealing pass is done, a code not found by its digest is
 *   looked for under its plain key too, and a reward written is removed from there.
 *
 * It sits below the kept tables' middleware (kept-tables.ts), which must go on seeing and
 * handing the main process plain rows (the main process seals its own copy).
 */
import { Dexie } from 'dexie';
import type {
  DBCore,
  DBCoreCursor,
  DBCoreKeyRange,
  DBCoreMutateRequest,
  DBCoreMutateResponse,
  DBCoreQueryRequest,
  DBCoreQueryResponse,
  DBCoreTable,
  DBCoreTransaction,
} from 'dexie';
import type { Keyring } from '../sealing/keyring';
import { fieldsOfPayload, readablePart, SEALED_FIELD, sealedPayload, TABLE_SEALS, type TableSeal } from './table-seals';

export const SEALED_TABLES_MIDDLEWARE = 'SealedTables';
/** Below the kept tables' (Dexie's default level, 10): lower levels are nearer IndexedDB. */
const LEVEL = 5;
/** Dexie's DBCoreRangeType.Equal (a const enum, not importable at run time). */
const RANGE_EQUAL = 1;

/** A write to a sealed table, or a read of a sealed record, with no keyring attached to the database. */
export class NoKeyringError extends Error {
  constructor(table: string) {
    super(
      `The till's data key is not attached to this database: ${table} is sealed, and nothing is read or written there in clear.`,
    );
    this.name = 'NoKeyringError';
  }
}

/** A record already in its stored form, written to a sealed table but not sealed ahead for it under its keyring. */
export class SealedTwiceError extends Error {
  constructor(table: string) {
    super(
      `A record written to ${table} is sealed already, and not by this database's keyring: it is not sealed again.`,
    );
    this.name = 'SealedTwiceError';
  }
}

interface Attached {
  keyring: Keyring;
  /** Records written before sealing may still be there (the sealing pass has not finished). */
  legacy: boolean;
}

const attached = new WeakMap<Dexie, Attached>();
/** This middleware's own layer of each database, for the sealing pass (`sealedCore`). */
const cores = new WeakMap<Dexie, DBCore>();
/** Records read as they were stored, written before sealing: the sealing pass rewrites these. */
const legacyRows = new WeakSet<object>();
/** Transactions whose reads give the records as stored, to be opened asynchronously (`readSealedAsync`). */
const rawReads = new WeakSet<object>();
/** Records sealed by `sealAhead`, with the keyring that sealed them: written as they are, by that keyring's database alone. */
const sealedAhead = new WeakMap<object, Keyring>();

/**
 * Attaches the keyring every later read and write of `db`'s sealed tables uses (db/key-at-open.ts,
 * before anything else uses the database). `legacy`: records written before sealing may be
 * there, so reads of rewards look for plain keys too until `sealingDone`.
 */
export function attachKeyring(db: Dexie, keyring: Keyring, options: { legacy: boolean }): void {
  attached.set(db, { keyring, legacy: options.legacy });
}

/** The keyring attached to `db`; throws `NoKeyringError` when none is (nothing is written in clear). */
export function keyringOf(db: Dexie, table = 'this table'): Keyring {
  const found = attached.get(db)?.keyring;
  if (!found) throw new NoKeyringError(table);
  return found;
}

/** Whether a keyring is attached to `db`. */
export function hasKeyring(db: Dexie): boolean {
  return attached.has(db);
}

/** The sealing pass has sealed every legacy record: reward codes are looked for by their digest alone. */
export function sealingDone(db: Dexie): void {
  const state = attached.get(db);
  if (state) state.legacy = false;
}

/**
 * This middleware's layer of `db` (open): what is written here is sealed, and not seen by the
 * layers above it. The sealing pass rewrites records unchanged through it, so that the kept
 * tables' middleware does not hand the main process a copy it holds already.
 */
export function sealedCore(db: Dexie): DBCore {
  const core = cores.get(db);
  if (!core) throw new Error('The database is not open.');
  return core;
}

/** Whether `row`, as read, was stored before sealing (legacy): the sealing pass rewrites it. */
export function isLegacyRow(row: unknown): boolean {
  return typeof row === 'object' && row !== null && legacyRows.has(row);
}

/** Installs the middleware; `openOfflineDb` does, before the database first opens. */
export function sealTables(db: Dexie): void {
  db.use({
    stack: 'dbcore',
    name: SEALED_TABLES_MIDDLEWARE,
    level: LEVEL,
    create(down: DBCore): DBCore {
      const core: DBCore = {
        ...down,
        table(name) {
          const table = down.table(name);
          const seal = TABLE_SEALS[name];
          return seal ? sealedTable(db, name, seal, table) : table;
        },
      };
      cores.set(db, core);
      return core;
    },
  });
}

type Row = Record<string, unknown>;

function sealedTable(db: Dexie, name: string, seal: TableSeal, table: DBCoreTable): DBCoreTable {
  const state = () => attached.get(db);
  const keyed = seal.digestKey !== undefined;
  const primary = (query: DBCoreQueryRequest['query']) => query.index.isPrimaryKey === true;

  /** A record as the core reads it: opened, or a legacy one as it is (or as stored, in a raw read). */
  const openIn = (trans: DBCoreTransaction) => {
    if (rawReads.has(trans)) return (stored: unknown) => stored;
    return (stored: unknown): unknown => {
      if (typeof stored !== 'object' || stored === null) return stored;
      const row = stored as Row;
      const sealed = row[SEALED_FIELD];
      if (sealed === undefined) {
        legacyRows.add(row);
        return row;
      }
      const keyring = state()?.keyring;
      if (!keyring) throw new NoKeyringError(name);
      return plainOf(seal, row, keyring.open(sealed as Uint8Array, contextOf(name, seal, row)));
    };
  };
  const openAll = (trans: DBCoreTransaction, rows: readonly unknown[]): unknown[] => rows.map(openIn(trans));

  /** A record as IndexedDB stores it: its readable fields and the rest sealed. */
  const sealRow = (keyring: Keyring, value: Row): Row => {
    // A stored form that `sealAhead` did not make here (another key's, or copied): never sealed twice.
    if (value[SEALED_FIELD] !== undefined) throw new SealedTwiceError(name);
    const stored = readablePart(seal, value);
    if (seal.digestKey) stored[seal.digestKey.field] = digestOf(keyring, seal, value[seal.digestKey.field]);
    stored[SEALED_FIELD] = keyring.seal(sealedPayload(seal, value), contextOf(name, seal, stored));
    return stored;
  };

  /** A key as IndexedDB stores it: a reward's code becomes its digest; anything else (a digest already) as it is. */
  const storedKey = (key: unknown): unknown =>
    keyed && typeof key === 'string' ? digestOf(keyringOf(db, name), seal, key) : key;
  const legacyKeys = () => keyed && state()?.legacy === true;
  const storedRange = (range: DBCoreKeyRange): DBCoreKeyRange =>
    keyed && range.type === RANGE_EQUAL && typeof range.lower === 'string'
      ? { ...range, lower: storedKey(range.lower), upper: storedKey(range.upper) }
      : range;
  /** A request on the primary key's equality, with the code as its digest. */
  const onStoredKeys = <R extends { query: DBCoreQueryRequest['query'] }>(request: R): R =>
    keyed && primary(request.query)
      ? { ...request, query: { ...request.query, range: storedRange(request.query.range) } }
      : request;
  /** Whether the plain-keyed request may find a legacy record its digest missed. */
  const hasLegacyTwin = (request: { query: DBCoreQueryRequest['query'] }) =>
    legacyKeys() &&
    primary(request.query) &&
    request.query.range.type === RANGE_EQUAL &&
    typeof request.query.range.lower === 'string';

  // Promise chains, never `async`: inside a transaction Dexie's zone follows its own promises
  // (the lower layer's, and what their `then` makes), and every native promise an `async`
  // function adds costs an echo of it; deep enough, the zone is lost and the transaction commits
  // under the caller's feet (PrematureCommitError).
  return {
    ...table,
    get(request) {
      const open = openIn(request.trans);
      return table
        .get({ ...request, key: storedKey(request.key) })
        .then((found) =>
          found === undefined && legacyKeys() && typeof request.key === 'string'
            ? table.get(request).then(open)
            : open(found),
        );
    },
    getMany(request) {
      return table.getMany({ ...request, keys: request.keys.map(storedKey) }).then((found) =>
        legacyKeys() && found.some((row, i) => row === undefined && typeof request.keys[i] === 'string')
          ? table.getMany(request).then((twins) =>
              openAll(
                request.trans,
                found.map((row, i) => row ?? twins[i]),
              ),
            )
          : openAll(request.trans, found),
      );
    },
    query(request) {
      const opened = (response: DBCoreQueryResponse) =>
        request.values ? { ...response, result: openAll(request.trans, response.result) } : response;
      return table
        .query(onStoredKeys(request))
        .then((response) =>
          response.result.length === 0 && hasLegacyTwin(request) ? table.query(request).then(opened) : opened(response),
        );
    },
    openCursor(request) {
      const opened = (cursor: DBCoreCursor | null) =>
        cursor && request.values !== false ? openedCursor(cursor, openIn(request.trans)) : cursor;
      return table
        .openCursor(onStoredKeys(request))
        .then((cursor) =>
          !cursor && hasLegacyTwin(request) ? table.openCursor(request).then(opened) : opened(cursor),
        );
    },
    count(request) {
      return table
        .count(onStoredKeys(request))
        .then((count) => (count === 0 && hasLegacyTwin(request) ? table.count(request) : count));
    },
    mutate(request) {
      return mutateSealed(request);
    },
  };

  function mutateSealed(request: DBCoreMutateRequest): Promise<DBCoreMutateResponse> {
    if (request.type === 'delete') {
      const keys = request.keys.map(storedKey);
      const plain = legacyKeys() ? request.keys.filter((key) => typeof key === 'string') : [];
      return table.mutate({ ...request, keys: [...keys, ...plain] });
    }
    if (request.type === 'deleteRange') {
      if (keyed && request.range.type === RANGE_EQUAL && typeof request.range.lower === 'string') {
        return mutateSealed({ type: 'delete', trans: request.trans, keys: [request.range.lower] });
      }
      return table.mutate(request);
    }
    const keyring = state()?.keyring;
    if (!keyring) {
      if (isUpgrade(request.trans)) return table.mutate(request);
      throw new NoKeyringError(name);
    }
    const values = request.values as Row[];
    const stored = values.map((value) => (sealedAhead.get(value) === keyring ? value : sealRow(keyring, value)));
    const put = () => table.mutate({ ...request, values: stored });
    if (!keyed) return put();
    const field = seal.digestKey!.field;
    // The keys given back are the codes, as the caller wrote them (Dexie sets them on the caller's objects).
    const withCodes = (response: DBCoreMutateResponse): DBCoreMutateResponse => {
      const results = response.results?.map((key, i) => (key === undefined ? key : values[i]![field]));
      const last = results?.length ? results[results.length - 1] : response.lastResult;
      return { ...response, ...(results ? { results } : {}), lastResult: last };
    };
    const codes = legacyKeys()
      ? values.flatMap((value) => (typeof value[field] === 'string' ? [value[field]] : []))
      : [];
    // A reward written under its digest leaves nothing under its plain code.
    if (codes.length > 0)
      return table.mutate({ type: 'delete', trans: request.trans, keys: codes }).then(put).then(withCodes);
    return put().then(withCodes);
  }
}

/** A stored record's readable fields and the fields of its opened payload, as one plain record. */
function plainOf(seal: TableSeal, row: Row, payload: Uint8Array): Row {
  const plain: Row = {};
  for (const field of Object.keys(row)) if (field !== SEALED_FIELD) plain[field] = row[field];
  return Object.assign(plain, fieldsOfPayload(seal, payload));
}

/**
 * Records of a sealed table read by `read` (one request, outside any transaction) and opened by
 * Web Crypto, asynchronously: the bulk loads (the search index, the listings, the card serials)
 * read tens of megabytes of sealed records, which the browser's own AES opens many times faster
 * than the synchronous JavaScript the transactions need. Inside a transaction (which an await
 * of Web Crypto would end), `read` runs as it is and the records are opened as read.
 */
export async function readSealedAsync<T>(db: Dexie, tableName: string, read: () => Promise<T[]>): Promise<T[]> {
  const seal = TABLE_SEALS[tableName];
  if (!seal || Dexie.currentTransaction) return read();
  const rows = await db.transaction('r', tableName, () => {
    rawReads.add(Dexie.currentTransaction!.idbtrans);
    return read();
  });
  return Promise.all(
    rows.map(async (stored) => {
      const row = stored as unknown as Row;
      if (typeof row !== 'object' || row === null) return stored;
      const sealed = row[SEALED_FIELD];
      if (sealed === undefined) {
        legacyRows.add(row);
        return stored;
      }
      const keyring = keyringOf(db, tableName);
      return plainOf(seal, row, await keyring.openAsync(sealed as Uint8Array, contextOf(tableName, seal, row))) as T;
    }),
  );
}

/** A record of a sealed table in its stored form, sealed before its write's transaction opened (`sealAhead`). */
export type SealedAhead<T> = T & { readonly sealedAhead: unique symbol };

/**
 * `rows` of `tableName` in the form IndexedDB stores them, sealed now by Web Crypto, off the
 * page's thread: a write that plans its records before its transaction opens (a fill's parts,
 * customers/new-customer-writes.ts) sends these, and the middleware writes them as they are
 * (inside the transaction it could only seal synchronously, on the thread a cashier's own work
 * is waiting for). Only tables without a keyed primary key: a reward's key is its code's
 * digest, made as it is written. Null when no keyring is attached (the records are then
 * refused as any write would be) or when called inside a transaction, which an await of Web
 * Crypto would end, or when this middleware is not in the database's stack.
 */
export async function sealAhead<T extends object>(
  db: Dexie,
  tableName: string,
  rows: readonly T[],
): Promise<SealedAhead<T>[] | null> {
  const seal = TABLE_SEALS[tableName];
  if (!seal || seal.digestKey) throw new Error(`${tableName} is not sealed ahead: its records are sealed as written.`);
  const keyring = attached.get(db)?.keyring;
  // Without this middleware in the database's stack (a bench's till before sealing), a stored
  // form would be written as the record itself.
  if (!keyring || !cores.has(db) || Dexie.currentTransaction) return null;
  return Promise.all(
    rows.map(async (row) => {
      const stored = readablePart(seal, row as Row);
      stored[SEALED_FIELD] = await keyring.sealAsync(
        sealedPayload(seal, row as Row),
        contextOf(tableName, seal, stored),
      );
      sealedAhead.set(stored, keyring);
      return stored as SealedAhead<T>;
    }),
  );
}

/** What a sealed value of `row` is bound to: its table, and its record's own id. */
function contextOf(table: string, seal: TableSeal, stored: Row): string {
  const id = stored[seal.idField];
  if (id instanceof ArrayBuffer) return `${table}/${hex(new Uint8Array(id))}`;
  if (ArrayBuffer.isView(id)) return `${table}/${hex(new Uint8Array(id.buffer, id.byteOffset, id.byteLength))}`;
  return `${table}/${String(id ?? '')}`;
}

function digestOf(keyring: Keyring, seal: TableSeal, value: unknown): Uint8Array {
  if (typeof value !== 'string') throw new TypeError(`A ${seal.digestKey!.field} must be text to be looked up.`);
  return keyring.digest128(value, seal.digestKey!.purpose);
}

function isUpgrade(trans: DBCoreTransaction): boolean {
  // The DBCore transaction of IndexedDB's core is the IDBTransaction itself.
  return (trans as unknown as { mode?: string }).mode === 'versionchange';
}

/** A cursor whose value is opened when read (once a position). */
function openedCursor(cursor: DBCoreCursor, open: (stored: unknown) => unknown): DBCoreCursor {
  let raw: unknown;
  let opened: unknown;
  return Object.create(cursor, {
    value: {
      get() {
        const value = cursor.value;
        if (value !== raw) {
          raw = value;
          opened = open(value);
        }
        return opened;
      },
    },
  }) as DBCoreCursor;
}

function hex(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += byte.toString(16).padStart(2, '0');
  return text;
}
