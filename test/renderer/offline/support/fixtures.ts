/** Small builders and fakes for the offline-core tests. */
import { Dexie, type DBCore, type DBCoreTable } from 'dexie';
import type { Customer, Reward } from '../../../../common/contract';
import type { DataKeyGrant, TillApi } from '../../../../common/contract';
import { keyAtEveryOpen } from '../../../../renderer/offline/db/key-at-open';
import { openOfflineDb } from '../../../../renderer/offline/db/open';
import { type OfflineDb } from '../../../../renderer/offline/db/schema';
import type { LockManagerLike } from '../../../../renderer/offline/outbox/replayer';

let serial = 0;

/** The tests' data key: 32 fixed bytes (base64), as the main process hands a till's over. */
export const TEST_DATA_KEY = btoa(String.fromCharCode(...Array.from({ length: 32 }, (_, i) => (i * 37 + 11) & 0xff)));

/** A grant of `key` as the bridge answers `dataKey`. */
export function dataKeyGrant(key = TEST_DATA_KEY, state: 'ready' | 'lost' = 'ready'): DataKeyGrant {
  const parts = { key, createdAt: '2026-11-28T00:00:00.000Z', protection: 'os' as const, kept: true };
  return state === 'ready'
    ? { state, ...parts }
    : { state, reason: 'unreadable', lostAt: '2026-11-28T00:00:00.000Z', ...parts };
}

/** What answers the page's ask for the data key: the tests' fixed key unless told otherwise. */
export function dataKeyApi(key = TEST_DATA_KEY, state: 'ready' | 'lost' = 'ready'): Pick<TillApi, 'dataKey'> {
  return { dataKey: () => Promise.resolve({ ok: true, data: dataKeyGrant(key, state) }) };
}

/** `db`, its data key attached at every opening as the app does (db/key-at-open.ts), from `api`. */
export function withDataKey(db: OfflineDb, api: Pick<TillApi, 'dataKey'> = dataKeyApi()): OfflineDb {
  keyAtEveryOpen(db, { api });
  return db;
}

/** A fresh, uniquely named database, sealed under the tests' data key: tests never see each other's rows. */
export function freshDb(): OfflineDb {
  serial += 1;
  return withDataKey(openOfflineDb(`offline-test-${serial}-${Math.random().toString(36).slice(2)}`));
}

export async function dropDb(db: OfflineDb): Promise<void> {
  db.close();
  await Dexie.delete(db.name);
}

/** A customer as the service returns it (grouped international phone). */
export function customer(id: string, name: string, phone: string, extra: Partial<Customer> = {}): Customer {
  return {
    id,
    name,
    phone,
    email: null,
    birthday: null,
    status: 'active',
    cards: [
      {
        id: `card-${id}`,
        serial_number: `CC-${id}`,
        status: 'active',
        program: { id: 'prog-1', name: 'Coffee Club', type: 'point' },
        visits: 3,
        points: 100,
        spent: 40,
      },
    ],
    created_at: '2026-01-01T10:00:00+00:00',
    last_visit_at: null,
    ...extra,
  };
}

export function reward(code: string, customerId: string, extra: Partial<Reward> = {}): Reward {
  return {
    code,
    status: 'available',
    name: 'Free coffee',
    description: null,
    type: 'product',
    allowed_products: { quantity: 1, products_list: [] },
    customer_id: customerId,
    earned_at: '2026-01-01T10:00:00+00:00',
    expires_at: null,
    redeemed_at: null,
    ...extra,
  };
}

export interface StoreCall {
  table: string;
  op: 'query' | 'openCursor' | 'count' | 'get' | 'getMany' | 'mutate';
  /** Index name ('' for the primary key). */
  index?: string;
  /** Dexie's range type: 1 equal, 2 range, 3 any (the whole table). */
  rangeType?: number;
}

/**
 * Records every request Dexie sends to IndexedDB (its DBCore layer), so a test can prove
 * which reads a search made: e.g. that no request read a whole table. Call before the
 * database opens.
 */
export function recordStoreCalls(db: OfflineDb): StoreCall[] {
  const calls: StoreCall[] = [];
  db.use({
    stack: 'dbcore',
    name: 'record-store-calls',
    create(down: DBCore): DBCore {
      return {
        ...down,
        table(name: string): DBCoreTable {
          const table = down.table(name);
          return {
            ...table,
            query(req) {
              calls.push({
                table: name,
                op: 'query',
                index: req.query.index.name ?? '',
                rangeType: req.query.range.type,
              });
              return table.query(req);
            },
            openCursor(req) {
              calls.push({
                table: name,
                op: 'openCursor',
                index: req.query.index.name ?? '',
                rangeType: req.query.range.type,
              });
              return table.openCursor(req);
            },
            count(req) {
              calls.push({
                table: name,
                op: 'count',
                index: req.query.index.name ?? '',
                rangeType: req.query.range.type,
              });
              return table.count(req);
            },
            get(req) {
              calls.push({ table: name, op: 'get' });
              return table.get(req);
            },
            getMany(req) {
              calls.push({ table: name, op: 'getMany' });
              return table.getMany(req);
            },
            mutate(req) {
              calls.push({ table: name, op: 'mutate' });
              return table.mutate(req);
            },
          };
        },
      };
    },
  });
  return calls;
}

/**
 * A faithful stand-in for `navigator.locks` with `ifAvailable`: one holder per name,
 * shared by everything given the same instance (as windows share the browser's).
 */
export function createFakeLocks(): LockManagerLike & { held: Set<string>; requests: number } {
  const held = new Set<string>();
  const locks = {
    held,
    requests: 0,
    async request<T>(
      name: string,
      _options: { ifAvailable: true },
      callback: (lock: unknown) => Promise<T>,
    ): Promise<T> {
      locks.requests += 1;
      if (held.has(name)) return callback(null);
      held.add(name);
      try {
        return await callback({ name, mode: 'exclusive' });
      } finally {
        held.delete(name);
      }
    },
  };
  return locks;
}
