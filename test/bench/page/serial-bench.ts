/**
 * A loyalty card's scan offline, in the page: the app's own CustomerCache over a seeded
 * database, its serial index loaded as the app loads it (after the search index and the
 * listings), then `findCardHolder` with the service unreachable and the holder's record read
 * as the customer screen reads it offline (`CustomerCache.getCustomer`, with the rewards).
 */
import type { TillApi } from '../../../common/contract';
import { findCardHolder } from '../../../renderer/offline/card-lookup';
import { CustomerCache } from '../../../renderer/offline/cache/customer-cache';
import { benchDb } from './bench-db';
import { COUNTRY } from './search-bench';

export interface SerialBenchResult {
  /** From a new cache to its serial index ready (index and listings first, as in the app). */
  loadMs: number;
  samples: number[];
  /** Serials whose holder was not the customer generated with it. */
  wrong: string[];
}

/** Never asked: offline, the lookup goes to the cache first. */
const UNREACHABLE = {
  searchCustomers: async () => ({ ok: false, error: { kind: 'offline', message: 'offline' } }),
} as unknown as TillApi;

export async function serialBench(dbName: string, size: number, lookups: number): Promise<SerialBenchResult> {
  const db = benchDb(dbName);
  try {
    const cache = new CustomerCache(db, { defaultCountry: () => COUNTRY });
    const started = performance.now();
    await cache.loadIndex();
    const loadMs = performance.now() - started;
    const samples: number[] = [];
    const wrong: string[] = [];
    for (let n = 0; n < lookups; n++) {
      // Scattered over the whole base: serial i + 1 belongs to customer i (generate.ts).
      const i = (n * 7_919 + 13) % size;
      const serial = `CC-${String(i + 1).padStart(8, '0')}`;
      const t0 = performance.now();
      const found = await findCardHolder({ api: UNREACHABLE, cache, offlineNow: () => true }, serial);
      const opened = found.ok && found.customerId ? await cache.getCustomer(found.customerId) : null;
      samples.push(performance.now() - t0);
      if (!opened || opened.record.customer.cards[0]?.serial_number !== serial) wrong.push(serial);
    }
    return { loadMs, samples, wrong };
  } finally {
    db.close();
  }
}
