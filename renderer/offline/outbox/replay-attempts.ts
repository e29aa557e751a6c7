/**
 * Each replayed attempt is recorded before its request leaves, so a reload between sending
 * and answering still reconciles correctly; once answered, it is kept only when the service
 * may have acted on it unheard.
 */
import type { AttemptTiming, BridgeError, ServiceClockReading } from '../../../common/contract';
import { mayHaveBeenApplied } from '../connection/failure-kinds';
import type { AttemptRecord, OfflineDb, OutboxItem, RedemptionItem } from '../db/schema';
import { closedAttempt, legacyAttempts, openAttempt } from './attribution';

/**
 * Stores the attempt before the request leaves. For a redemption the attempt is also
 * opened on the service's clock: if the page goes away before the answer, it stays
 * unanswered, and reconciliation knows when it may have been made.
 */
export async function recordAttempt<T extends OutboxItem>(
  db: OfflineDb,
  item: T,
  at: string,
  clock: ServiceClockReading | null = null,
): Promise<T> {
  const open = item.kind === 'redeem' ? openAttempt(clock) : null;
  // Queued by an earlier version, which kept only this till's own times: placed once, now.
  const earlier = item.unanswered ?? (item.kind === 'redeem' ? legacyAttempts(item, clock) : []);
  const changes: Partial<OutboxItem> = {
    firstAttemptAt: item.firstAttemptAt ?? at,
    lastAttemptAt: at,
    attempts: item.attempts + 1,
    unanswered: open ? [...earlier, open] : earlier,
  };
  await db.outbox.update(item.seq!, changes);
  return { ...item, ...changes };
}

/**
 * Closes the attempt opened by `recordAttempt`: kept (with the main process's own times)
 * when the service may have acted on it unheard, dropped when it cannot have.
 */
export async function closeAttempt(
  db: OfflineDb,
  item: RedemptionItem,
  opened: boolean,
  error: BridgeError | null,
  timing: AttemptTiming | undefined,
): Promise<RedemptionItem> {
  const all = item.unanswered ?? [];
  const earlier = opened ? all.slice(0, -1) : all;
  const ambiguous = error !== null && mayHaveBeenApplied(error) && timing?.requestSent !== false;
  let unanswered: AttemptRecord[];
  if (!ambiguous) unanswered = earlier;
  else if (timing) unanswered = [...earlier, closedAttempt(timing)];
  // Without the main process's timing, the opened record stands (it ends at the deadline).
  else unanswered = all;
  await db.outbox.update(item.seq!, { unanswered });
  return { ...item, unanswered };
}

/**
 * An attempt that counts for nothing (a refused key; or never sent, its record not kept in
 * time): its counts, and the record opened for it, are put back as they were.
 */
export async function forgetAttempt(db: OfflineDb, before: OutboxItem): Promise<void> {
  await db.outbox.update(before.seq!, {
    attempts: before.attempts,
    lastAttemptAt: before.lastAttemptAt,
    firstAttemptAt: before.firstAttemptAt,
    unanswered: before.unanswered,
  });
}
