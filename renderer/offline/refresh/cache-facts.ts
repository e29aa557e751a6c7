import type { CacheReport } from '../../../common/contract';
import { readMeta } from '../db/meta';
import type { OfflineDb } from '../db/schema';

/**
 * The offline cache as the till's health reports it (common/health-contract.ts): when its last
 * complete refresh started, and the customers it held then (those the service listed, less
 * those it could not read). From the refresh's own record, so nothing is counted row by row.
 */
export async function readCacheFacts(db: OfflineDb): Promise<CacheReport> {
  const last = await readMeta(db, 'lastCompleteRefresh');
  if (!last) return { lastCompleteRefreshAt: null, customers: null };
  return { lastCompleteRefreshAt: last.at, customers: Math.max(0, last.total - (last.unreadable ?? 0)) };
}
