/**
 * A database's records as IndexedDB holds them, read beside Dexie (so beside the sealing
 * middleware): what someone who copies the profile without the key could read. Strings as they
 * are, bytes as UTF-8 text (a listing's bytes are UTF-8 JSON when in clear), everything joined
 * into one text to look for what must not be there.
 */

function done<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

const decoder = new TextDecoder('utf-8', { fatal: false });

function textOf(value: unknown, out: string[]): void {
  if (typeof value === 'string') out.push(value);
  else if (typeof value === 'number' || typeof value === 'boolean') out.push(String(value));
  else if (value instanceof ArrayBuffer) out.push(decoder.decode(new Uint8Array(value)));
  else if (ArrayBuffer.isView(value))
    out.push(decoder.decode(new Uint8Array(value.buffer, value.byteOffset, value.byteLength)));
  else if (Array.isArray(value)) for (const item of value) textOf(item, out);
  else if (value !== null && typeof value === 'object') {
    for (const [key, field] of Object.entries(value)) {
      out.push(key);
      textOf(field, out);
    }
  }
}

/** Every store's records (keys and values) of the database `name`, raw. */
export async function rawRecords(name: string): Promise<Map<string, { key: unknown; value: unknown }[]>> {
  const db = await done(indexedDB.open(name));
  try {
    const names = [...db.objectStoreNames].sort();
    const tx = db.transaction(names, 'readonly');
    const stores = new Map<string, { key: unknown; value: unknown }[]>();
    for (const storeName of names) {
      const store = tx.objectStore(storeName);
      const [keys, values] = await Promise.all([done(store.getAllKeys()), done(store.getAll())]);
      stores.set(
        storeName,
        keys.map((key, i) => ({ key, value: values[i] })),
      );
    }
    return stores;
  } finally {
    db.close();
  }
}

/** The raw records of the database `name` as one text (see the module's note). */
export async function rawText(name: string): Promise<string> {
  const out: string[] = [];
  for (const records of (await rawRecords(name)).values()) {
    for (const { key, value } of records) {
      textOf(key, out);
      textOf(value, out);
    }
  }
  return out.join('\n');
}

/** The phone `+966 50 123 4567` in every spelling a till or a person writes it. */
export function phoneSpellings(phone: string): string[] {
  const digits = phone.replace(/\D+/g, '');
  const national = digits.startsWith('966') ? digits.slice(3) : digits;
  return [phone, `+${digits}`, digits, `0${national}`, national];
}

/** Which of `needles` the text holds (none, when nothing personal is in clear). */
export function foundIn(text: string, needles: readonly string[]): string[] {
  const lower = text.toLowerCase();
  return [...new Set(needles)].filter((needle) => lower.includes(needle.toLowerCase()));
}
