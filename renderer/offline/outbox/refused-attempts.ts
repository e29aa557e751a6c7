import { findCustomerById } from '../customers/customer-reads';
import { rewardKey, type JournalEntry, type OfflineDb } from '../db/schema';

/** A redemption refused at this till because another till of the shop holds the reward. */
export interface RefusedAttempt {
  code: string;
  phoneE164: string;
  cashier: string | null;
  attemptedAt: string;
  heldBy: { till: string; at: string };
}

/** How far back a refused attempt is looked for: a shift, with room for a long one. */
const SAME_ATTEMPT_WITHIN_MS = 24 * 60 * 60 * 1000;

/**
 * Journals a refused attempt (who, which reward, which till held it) for the journal, the
 * report and the CSV: nothing happened, yet the manager must see that someone tried. A cashier
 * who checks a held reward again, or presses again, makes one attempt, not one per look: the
 * same reward refused for the same claim to the same cashier is journalled once; another
 * cashier's is another attempt. Whether it was journalled now.
 */
export async function journalRefusedAttempt(db: OfflineDb, attempt: RefusedAttempt, now: Date): Promise<boolean> {
  if (await isRepeated(db, { ...attempt, code: rewardKey(attempt.code) }, now)) return false;
  await db.journal.add(await refusedEntry(db, attempt, now, null));
  return true;
}

/**
 * The journal's entry of a refused attempt; `outboxUid` names the queued item it took back
 * (`Outbox.withdraw`), so that the item's leaving is on record. Read inside the caller's
 * transaction where there is one.
 */
export async function refusedEntry(
  db: OfflineDb,
  attempt: RefusedAttempt,
  now: Date,
  outboxUid: string | null,
): Promise<JournalEntry> {
  const code = rewardKey(attempt.code);
  const cached = await db.rewards.get(code);
  const owner = cached ? await findCustomerById(db, cached.customerId) : undefined;
  return {
    uid: crypto.randomUUID(),
    outboxUid,
    outboxSeq: null,
    kind: 'redeem',
    doneAt: now.toISOString(),
    outcome: 'refused_elsewhere',
    code,
    customerId: cached?.customerId ?? null,
    customerName: owner?.customer.name ?? '',
    phoneE164: attempt.phoneE164,
    orderReference: null,
    branchId: null,
    queuedAt: attempt.attemptedAt,
    firstAttemptAt: null,
    note: { code: 'claimed_elsewhere', till: attempt.heldBy.till, at: attempt.heldBy.at },
    cashier: attempt.cashier,
    heldBy: { till: attempt.heldBy.till, at: attempt.heldBy.at },
    rewardName: cached?.reward.name ?? null,
    points: null,
  };
}

async function isRepeated(db: OfflineDb, attempt: RefusedAttempt, now: Date): Promise<boolean> {
  const since = new Date(now.getTime() - SAME_ATTEMPT_WITHIN_MS).toISOString();
  const same = await db.journal
    .where('doneAt')
    .aboveOrEqual(since)
    .filter(
      (entry) =>
        entry.outcome === 'refused_elsewhere' &&
        entry.code === attempt.code &&
        entry.cashier === attempt.cashier &&
        entry.heldBy?.till === attempt.heldBy.till &&
        entry.heldBy?.at === attempt.heldBy.at,
    )
    .count();
  return same > 0;
}
