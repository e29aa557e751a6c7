/**
 * The outbox: work done while the service could not be reached, kept in IndexedDB until
 * the replayer (replayer.ts) has it confirmed, and never deleted silently. Items leave the
 * outbox only into the journal: when the service confirmed them, or when a person
 * acknowledged a failure or a conflict.
 */
import type { BridgeError, RegisterCustomerPayload, Reward, Settings } from '../../../common/contract';
import { customerTables, deleteCustomerRow } from '../customers/customer-blocks';
import type { CustomerCache } from '../cache/customer-cache';
import { getCustomerRow } from '../customers/customer-reads';
import {
  LOCAL_ID_PREFIX,
  rewardKey,
  type AttemptRecord,
  type JournalEntry,
  type JournalOutcome,
  type OfflineDb,
  type OutboxItem,
  type OutboxNote,
  type OutboxState,
  type RedemptionItem,
} from '../db/schema';
import {
  answeredEntry,
  leftTheOutbox,
  moveToJournal,
  redeemedWork,
  type AnsweredWork,
  type ServiceTimes,
} from './journal-entries';
import {
  onlineAttemptItem,
  queueRedemption,
  recordUnanswered,
  type OnlineAttempt,
  type OutboxSettings,
  type QueueRedemptionInput,
  type QueueRedemptionOutcome,
} from './redemption-queue';
import { journalRefusedAttempt, refusedEntry, type RefusedAttempt } from './refused-attempts';
import { NotKeptError } from './main-copy';
import { notKeptEntry, takeBackRedemption } from './taking-back';
import { queueRegistration, type QueueRegistrationOutcome } from './registration-queue';

export type {
  OnlineAttempt,
  OutboxSettings,
  QueueRedemptionInput,
  QueueFieldProblems,
  QueueRedemptionOutcome,
  QueueRefusal,
} from './redemption-queue';
export type { AnsweredWork } from './journal-entries';
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
  /**
   * The main process's copy (main-copy.ts): awaited before the cashier is told "Queued". Without
   * one (tests of the outbox alone), the page's own commit is all there is to wait for.
   */
  copy?: { flushed(): Promise<void> };
}

export class Outbox {
  private readonly listeners = new Set<() => void>();
  private readonly now: () => Date;
  private readonly newLocalId: () => string;
  private readonly copy: OutboxOptions['copy'];

  constructor(
    private readonly db: OfflineDb,
    private readonly cache: CustomerCache,
    options: OutboxOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.newLocalId = options.newLocalId ?? (() => `${LOCAL_ID_PREFIX}${crypto.randomUUID()}`);
    this.copy = options.copy;
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
   * IndexedDB transaction (strict: on disk when it completes), then kept by the main process
   * (flushed to its disk); only then is the caller told "queued". A copy that could not keep it
   * in time takes it back, journalled, and the cashier is told no: nothing was promised.
   */
  async queueRedemption(input: QueueRedemptionInput, settings: OutboxSettings): Promise<QueueRedemptionOutcome> {
    // The cashier waits on this: background writes make way for it, as for their searches.
    return this.cache.asCashier(async () => {
      const outcome = await queueRedemption(this.db, input, settings, this.now());
      if (!outcome.ok) return outcome;
      this.notify();
      const problem = await this.keptElsewhere();
      if (problem === null) return outcome;
      const doneAt = this.now().toISOString();
      const taken = await takeBackRedemption(this.db, outcome.item.seq!, async (item) =>
        notKeptEntry(item, doneAt, problem),
      );
      this.notify();
      // Sent meanwhile (it cannot be, unkept: the replayer waits for the copy too), it stays queued.
      return taken ? { ok: false, reason: 'not_kept', problem } : outcome;
    });
  }

  /** Null once the main process's copy holds everything written so far; why not, otherwise. */
  private async keptElsewhere(): Promise<string | null> {
    try {
      await this.copy?.flushed();
      return null;
    } catch (error) {
      return error instanceof NotKeptError ? error.reason : String(error);
    }
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
    const item = await recordUnanswered(this.db, input, this.now().toISOString());
    this.notify();
    // It already happened: whether or not the copy has it yet, it is this till's to settle.
    const problem = await this.keptElsewhere();
    if (problem !== null) console.warn("An unanswered redemption is not in the main process's copy yet:", problem);
    return item;
  }

  /**
   * A redemption the service confirmed (a 2xx) whose answer could not be read in full: kept in
   * the journal, so the record says it was made although the till could not show all of it.
   */
  async journalConfirmedUnread(input: OnlineAttempt & { serviceAt: string | null }): Promise<void> {
    const tables = [this.db.rewards, this.db.outbox, this.db.journal, ...customerTables(this.db)];
    await this.db.transaction('rw', tables, async () => {
      const item = await onlineAttemptItem(this.db, input, input.attemptedAt);
      const seq = await this.db.outbox.add(item);
      await this.finish({ ...item, seq }, 'redeemed', { code: 'confirmed_unread' }, undefined, {
        serviceAt: input.serviceAt,
      });
    });
    this.notify();
  }

  /** The outbox item (waiting, failed or in conflict) of a redemption of this code, if any. */
  async redemptionOf(code: string): Promise<RedemptionItem | undefined> {
    const key = rewardKey(code);
    const item = await this.db.outbox.filter((row) => row.kind === 'redeem' && row.code === key).first();
    return item?.kind === 'redeem' ? item : undefined;
  }

  /** A refused attempt, for the manager to see that someone tried (refused-attempts.ts). */
  async journalRefusedElsewhere(attempt: RefusedAttempt): Promise<void> {
    if (await journalRefusedAttempt(this.db, attempt, this.now())) this.notify();
  }

  /** A redemption the service confirmed at once: journalled with its reward and the customer the cache knows. */
  async journalRedeemed(input: OnlineAttempt & { reward: Reward | null; serviceAt: string | null }): Promise<void> {
    await this.journalAnswered(await redeemedWork(this.db, input));
  }

  /**
   * Work the service answered at once goes straight to the journal: the outbox never held
   * it, but the record of who redeemed, registered or corrected what is the same.
   */
  async journalAnswered(work: AnsweredWork): Promise<void> {
    await this.db.journal.add(answeredEntry(work, this.now().toISOString()));
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
    if (outcome.ok && outcome.queued) {
      this.notify();
      // A registration is safe to send twice and costs nothing held back: kept where the copy can.
      const problem = await this.keptElsewhere();
      if (problem !== null) console.warn("A queued registration is not in the main process's copy yet:", problem);
    }
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

  /** A CSV export's rows (lib/journal-csv.ts): these journal entries, then everything still open. */
  async exportRows(entries: JournalEntry[]): Promise<{ entries: JournalEntry[]; open: OutboxItem[] }> {
    return { entries, open: await this.items() };
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
   * reward): the row, the reward's pending mark and the journal's entry of the refused attempt
   * (naming the item) go in one transaction. False when the item was sent meanwhile, or is gone.
   */
  async withdraw(seq: number, refused: RefusedAttempt): Promise<boolean> {
    const now = this.now();
    const withdrawn = await takeBackRedemption(this.db, seq, (item) => refusedEntry(this.db, refused, now, item.uid));
    if (!withdrawn) return false;
    this.notify();
    // Best kept before the cashier hears of it, though nothing was promised: the copy must not bring it back.
    await this.keptElsewhere();
    return true;
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
    note: OutboxNote | string | null,
    customerId?: string,
    times: ServiceTimes = {},
  ): Promise<void> {
    await moveToJournal(this.db, item, { outcome, note, doneAt: this.now().toISOString(), customerId, times });
  }
}
