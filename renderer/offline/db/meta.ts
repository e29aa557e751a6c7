/** The meta table's rows (schema.ts `MetaValues`): one value a key. */
import type { MetaKey, MetaRow, MetaValues, OfflineDb } from './schema';

export async function readMeta<K extends MetaKey>(db: OfflineDb, key: K): Promise<MetaValues[K] | undefined> {
  const row = (await db.meta.get(key)) as MetaRow<K> | undefined;
  return row?.value;
}

export async function writeMeta<K extends MetaKey>(db: OfflineDb, key: K, value: MetaValues[K]): Promise<void> {
  await db.meta.put({ key, value } as MetaRow);
}

export async function clearMeta(db: OfflineDb, key: MetaKey): Promise<void> {
  await db.meta.delete(key);
}
