/**
 * Opening the till's database (schema.ts says what it holds): every version in turn, from
 * migrations/, with Dexie's live-query middlewares off.
 */
import { Dexie } from 'dexie';
import { keepTables } from './kept-tables';
import { sealTables } from './sealed-tables';
import { MIGRATIONS } from './migrations';
import { DEFAULT_DB_NAME, type OfflineDb } from './schema';

/**
 * The app reads its database when it needs to and never uses Dexie's live queries, so it
 * turns off the two middlewares that serve them on every write: the cache of query results,
 * which follows each read-write transaction to its end, and the observability middleware,
 * which records every key and index key a write touches and, at each commit, announces them
 * to the page and posts them on a BroadcastChannel for other tabs. A fill writes two index
 * keys a customer, hundreds a transaction: that bookkeeping cost a measurable share of the
 * page's processor time during a fill (docs/decisions/2026-11-24-no-live-query-middlewares.md).
 */
function withoutLiveQueries(db: OfflineDb): OfflineDb {
  db.unuse({ stack: 'dbcore', name: 'Observability' });
  db.unuse({ stack: 'dbcore', name: 'Cache' });
  return db;
}

/**
 * Every write transaction asks IndexedDB for `strict` durability, the cache's as well as the
 * outbox's (which kept-tables.ts makes strict whatever this asks). Chromium keeps one log for
 * all of an origin's databases, and a strict commit flushes that log to disk up to its own
 * record: with the fill's commits `relaxed`, a cashier's "Queued" paid for flushing whatever the
 * fill had written since the last flush. Strict, each fill commit flushes its own writes as it
 * goes, and the cashier's commit flushes little more than itself
 * (docs/decisions/2026-11-29-every-write-strict.md). Reads are left as they are: they have
 * nothing to flush.
 */
function strictWrites(db: OfflineDb): void {
  db.use({
    stack: 'dbcore',
    name: 'StrictWrites',
    create: (down) => ({
      ...down,
      transaction: (stores, mode, options) =>
        down.transaction(stores, mode, mode === 'readwrite' ? { ...options, durability: 'strict' } : options),
    }),
  });
}

/**
 * Opens (creating or upgrading) the till's database: every write strict (`strictWrites`), its
 * outbox and journal kept to the promise's standard (kept-tables.ts), everything personal
 * sealed at rest (sealed-tables.ts). Nothing is written to a sealed table until a keyring is
 * attached: key-at-open.ts does it at every opening, before anything else uses the database.
 */
export function openOfflineDb(name: string = DEFAULT_DB_NAME): OfflineDb {
  const db = withoutLiveQueries(new Dexie(name, { cache: 'disabled' }) as OfflineDb);
  strictWrites(db);
  keepTables(db);
  sealTables(db);
  for (const { version, stores, upgrade } of MIGRATIONS) {
    const declared = db.version(version).stores(stores);
    if (upgrade) declared.upgrade(upgrade);
  }
  return db;
}
