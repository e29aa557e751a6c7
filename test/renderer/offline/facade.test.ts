// The offline facade hands out operations only: its database, cache, outbox, replayer,
// refresh and connection monitor stay inside (views and stores cannot reach past it).
import { expect, test } from 'vitest';
import type { TillApi } from '../../../common/contract';
import { createOfflineServices } from '../../../renderer/offline';
import { dropDb, freshDb } from './support/fixtures';

test('the facade exposes functions only, and none of its internals', async () => {
  const db = freshDb();
  try {
    const services = createOfflineServices({
      api: {} as TillApi,
      db,
      locks: null,
      settings: () => ({ defaultCountry: 'SA', branchId: null, allowOfflineRedemption: true }),
    });
    for (const internal of ['db', 'cache', 'outbox', 'replayer', 'refresh', 'connection']) {
      expect(services).not.toHaveProperty(internal);
    }
    const notOperations = Object.entries(services).filter(([, value]) => typeof value !== 'function');
    expect(notOperations.map(([name]) => name)).toEqual([]);
    // @ts-expect-error the database is not part of the facade's type either
    void services.db;
  } finally {
    await dropDb(db);
  }
});
