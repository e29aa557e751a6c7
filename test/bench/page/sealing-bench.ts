/**
 * The first start of a till upgraded from before sealing: a cache written in clear (seeded
 * with `beforeSealing`), opened with the sealing on, and the app's sealing pass timed until
 * every record is sealed, as `createOfflineServices().start()` runs it, with no cashier at the
 * till (the pass makes way for one, and takes longer while one searches).
 */
import { CustomerCache } from '../../../renderer/offline/cache/customer-cache';
import { runSealingPass } from '../../../renderer/offline/sealing-pass';
import { benchDb } from './bench-db';
import { COUNTRY } from './search-bench';

export interface SealingBenchResult {
  ms: number;
  sealed: number;
  done: boolean;
  transactions: number;
}

export async function sealingBench(dbName: string): Promise<SealingBenchResult> {
  const db = benchDb(dbName);
  try {
    await db.open();
    const cache = new CustomerCache(db, { defaultCountry: () => COUNTRY });
    let transactions = 0;
    const started = performance.now();
    const progress = await runSealingPass({ db, rhythm: cache, onProgress: () => (transactions += 1) });
    return { ms: performance.now() - started, sealed: progress.sealed, done: progress.done, transactions };
  } finally {
    db.close();
  }
}
