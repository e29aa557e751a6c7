import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { SearchCustomersPayload, TillApi } from '../../../../common/contract';
import { findCardHolder } from '../../../../renderer/offline/card-lookup';
import { CustomerCache } from '../../../../renderer/offline/cache/customer-cache';
import type { OfflineDb } from '../../../../renderer/offline/db/schema';
import { customer, dropDb, freshDb } from '../support/fixtures';

// A loyalty card's scan: the serials of the cache in memory (customers/serial-index.ts), and
// the service's search kept to an exact serial with the cache behind it (card-lookup.ts).

const LAYLA = customer('c-layla', 'Layla Haddad', '+966 50 123 4567');
const OMAR = customer('c-omar', 'Omar Al-Farsi', '+971 50 123 4567');
const LAYLA2 = customer('c-layla2', 'Layla Rahman', '+966 55 123 4567');
const options = { defaultCountry: () => 'SA', now: () => new Date('2026-03-01T09:00:00Z') };

describe('the cache’s serial index', () => {
  let db: OfflineDb;
  beforeEach(async () => {
    db = freshDb();
    await new CustomerCache(db, options).putCustomers([LAYLA, OMAR, LAYLA2]);
  });
  afterEach(() => dropDb(db));

  test('finds the holder of an exact serial, in any case, and nobody for part of one', async () => {
    const cache = new CustomerCache(db, options);
    await cache.loadIndex({ yieldToPage: async () => undefined });
    expect(cache.serials.ready).toBe(true);
    expect((await cache.serials.find('cc-c-layla'))?.id).toBe('c-layla');
    expect((await cache.serials.find(' CC-C-LAYLA2 '))?.id).toBe('c-layla2');
    expect(await cache.serials.find('CC-C-LAY')).toBeNull();
    expect(await cache.serials.find('CC-NOBODY')).toBeNull();
  });

  test('answers the same before it has loaded, by reading the blocks', async () => {
    const cache = new CustomerCache(db, options);
    expect(cache.serials.ready).toBe(false);
    expect((await cache.serials.find('CC-C-OMAR'))?.id).toBe('c-omar');
    expect(await cache.serials.find('CC-C-LAY')).toBeNull();
  });

  test('follows every write: a new card, a card gone', async () => {
    const cache = new CustomerCache(db, options);
    await cache.loadIndex({ yieldToPage: async () => undefined });
    const newCard = { ...LAYLA.cards[0]!, id: 'card-new', serial_number: 'BK-00000042' };
    await cache.putCustomers([{ ...LAYLA, cards: [newCard] }]);
    expect((await cache.serials.find('bk-00000042'))?.id).toBe('c-layla');
    expect(await cache.serials.find('CC-C-LAYLA')).toBeNull();
  });
});

describe('finding a card’s holder', () => {
  let db: OfflineDb;
  let cache: CustomerCache;
  const searches: SearchCustomersPayload[] = [];
  let answer: Awaited<ReturnType<TillApi['searchCustomers']>>;
  let offline = false;
  const api = {
    searchCustomers: async (payload: SearchCustomersPayload) => {
      searches.push(payload);
      return answer;
    },
  } as unknown as TillApi;
  const meta = { current_page: 1, last_page: 1, per_page: 20, total: 2 };

  beforeEach(async () => {
    db = freshDb();
    cache = new CustomerCache(db, options);
    await cache.putCustomers([LAYLA, OMAR]);
    await cache.loadIndex({ yieldToPage: async () => undefined });
    searches.length = 0;
    offline = false;
  });
  afterEach(() => dropDb(db));

  const find = (serial: string) => findCardHolder({ api, cache, offlineNow: () => offline }, serial);

  test('online: asks the service’s search, and keeps only the exact serial', async () => {
    answer = { ok: true, data: [LAYLA2, LAYLA], meta };
    expect(await find('cc-c-layla')).toEqual({ ok: true, source: 'service', customerId: 'c-layla' });
    expect(searches).toEqual([{ search: 'CC-C-LAYLA', page: 1, per_page: 20 }]);
  });

  test('online with no exact match, the cache answers; two holders are said to be two', async () => {
    answer = { ok: true, data: [LAYLA2], meta };
    expect(await find('CC-C-OMAR')).toEqual({ ok: true, source: 'cache', customerId: 'c-omar' });
    const twin = { ...LAYLA2, cards: LAYLA.cards };
    answer = { ok: true, data: [LAYLA, twin], meta };
    expect(await find('CC-C-LAYLA')).toMatchObject({ ok: true, customerId: null, several: true });
  });

  test('offline, or the service unreachable: the cache, without or after asking', async () => {
    offline = true;
    expect(await find('CC-C-LAYLA')).toEqual({ ok: true, source: 'cache', customerId: 'c-layla' });
    expect(searches).toEqual([]);
    offline = false;
    answer = { ok: false, error: { kind: 'offline', message: 'down' } };
    expect(await find('CC-C-OMAR')).toEqual({ ok: true, source: 'cache', customerId: 'c-omar' });
    answer = { ok: false, error: { kind: 'unauthorized', message: 'key refused' } };
    expect(await find('CC-C-OMAR')).toEqual({ ok: false, error: { kind: 'unauthorized', message: 'key refused' } });
  });
});
