import { defineStore } from 'pinia';
import { ref } from 'vue';
import { till } from './till';

/**
 * Whether the browser keeps the page's storage for good. Storage in a browser is best-effort
 * unless the page asks: it may be evicted when the disk is short, and "clear browsing data"
 * wipes it. The page asks once at start (`navigator.storage.persist()`); Settings' "About this
 * till" says what came of it, and the main process logs it. The queue and the journal do not
 * depend on the answer (the main process keeps its own copy); the offline cache does.
 *
 * `persisted`: undefined before the page asked; null where the browser cannot say.
 */
export const useStorageStore = defineStore('storage', () => {
  const persisted = ref<boolean | null | undefined>(undefined);

  async function ask(): Promise<void> {
    persisted.value = await askPersistence(globalThis.navigator?.storage);
    await till()
      .noteStorage({ persisted: persisted.value })
      .catch(() => undefined);
  }

  return { persisted, ask };
});

async function askPersistence(storage: StorageManager | undefined): Promise<boolean | null> {
  if (typeof storage?.persist !== 'function' || typeof storage.persisted !== 'function') return null;
  try {
    return (await storage.persisted()) || (await storage.persist());
  } catch {
    return null;
  }
}
