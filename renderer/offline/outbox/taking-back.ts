/**
 * Taking back a queued redemption that was never sent: another till of the shop won the
 * reward, or the main process's copy could not keep it in time, so the cashier was told no.
 * The row and the reward's pending mark go in one transaction with a journal entry naming the
 * item (`outboxUid`): every item that leaves the outbox leaves a record, so that the main
 * process's copy, should it hold the item after all, is told it left rather than bringing it
 * back (copy-reconciliation.ts).
 */
import { customerTables } from '../customers/customer-blocks';
import { rewardKey, type JournalEntry, type OfflineDb, type RedemptionItem } from '../db/schema';

/** The item taken back, or null when it was sent meanwhile (or is gone): then it stays. */
export async function takeBackRedemption(
  db: OfflineDb,
  seq: number,
  entryOf: (item: RedemptionItem) => Promise<JournalEntry>,
): Promise<RedemptionItem | null> {
  // The customer tables too: the journal's entry names the reward's owner, read from the cache.
  return db.transaction('rw', [db.outbox, db.rewards, db.journal, ...customerTables(db)], async () => {
    const item = await db.outbox.get(seq);
    if (item?.kind !== 'redeem' || item.state !== 'pending' || item.attempts > 0 || item.firstAttemptAt !== null) {
      return null;
    }
    await db.journal.add(await entryOf(item));
    await db.outbox.delete(seq);
    await db.rewards
      .where('code')
      .equals(rewardKey(item.code))
      .modify((reward) => {
        if (reward.pendingOutboxSeq === seq) delete reward.pendingOutboxSeq;
      });
    return item;
  });
}

/** The journal's entry of a redemption the main process's copy could not keep: nothing was queued. */
export function notKeptEntry(item: RedemptionItem, doneAt: string, problem: string): JournalEntry {
  return {
    uid: crypto.randomUUID(),
    outboxUid: item.uid,
    outboxSeq: null,
    kind: 'redeem',
    doneAt,
    outcome: 'not_kept',
    code: item.code,
    customerId: item.customerId,
    customerName: item.customerName,
    phoneE164: item.phoneE164,
    orderReference: item.orderReference,
    branchId: item.branchId,
    queuedAt: item.queuedAt,
    firstAttemptAt: null,
    note: { code: 'refused', said: problem },
    cashier: item.cashier ?? null,
    rewardName: item.rewardName ?? null,
    points: item.points ?? null,
  };
}
