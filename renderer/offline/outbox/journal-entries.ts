/**
 * The journal's entries: what left the outbox (confirmed, or acknowledged by a person), and
 * work the service answered at once, which the outbox never held but whose record of who
 * redeemed, registered or corrected what is the same.
 */
import type { Reward } from '../../../common/contract';
import { findCustomerById } from '../customers/customer-reads';
import {
  rewardKey,
  type JournalEntry,
  type JournalOutcome,
  type OfflineDb,
  type OutboxItem,
  type OutboxNote,
} from '../db/schema';
import { rewardFacts, type OnlineAttempt } from './redemption-queue';

/** Work the service answered at once (never queued), kept in the journal with who did it. */
export interface AnsweredWork {
  kind: 'redeem' | 'register' | 'correct';
  outcome: 'redeemed' | 'registered' | 'corrected';
  cashier: string | null;
  customerId: string | null;
  customerName: string;
  phoneE164: string;
  code?: string | null;
  orderReference?: string | null;
  branchId?: string | null;
  rewardName?: string | null;
  points?: number | null;
  /** When the cashier asked for it, on this till's clock. */
  attemptedAt: string;
  serviceAt?: string | null;
  note?: OutboxNote | null;
}

/** Times on the service's clock for the journal, where known. */
export interface ServiceTimes {
  serviceAt?: string | null;
  /** For a redemption attributed by its time: the start of the attempt it fell in. */
  attemptAt?: string | null;
}

export function answeredEntry(work: AnsweredWork, doneAt: string): JournalEntry {
  return {
    uid: crypto.randomUUID(),
    outboxUid: null,
    outboxSeq: null,
    kind: work.kind,
    doneAt,
    outcome: work.outcome,
    code: work.code ? rewardKey(work.code) : null,
    customerId: work.customerId,
    customerName: work.customerName,
    phoneE164: work.phoneE164,
    orderReference: work.orderReference ?? null,
    branchId: work.branchId ?? null,
    queuedAt: work.attemptedAt,
    firstAttemptAt: work.attemptedAt,
    note: work.note ?? null,
    serviceAt: work.serviceAt ?? null,
    cashier: work.cashier,
    ...(work.kind === 'redeem' ? { rewardName: work.rewardName ?? null, points: work.points ?? null } : {}),
  };
}

/** A redemption the service confirmed at once, with its reward and the customer the cache knows. */
export async function redeemedWork(
  db: OfflineDb,
  input: OnlineAttempt & { reward: Reward | null; serviceAt: string | null },
): Promise<AnsweredWork> {
  const code = rewardKey(input.code);
  const cached = await db.rewards.get(code);
  const customerId = input.reward?.customer_id ?? cached?.customerId ?? null;
  const owner = customerId ? await findCustomerById(db, customerId) : undefined;
  return {
    kind: 'redeem',
    outcome: 'redeemed',
    cashier: input.cashier,
    customerId,
    customerName: owner?.customer.name ?? '',
    phoneE164: input.phoneE164,
    code,
    orderReference: input.orderReference,
    branchId: input.branchId,
    ...rewardFacts(input.reward ?? cached?.reward ?? null),
    attemptedAt: input.attemptedAt,
    serviceAt: input.serviceAt,
  };
}

/**
 * Moves an item from the outbox to the journal and clears its reward's pending mark.
 * Call inside a transaction over outbox, journal and rewards.
 */
export async function moveToJournal(
  db: OfflineDb,
  item: OutboxItem,
  finished: {
    outcome: JournalOutcome;
    note: OutboxNote | string | null;
    doneAt: string;
    customerId?: string;
    times?: ServiceTimes;
  },
): Promise<void> {
  const { outcome, note, doneAt, customerId, times = {} } = finished;
  const shared = {
    uid: crypto.randomUUID(),
    outboxUid: item.uid,
    outboxSeq: item.seq!,
    doneAt,
    outcome,
    phoneE164: item.phoneE164,
    queuedAt: item.queuedAt,
    firstAttemptAt: item.firstAttemptAt,
    note,
    serviceAt: times.serviceAt ?? null,
    ...(times.attemptAt ? { attemptAt: times.attemptAt } : {}),
    cashier: item.cashier ?? null,
  };
  const entry: JournalEntry =
    item.kind === 'redeem'
      ? {
          ...shared,
          kind: 'redeem',
          code: item.code,
          customerId: item.customerId,
          customerName: item.customerName,
          orderReference: item.orderReference,
          branchId: item.branchId,
          rewardName: item.rewardName ?? null,
          points: item.points ?? null,
        }
      : {
          ...shared,
          kind: 'register',
          code: null,
          customerId: customerId ?? null,
          customerName: item.name,
          orderReference: null,
          branchId: null,
        };
  await db.journal.add(entry);
  await db.outbox.delete(item.seq!);
  if (item.kind === 'redeem') {
    const reward = await db.rewards.get(rewardKey(item.code));
    if (reward && reward.pendingOutboxSeq === item.seq) {
      const { pendingOutboxSeq: _cleared, ...rest } = reward;
      await db.rewards.put(rest);
    }
  }
}

/** Null `outboxSeq`: answered by the service at once; entries of earlier versions all left the outbox. */
export function leftTheOutbox(entry: JournalEntry): boolean {
  return entry.outboxSeq !== null;
}
