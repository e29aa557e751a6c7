import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { useStorageStore } from '../../../renderer/stores/storage';
import { installFakeTill, type FakeTill } from '../support/fake-till';

// The page asks the browser to keep its storage for good, once, and says what came of it to
// the main process (its log, the till's health) and to Settings' "About this till".

let fake: FakeTill;
beforeEach(() => {
  setActivePinia(createPinia());
  fake = installFakeTill();
});
afterEach(() => vi.unstubAllGlobals());

function stubStorage(storage: Partial<StorageManager> | undefined): void {
  vi.stubGlobal('navigator', { ...navigator, storage });
}

test('asks for persistence when not yet granted, and reports what the browser answered', async () => {
  const persist = vi.fn(async () => true);
  stubStorage({ persisted: async () => false, persist });
  const storage = useStorageStore();
  expect(storage.persisted).toBeUndefined();
  await storage.ask();
  expect(persist).toHaveBeenCalledTimes(1);
  expect(storage.persisted).toBe(true);
  expect(fake.callsTo('noteStorage')).toEqual([{ persisted: true }]);
});

test('does not ask again once granted; a refusal is reported as such', async () => {
  const persist = vi.fn(async () => false);
  stubStorage({ persisted: async () => true, persist });
  await useStorageStore().ask();
  expect(persist).not.toHaveBeenCalled();

  setActivePinia(createPinia());
  stubStorage({ persisted: async () => false, persist });
  const refused = useStorageStore();
  await refused.ask();
  expect(refused.persisted).toBe(false);
  expect(fake.callsTo('noteStorage').at(-1)).toEqual({ persisted: false });
});

test('a browser without the API, or one that throws, cannot say: null', async () => {
  stubStorage(undefined);
  const storage = useStorageStore();
  await storage.ask();
  expect(storage.persisted).toBeNull();
  stubStorage({
    persisted: async () => {
      throw new Error('denied');
    },
    persist: async () => true,
  });
  await storage.ask();
  expect(storage.persisted).toBeNull();
  expect(fake.callsTo('noteStorage')).toEqual([{ persisted: null }, { persisted: null }]);
});
