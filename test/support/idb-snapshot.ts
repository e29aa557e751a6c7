/**
 * An IndexedDB database as plain JSON: every object store with its key path, key generator
 * and indexes, and every record with its key. The fixtures of old databases
 * (test/renderer/offline/db/old-databases/) are written with it by the code of each earlier
 * version, and put back with it, as IndexedDB held them, for today's code to open.
 */

export interface IndexSnapshot {
  name: string;
  keyPath: string | string[];
  unique: boolean;
  multiEntry: boolean;
}

export interface StoreSnapshot {
  name: string;
  keyPath: string | string[] | null;
  autoIncrement: boolean;
  indexes: IndexSnapshot[];
  /** `[key, value]`, values encoded by `encode`. */
  records: [unknown, unknown][];
}

export interface DatabaseSnapshot {
  /** IndexedDB's version (Dexie's times ten). */
  version: number;
  stores: StoreSnapshot[];
}

const TYPED = { Uint8Array, Uint32Array } as const;
type TypedName = keyof typeof TYPED;

/** Structured-clone values JSON cannot hold (typed arrays), as tagged objects. */
function encode(value: unknown): unknown {
  for (const name of Object.keys(TYPED) as TypedName[]) {
    if (value instanceof TYPED[name]) return { $typed: name, values: [...value] };
  }
  if (Array.isArray(value)) return value.map(encode);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, encode(field)]));
  }
  return value;
}

function decode(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decode);
  if (value !== null && typeof value === 'object') {
    const tagged = value as { $typed?: TypedName; values?: number[] };
    if (tagged.$typed !== undefined) return TYPED[tagged.$typed].from(tagged.values!);
    return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, decode(field)]));
  }
  return value;
}

function done<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** Every store and record of the database `name`, as it is now. */
export async function snapshotDatabase(name: string): Promise<DatabaseSnapshot> {
  const db = await done(indexedDB.open(name));
  try {
    const names = [...db.objectStoreNames].sort();
    const tx = db.transaction(names, 'readonly');
    const stores: StoreSnapshot[] = [];
    for (const storeName of names) {
      const store = tx.objectStore(storeName);
      const [keys, values] = await Promise.all([done(store.getAllKeys()), done(store.getAll())]);
      stores.push({
        name: storeName,
        keyPath: store.keyPath,
        autoIncrement: store.autoIncrement,
        indexes: [...store.indexNames].sort().map((indexName) => {
          const index = store.index(indexName);
          return { name: indexName, keyPath: index.keyPath, unique: index.unique, multiEntry: index.multiEntry };
        }),
        records: keys.map((key, i) => [encode(key), encode(values[i])]),
      });
    }
    return { version: db.version, stores };
  } finally {
    db.close();
  }
}

/** Creates the database `name` (which must not exist) exactly as `snapshot` holds it. */
export async function restoreDatabase(name: string, snapshot: DatabaseSnapshot): Promise<void> {
  const request = indexedDB.open(name, snapshot.version);
  request.onupgradeneeded = () => {
    const db = request.result;
    for (const { name: storeName, keyPath, autoIncrement, indexes, records } of snapshot.stores) {
      const store = db.createObjectStore(storeName, { keyPath, autoIncrement });
      for (const index of indexes) {
        store.createIndex(index.name, index.keyPath, { unique: index.unique, multiEntry: index.multiEntry });
      }
      for (const [key, value] of records) {
        if (keyPath === null) store.put(decode(value), decode(key) as IDBValidKey);
        else store.put(decode(value));
      }
    }
  };
  const db = await done(request);
  db.close();
}
