/**
 * The outbox: work done while the service could not be reached, kept in IndexedDB until
 * the replayer (replayer.ts) has it confirmed, and never deleted silently. Items leave the
 * outbox only into the journal: when the service confirmed them, or when a person
 * acknowledged a failure or a conflict.
 */
import type { BridgeError, RegisterCustomerPayload, Reward, Settings } from '../../../common/contract';
import { t } from '../../i18n';
import { formatCount } from '../../i18n/format';
import { customerTables, deleteCustomerRow } from '../customers/customer-blocks';
import { findCustomerById, getCustomerRow } from '../customers/customer-reads';
import {
  LOCAL_ID_PREFIX,
  rewardKey,
  type AttemptRecord,
  type JournalEntry,
  type JournalOutcome,
  type OfflineDb,
  type OutboxItem,
  type OutboxState,
  type RedemptionItem,
} from '../db/schema';
import { queueRegistration, type QueueRegistrationOutcome } from './registration-queue';
import { newItemState } from './new-item';
import { checkRewardOffline, type OfflineCheck } from '../rewards/offline-check';
import type { CustomerCache } from '../customers/customer-cache';
import { journalRefusedAttempt, type RefusedAttempt } from './refused-attempts';

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
  note?: string | null;
}

export type QueueRefusal =
  | 'offline_redemption_disabled'
  | 'not_available' // the offline check did not find it available (see `check`)
  | 'invalid_input';

export type QueueRedemptionOutcome =
  | { ok: true; item: RedemptionItem; check: OfflineCheck }
  | { ok: false; reason: QueueRefusal; message?: string; check?: OfflineCheck; fields?: Record<string, string> };

export type { QueueRegistrationOutcome } from './registration-queue';

export interface OutboxCounts {
  pending: number;
  failed: number;
  conflict: number;
  done: number;
}

export interface OutboxOptions {
  now?: () => Date;
  /** Local ids for customers registered offline; random by default. */
  newLocalId?: () => string;
}

const MAX_ORDER_REFERENCE = 191;

export class Outbox {
  private readonly listeners = new Set<() => void>();
  private readonly now: () => Date;
  private readonly newLocalId: () => string;

  constructor(
    private readonly db: OfflineDb,
    private readonly cache: CustomerCache,
    options: OutboxOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.newLocalId = options.newLocalId ?? (() => `${LOCAL_ID_PREFIX}${crypto.randomUUID()}`);
  }

  /** Called after every change of the outbox or the journal (for counts in the header). */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  notify(): void {
    for (const listener of this.listeners) listener();
  }

  /**
   * Queues a redemption. The outbox row and the reward's pending mark are written in one
   * IndexedDB transaction; only once it has committed is the caller told "queued".
   */
  async queueRedemption(input: QueueRedemptionInput, settings: OutboxSettings): Promise<QueueRedemptionOutcome> {
    if (!settings.allowOfflineRedemption) {
      return {
        ok: false,
        reason: 'offline_redemption_disabled',
        message: t('outboxQueue.offlineRedemptionOff'),
      };
    }
    const orderReference = input.orderReference?.trim() || null;
    if (orderReference !== null && orderReference.length > MAX_ORDER_REFERENCE) {
      return {
        ok: false,
        reason: 'invalid_input',
        message: t('outboxQueue.orderTooLong'),
        fields: { order_reference: t('outboxQueue.orderAtMost', { max: formatCount(MAX_ORDER_REFERENCE) }) },
      };
    }
    const queuedAt = this.now();
    const outcome = await this.db.transaction(
      'rw',
      [this.db.rewards, this.db.outbox, ...customerTables(this.db)],
      async () => {
        // Checked inside the transaction: two windows queueing the same code cannot both pass.
        const check = await checkRewardOffline(this.db, input, {
          defaultCountry: settings.defaultCountry,
          now: queuedAt,
        });
        if (check.verdict !== 'available') {
          return { ok: false as const, reason: 'not_available' as const, check };
        }
        const owner = await findCustomerById(this.db, check.customerId!);
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
          customerName: owner?.customer.name ?? '',
          serviceReward: null,
          cashier: input.cashier ?? null,
          ...rewardFacts(check.reward),
        };
        const seq = await this.db.outbox.add(item);
        const marked = await this.db.rewards.update(check.code, { pendingOutboxSeq: seq });
        // Throwing aborts the transaction: no outbox row without its pending mark.
        if (marked !== 1) throw new Error(`The cached reward ${check.code} could not be marked pending.`);
        return { ok: true as const, item: { ...item, seq }, check };
      },
    );
    if (outcome.ok) this.notify();
    return outcome;
  }

  /**
   * Records an online redeem whose outcome is unknown (no answer, a 5xx, an answer that could
   * not be read): the service may have made it. Stored at once, whatever the settings and the
   * cache say, because it already happened; the replayer then settles it like a queued item
   * (a 422 on replay is reconciled against `unanswered`). The cached reward, where there is
   * one, is marked pending in the same transaction, so it is not offered for a second redeem.
   */
  async recordUnanswered(
    input: OnlineAttempt & { attempt: AttemptRecord; error: BridgeError },
  ): Promise<RedemptionItem> {
    const item = await this.db.transaction(
      'rw',
      [this.db.rewards, this.db.outbox, ...customerTables(this.db)],
      async () => {
        const item = await this.onlineAttemptItem(input, this.now().toISOString());
        Object.assign(item, { unanswered: [input.attempt], lastError: input.error, failures: 0 });
        const seq = await this.db.outbox.add(item);
        await this.db.rewards.where('code').equals(item.code).modify({ pendingOutboxSeq: seq });
        return { ...item, seq };
      },
    );
    this.notify();
    return item;
  }

  /**
   * A redemption the service confirmed (a 2xx) whose answer could not be read in full: kept in
   * the journal, so the record says it was made although the till could not show all of it.
   */
  async journalConfirmedUnread(input: OnlineAttempt & { serviceAt: string | null }): Promise<void> {
    const tables = [this.db.rewards, this.db.outbox, this.db.journal, ...customerTables(this.db)];
    await this.db.transaction('rw', tables, async () => {
      const item = await this.onlineAttemptItem(input, input.attemptedAt);
      const seq = await this.db.outbox.add(item);
      const note = t('outboxQueue.confirmedUnread');
      await this.finish({ ...item, seq }, 'redeemed', note, undefined, { serviceAt: input.serviceAt });
    });
    this.notify();
  }

  /** The outbox item (waiting, failed or in conflict) of a redemption of this code, if any. */
  async redemptionOf(code: string): Promise<RedemptionItem | undefined> {
    const key = rewardKey(code);
    const item = await this.db.outbox.filter((row) => row.kind === 'redeem' && row.code === key).first();
    return item?.kind === 'redeem' ? item : undefined;
  }

  /** An item for a redeem sent online, named after the cached reward's owner where the cache has it. */
  private async onlineAttemptItem(input: OnlineAttempt, queuedAt: string): Promise<RedemptionItem> {
    const code = rewardKey(input.code);
    const cached = await this.db.rewards.get(code);
    const owner = cached ? await findCustomerById(this.db, cached.customerId) : undefined;
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

  /** A refused attempt, for the manager to see that someone tried (refused-attempts.ts). */
  async journalRefusedElsewhere(attempt: RefusedAttempt): Promise<void> {
    if (await journalRefusedAttempt(this.db, attempt, this.now())) this.notify();
  }

  /** A redemption the service confirmed at once: journalled with its reward and the customer the cache knows. */
  async journalRedeemed(input: OnlineAttempt & { reward: Reward | null; serviceAt: string | null }): Promise<void> {
    const code = rewardKey(input.code);
    const cached = await this.db.rewards.get(code);
    const customerId = input.reward?.customer_id ?? cached?.customerId ?? null;
    const owner = customerId ? await findCustomerById(this.db, customerId) : undefined;
    await this.journalAnswered({
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
    });
  }

  /**
   * Work the service answered at once goes straight to the journal: the outbox never held
   * it, but the record of who redeemed, registered or corrected what is the same.
   */
  async journalAnswered(work: AnsweredWork): Promise<void> {
    const entry: JournalEntry = {
      outboxSeq: null,
      kind: work.kind,
      doneAt: this.now().toISOString(),
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
    await this.db.journal.add(entry);
    this.notify();
  }

  /**
   * Queues a registration (the service is idempotent by phone, so replaying it is safe)
   * and makes the customer usable on this till at once (registration-queue.ts).
   */
  async queueRegistration(
    payload: RegisterCustomerPayload,
    settings: Pick<Settings, 'defaultCountry'>,
    cashier: string | null = null,
  ): Promise<QueueRegistrationOutcome> {
    const outcome = await queueRegistration(this.db, this.cache, payload, settings.defaultCountry, {
      now: this.now,
      newLocalId: this.newLocalId,
      cashier,
    });
    if (outcome.ok && outcome.queued) this.notify();
    return outcome;
  }

  /** Everything in the outbox, oldest first. */
  async items(): Promise<OutboxItem[]> {
    return this.db.outbox.orderBy('seq').toArray();
  }

  /** The whole journal, oldest first: what left the outbox and what the service answered at once. */
  async journal(): Promise<JournalEntry[]> {
    return this.db.journal.orderBy('seq').toArray();
  }

  /** The journal entries done since a time (ISO), oldest first: the shift report's. */
  async journalSince(since: string): Promise<JournalEntry[]> {
    return this.db.journal.where('doneAt').aboveOrEqual(since).sortBy('seq');
  }

  /** What left the outbox (the Outbox screen's "done"): work answered at once never waited there. */
  async outboxJournal(): Promise<JournalEntry[]> {
    return (await this.journal()).filter(leftTheOutbox);
  }

  async counts(): Promise<OutboxCounts> {
    const count = (state: OutboxState) => this.db.outbox.where('state').equals(state).count();
    const [pending, failed, conflict, done] = await Promise.all([
      count('pending'),
      count('failed'),
      count('conflict'),
      this.db.journal.filter(leftTheOutbox).count(),
    ]);
    return { pending, failed, conflict, done };
  }

  /** A person has reviewed a failure or a conflict: it moves to the journal. */
  /** `serviceAt`: the service's time now (ISO), where known, for the journal. */
  async acknowledge(seq: number, serviceAt: string | null = null): Promise<boolean> {
    const acknowledged = await this.db.transaction(
      'rw',
      [this.db.outbox, this.db.journal, this.db.rewards, ...customerTables(this.db)],
      async () => {
        const item = await this.db.outbox.get(seq);
        if (!item || item.state === 'pending') return null;
        const outcome: JournalOutcome = item.state === 'conflict' ? 'conflict_acknowledged' : 'failure_acknowledged';
        await this.finish(item, outcome, item.note, undefined, { serviceAt });
        if (item.kind === 'register') {
          // The service never accepted this customer; the journal keeps the record of it.
          const local = await getCustomerRow(this.db, item.customerPk);
          if (local?.localOnly) await deleteCustomerRow(this.db, item.customerPk);
        }
        return true;
      },
    );
    if (acknowledged) this.notify();
    return acknowledged !== null;
  }

  /**
   * Clears the back-off waits of every pending item. The back-off protects the service from
   * tills retrying on their own; a person asking to send now is not held to it.
   */
  async clearWaits(options: { forgetFailures?: boolean } = {}): Promise<void> {
    await this.db.outbox
      .where('state')
      .equals('pending')
      .modify((item) => {
        item.nextAttemptAt = null;
        if (options.forgetFailures) item.failures = 0;
      });
  }

  /**
   * Takes back a queued redemption that was never sent (another till of the shop won the
   * reward): the row and the reward's pending mark go in one transaction, and nothing reaches
   * the journal, since nothing happened. False when the item was sent meanwhile, or is gone.
   */
  async withdraw(seq: number): Promise<boolean> {
    const withdrawn = await this.db.transaction('rw', [this.db.outbox, this.db.rewards], async () => {
      const item = await this.db.outbox.get(seq);
      if (item?.kind !== 'redeem' || item.state !== 'pending' || item.attempts > 0 || item.firstAttemptAt !== null) {
        return false;
      }
      await this.db.outbox.delete(seq);
      await this.db.rewards
        .where('code')
        .equals(item.code)
        .modify((reward) => {
          if (reward.pendingOutboxSeq === seq) delete reward.pendingOutboxSeq;
        });
      return true;
    });
    if (withdrawn) this.notify();
    return withdrawn;
  }

  /** Puts a failed item back in the queue (after the cause was fixed, e.g. the settings). */
  async retry(seq: number): Promise<boolean> {
    const changed = await this.db.outbox
      .where('seq')
      .equals(seq)
      .modify((item) => {
        if (item.state !== 'failed') return;
        item.state = 'pending';
        item.nextAttemptAt = null;
        item.note = null;
      });
    if (changed > 0) this.notify();
    return changed > 0;
  }

  /**
   * Moves an item from the outbox to the journal and clears its reward's pending mark.
   * Call inside a transaction over outbox, journal and rewards.
   */
  async finish(
    item: OutboxItem,
    outcome: JournalOutcome,
    note: string | null,
    customerId?: string,
    times: { serviceAt?: string | null; attemptAt?: string | null } = {},
  ): Promise<void> {
    const doneAt = this.now().toISOString();
    const serviceTimes = {
      serviceAt: times.serviceAt ?? null,
      ...(times.attemptAt ? { attemptAt: times.attemptAt } : {}),
    };
    const entry: JournalEntry =
      item.kind === 'redeem'
        ? {
            outboxSeq: item.seq!,
            kind: 'redeem',
            doneAt,
            outcome,
            code: item.code,
            customerId: item.customerId,
            customerName: item.customerName,
            phoneE164: item.phoneE164,
            orderReference: item.orderReference,
            branchId: item.branchId,
            queuedAt: item.queuedAt,
            firstAttemptAt: item.firstAttemptAt,
            note,
            ...serviceTimes,
            cashier: item.cashier ?? null,
            rewardName: item.rewardName ?? null,
            points: item.points ?? null,
          }
        : {
            outboxSeq: item.seq!,
            kind: 'register',
            doneAt,
            outcome,
            code: null,
            customerId: customerId ?? null,
            customerName: item.name,
            phoneE164: item.phoneE164,
            orderReference: null,
            branchId: null,
            queuedAt: item.queuedAt,
            firstAttemptAt: item.firstAttemptAt,
            note,
            ...serviceTimes,
            cashier: item.cashier ?? null,
          };
    await this.db.journal.add(entry);
    await this.db.outbox.delete(item.seq!);
    if (item.kind === 'redeem') {
      const reward = await this.db.rewards.get(rewardKey(item.code));
      if (reward && reward.pendingOutboxSeq === item.seq) {
        const { pendingOutboxSeq: _cleared, ...rest } = reward;
        await this.db.rewards.put(rest);
      }
    }
  }
}

/** Null `outboxSeq`: answered by the service at once; entries of earlier versions all left the outbox. */
function leftTheOutbox(entry: JournalEntry): boolean {
  return entry.outboxSeq !== null;
}

/** A reward's name, and its price in points where it has one (a points reward), for the record. */
export function rewardFacts(reward: Reward | null): { rewardName: string | null; points: number | null } {
  return {
    rewardName: reward?.name ?? null,
    points: typeof reward?.price === 'number' && Number.isFinite(reward.price) ? reward.price : null,
  };
}
