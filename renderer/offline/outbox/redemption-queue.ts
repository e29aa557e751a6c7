/**
 * A redemption into the outbox: one queued while the service cannot be reached (checked
 * against the cache, refused where the settings or the cache say no), or one sent online
 * whose answer never came (stored whatever the cache says, since the service may have made
 * it). Either way the row and the cached reward's pending mark are written in one IndexedDB
 * transaction, so no reward is offered twice and no row lacks its mark.
 */
import type { BridgeError, Reward, Settings } from '../../../common/contract';
import { customerTables } from '../customers/customer-blocks';
import { findCustomerById } from '../customers/customer-reads';
import type { Table } from 'dexie';
import { rewardKey, type AttemptRecord, type CachedReward, type OfflineDb, type RedemptionItem } from '../db/schema';
import { checkRewardOffline, type OfflineCheck } from '../rewards/offline-check';
import { newItemState } from './new-item';
import type { QueueFieldProblems } from '../../vocabulary/rewards';

export type { QueueFieldProblems };

/** What the outbox needs of the till's settings, passed with each request (they can change). */
export type OutboxSettings = Pick<Settings, 'allowOfflineRedemption' | 'branchId' | 'defaultCountry'>;

export interface QueueRedemptionInput {
  code: string;
  /** As typed or scanned. */
  phone: string;
  orderReference?: string | null;
  /**
   * When an online attempt was already made (and its answer lost) before falling back to
   * the queue: its start time on this till's clock, for display.
   */
  firstAttemptAt?: string | null;
  /** That attempt on the service's clock, when the service may have acted on it unheard. */
  unanswered?: AttemptRecord | null;
  /** Who is at the till; null when nobody was named. */
  cashier?: string | null;
}

/** A redeem this till sent to the service itself (not from the queue). */
export interface OnlineAttempt {
  code: string;
  phoneE164: string;
  branchId: string | null;
  orderReference: string | null;
  /** When it was sent, on this till's clock. */
  attemptedAt: string;
  /** Who is at the till; null when nobody was named. */
  cashier: string | null;
}

export type QueueRefusal =
  | 'offline_redemption_disabled'
  | 'not_available' // the offline check did not find it available (see `check`)
  | 'invalid_input'
  | 'not_kept'; // the main process's copy could not keep it in time (`problem`): taken back

export type QueueRedemptionOutcome =
  | { ok: true; item: RedemptionItem; check: OfflineCheck }
  | { ok: false; reason: 'offline_redemption_disabled' }
  | { ok: false; reason: 'not_available'; check: OfflineCheck }
  | { ok: false; reason: 'invalid_input'; fields: QueueFieldProblems }
  | { ok: false; reason: 'not_kept'; problem: string };

export const MAX_ORDER_REFERENCE = 191;

/** Queues a redemption checked against the cache; only once it has committed is it "queued". */
export async function queueRedemption(
  db: OfflineDb,
  input: QueueRedemptionInput,
  settings: OutboxSettings,
  queuedAt: Date,
): Promise<QueueRedemptionOutcome> {
  if (!settings.allowOfflineRedemption) return { ok: false, reason: 'offline_redemption_disabled' };
  const orderReference = input.orderReference?.trim() || null;
  if (orderReference !== null && orderReference.length > MAX_ORDER_REFERENCE) {
    return {
      ok: false,
      reason: 'invalid_input',
      fields: { order_reference: { problem: 'too_long', max: MAX_ORDER_REFERENCE } },
    };
  }
  // A reward cached with its owner's phone and name needs nothing of the customer tables, and
  // so never waits for a fill writing them; one cached by an earlier version reads its owner.
  const narrow = await queueIn(db, [db.rewards, db.outbox], input, settings, queuedAt);
  if (narrow !== OWNER_UNKNOWN) return narrow;
  const wide = await queueIn(db, [db.rewards, db.outbox, ...customerTables(db)], input, settings, queuedAt);
  // With the customer tables in the transaction, the owner is always read.
  if (wide === OWNER_UNKNOWN) throw new Error('The owner of a cached reward could not be read.');
  return wide;
}

const OWNER_UNKNOWN = Symbol('the cached reward no longer names its owner');
const knowsOwner = (row: CachedReward | undefined): boolean => !!row?.phoneE164 && row.ownerName !== undefined;

/** The check and the write, in one transaction over `tables` (with the customer tables, or not). */
async function queueIn(
  db: OfflineDb,
  tables: Table[],
  input: QueueRedemptionInput,
  settings: OutboxSettings,
  queuedAt: Date,
): Promise<QueueRedemptionOutcome | typeof OWNER_UNKNOWN> {
  const orderReference = input.orderReference?.trim() || null;
  const withCustomers = tables.includes(db.customerBlocks);
  return db.transaction('rw', tables, async () => {
    // Checked inside the transaction: two windows queueing the same code cannot both pass.
    const held = await db.rewards.get(rewardKey(input.code));
    if (!withCustomers && !knowsOwner(held)) return OWNER_UNKNOWN;
    const check = await checkRewardOffline(db, input, { defaultCountry: settings.defaultCountry, now: queuedAt }, held);
    if (check.verdict !== 'available') {
      return { ok: false as const, reason: 'not_available' as const, check };
    }
    const ownerName = held?.ownerName ?? (await findCustomerById(db, check.customerId!))?.customer.name ?? '';
    const item: RedemptionItem = {
      kind: 'redeem',
      ...newItemState(queuedAt.toISOString(), input.firstAttemptAt ?? null),
      unanswered: input.unanswered ? [input.unanswered] : [],
      failures: 0,
      code: check.code,
      phoneE164: check.phoneE164!,
      branchId: settings.branchId,
      orderReference,
      customerId: check.customerId!,
      customerName: ownerName,
      serviceReward: null,
      cashier: input.cashier ?? null,
      ...rewardFacts(check.reward),
    };
    const seq = await db.outbox.add(item);
    // The row read above, marked: no outbox row without its pending mark (they commit together).
    await db.rewards.put({ ...held!, pendingOutboxSeq: seq });
    return { ok: true as const, item: { ...item, seq }, check };
  });
}

/**
 * An online redeem whose outcome is unknown, stored at once with the attempt the service may
 * have acted on; the cached reward, where there is one, is marked pending with it.
 */
export async function recordUnanswered(
  db: OfflineDb,
  input: OnlineAttempt & { attempt: AttemptRecord; error: BridgeError },
  queuedAt: string,
): Promise<RedemptionItem> {
  return db.transaction('rw', [db.rewards, db.outbox, ...customerTables(db)], async () => {
    const item = await onlineAttemptItem(db, input, queuedAt);
    Object.assign(item, { unanswered: [input.attempt], lastError: input.error, failures: 0 });
    const seq = await db.outbox.add(item);
    await db.rewards.where('code').equals(item.code).modify({ pendingOutboxSeq: seq });
    return { ...item, seq };
  });
}

/** An item for a redeem sent online, named after the cached reward's owner where the cache has it. */
export async function onlineAttemptItem(
  db: OfflineDb,
  input: OnlineAttempt,
  queuedAt: string,
): Promise<RedemptionItem> {
  const code = rewardKey(input.code);
  const cached = await db.rewards.get(code);
  const owner = cached ? await findCustomerById(db, cached.customerId) : undefined;
  return {
    kind: 'redeem',
    ...newItemState(queuedAt, input.attemptedAt),
    code,
    phoneE164: input.phoneE164,
    branchId: input.branchId,
    orderReference: input.orderReference,
    customerId: cached?.customerId ?? '',
    customerName: owner?.customer.name ?? '',
    serviceReward: null,
    cashier: input.cashier,
    ...rewardFacts(cached?.reward ?? null),
  };
}

/** A reward's name, and its price in points where it has one (a points reward), for the record. */
export function rewardFacts(reward: Reward | null): { rewardName: string | null; points: number | null } {
  return {
    rewardName: reward?.name ?? null,
    points: typeof reward?.price === 'number' && Number.isFinite(reward.price) ? reward.price : null,
  };
}
