/**
 * What the cashier does at the counter, service first: each operation asks the service and
 * falls back to the cache (or the outbox) when it cannot be reached, saying which one
 * answered (`source`). Everything the service returns is written through to the cache
 * behind the answer (customers/write-behind.ts): the cashier never waits for IndexedDB,
 * which may be busy with the background refresh. Reads that answer from the cache first let
 * the queued writes finish, so they see them.
 *
 * A redeem whose outcome is unknown (no answer, a 5xx, an answer that cannot be read) is
 * recorded in the outbox at once and settled by the replayer; a 2xx is always "redeemed"
 * (docs/service-reading.md).
 *
 * The answers are reasons and data, never words: the view layer words them
 * (lib/counter-words.ts).
 */
import type {
  AttemptTiming,
  BridgeError,
  Customer,
  PageMeta,
  RegisterCustomerPayload,
  Redemption,
  Reward,
  Settings,
  ShopCheck,
  ShopClaim,
  ShopClaimHolder,
  TillApi,
  UpdateCustomerPayload,
} from '../../common/contract';
import { readPhone } from '../../common/phone';
import { isUnreachable, mayHaveBeenApplied } from './connection/failure-kinds';
import { PAGE_SIZE, type CacheSearchResult, type CustomerCache } from './customers/customer-cache';
import type { WriteBehind } from './customers/write-behind';
import { LOCAL_ID_PREFIX, rewardKey, type AttemptRecord, type OfflineDb, type RedemptionItem } from './db/schema';
import { closedAttempt } from './outbox/attribution';
import type { OnlineAttempt, Outbox, QueueRedemptionOutcome, QueueRegistrationOutcome } from './outbox/outbox';
import { checkRewardOffline, type OfflineCheck } from './rewards/offline-check';
import type { ListedCustomer } from './search/listings';
import { parseQuery } from './search/search-index';

export interface CacheNote {
  /** Oldest fetch time among the customers shown: "from the cache of <time>". */
  of: string | null;
  /** False while the search index is still loading and the answer may miss customers. */
  complete: boolean;
  /** More matched than can be listed: type more. */
  capped: boolean;
}

/** The service's search gives whole customers; the cache's, what the results list shows of each. */
export type CustomerSearch =
  | { ok: true; source: 'service'; customers: Customer[]; meta: PageMeta }
  | { ok: true; source: 'cache'; customers: ListedCustomer[]; meta: PageMeta; cache: CacheNote }
  | { ok: false; error: BridgeError };

export type CustomerLookup =
  | {
      ok: true;
      source: 'service' | 'cache';
      customer: Customer;
      cachedAt: string | null;
      pendingCodes: string[];
      localOnly: boolean;
      /** By reward code: another till of the shop redeemed it offline, as this till's ledger knows now. */
      claimedElsewhere: Record<string, ShopClaimHolder>;
    }
  | { ok: false; error: BridgeError };

/** `claimedBy`: the shop's other tills were asked too, and one of them redeemed it, not yet sent. */
export type RewardCheck =
  | { ok: true; source: 'service'; reward: Reward; pendingHere: boolean; claimedBy: ShopClaimHolder | null }
  | { ok: true; source: 'cache'; check: OfflineCheck; claimedBy: ShopClaimHolder | null }
  | { ok: false; error: BridgeError };

export type RedeemOutcome =
  | { outcome: 'redeemed'; redemption: Redemption }
  /**
   * Stored in the outbox. `answerLost`: sent online with no answer the till could read, so the
   * service may already have made it (then `check` is absent: the service, not the cache, checked).
   * `unreachableTills`: tills of the shop that did not answer the ledger's check, which may
   * have redeemed it meanwhile.
   */
  | {
      outcome: 'queued';
      item: RedemptionItem;
      check?: OfflineCheck;
      answerLost?: true;
      unreachableTills?: string[];
    }
  /** Another till of the shop claimed it offline first: nothing is queued or sent. */
  | { outcome: 'refused'; reason: 'claimed_elsewhere'; claimedBy: ShopClaimHolder }
  /**
   * Nothing queued yet: a till of the shop cannot be reached and may have redeemed it. The
   * cashier decides (ask at that till, or redeem anyway: again with `splitAccepted`).
   */
  | { outcome: 'split'; unreachableTills: string[] }
  /** A till of the shop cannot be reached and Settings refuse offline redemption then. */
  | { outcome: 'refused'; reason: 'shop_split'; unreachableTills: string[] }
  /** A redemption of this code already waits in this till's outbox. */
  | { outcome: 'refused'; reason: 'already_queued' }
  /** Refused by the queue (the settings, the offline check, the input), as the outbox said it. */
  | ({ outcome: 'refused' } & QueueRefused<QueueRedemptionOutcome>)
  | { outcome: 'failed'; error: BridgeError };

/** A refusal of the outbox's queue, without its `ok`. */
type QueueRefused<T> = Omit<Extract<T, { ok: false }>, 'ok'>;

export type RegisterOutcome =
  | { outcome: 'registered'; customer: Customer; created: boolean }
  | { outcome: 'queued'; customer: Customer }
  | { outcome: 'known_here'; customer: Customer }
  | ({ outcome: 'refused' } & QueueRefused<QueueRegistrationOutcome>)
  | { outcome: 'failed'; error: BridgeError };

/**
 * The code of the error a lookup answers when the service cannot be reached and the cache
 * does not hold the customer (the error's words are the view layer's).
 */
export const NOT_CACHED_CUSTOMER = 'not_cached_customer';

/** A redemption asked for; `splitAccepted`: the cashier chose to redeem while a till of the shop is out of reach. */
export interface RedeemInput {
  code: string;
  phone: string;
  orderReference?: string | null;
  splitAccepted?: boolean;
}

/** The settings the counter reads; `shopRedeemWhenSplit` is true unless said otherwise. */
export type CounterSettings = Pick<Settings, 'defaultCountry' | 'branchId' | 'allowOfflineRedemption'> &
  Partial<Pick<Settings, 'shopRedeemWhenSplit'>>;

/** What the counter's operations work with, wired by index.ts. */
export interface CounterDeps {
  db: OfflineDb;
  /** `window.till`, observed by the connection monitor. */
  api: TillApi;
  cache: CustomerCache;
  outbox: Outbox;
  writeBehind: WriteBehind;
  settings: () => CounterSettings;
  now: () => Date;
  /** The connection monitor says the service cannot be reached now. */
  offlineNow: () => boolean;
  /** Asks the replayer to run now, unless offline. */
  replaySoon: () => void;
  /** Who is at the till now (recorded with every redemption, registration and correction); null if nobody was named. */
  cashier?: () => string | null;
}

export class CounterOperations {
  private readonly db: OfflineDb;
  private readonly api: TillApi;
  private readonly cache: CustomerCache;
  private readonly outbox: Outbox;
  private readonly writeBehind: WriteBehind;
  private readonly settings: CounterDeps['settings'];
  private readonly now: () => Date;
  private readonly offlineNow: () => boolean;
  private readonly replaySoon: () => void;
  private readonly cashier: () => string | null;

  constructor(deps: CounterDeps) {
    ({
      db: this.db,
      api: this.api,
      cache: this.cache,
      outbox: this.outbox,
      writeBehind: this.writeBehind,
      settings: this.settings,
      now: this.now,
      offlineNow: this.offlineNow,
      replaySoon: this.replaySoon,
    } = deps);
    this.cashier = deps.cashier ?? (() => null);
  }

  /** Cache reads that answer the cashier see every answer already shown. */
  private async afterWrites<T>(read: () => Promise<T>): Promise<T> {
    await this.writeBehind.settled();
    return read();
  }

  private async searchOffline(text: string, page: number): Promise<CustomerSearch> {
    const found: CacheSearchResult = await this.afterWrites(() => this.cache.search(text, page, PAGE_SIZE));
    return {
      ok: true,
      source: 'cache',
      customers: found.customers.map(({ id, name, phone, cards }) => ({ id, name, phone, cards })),
      meta: { current_page: found.page, last_page: found.lastPage, per_page: found.perPage, total: found.total },
      cache: { of: found.cacheOf, complete: found.complete, capped: found.capped },
    };
  }

  private async pendingCodesOf(customerId: string): Promise<string[]> {
    return (await this.cache.rewardsOf(customerId))
      .filter((row) => row.pendingOutboxSeq !== undefined)
      .map((row) => row.code);
  }

  /**
   * Another till's claim on each of these rewards that is still available by the service's or
   * the cache's word, as this till's ledger holds it (asking no one: the list must not wait
   * for the LAN; checks and anti-entropy keep the ledger current). None when the ledger is off.
   */
  private async shopHoldersOf(rewards: readonly Reward[]): Promise<Record<string, ShopClaimHolder>> {
    const held: Record<string, ShopClaimHolder> = {};
    await Promise.all(
      rewards
        .filter((reward) => reward.status === 'available')
        .map(async ({ code }) => {
          try {
            const answer = await this.api.shopHolder({ reward_code: code });
            if (answer.ok && answer.data.holder) held[code.toUpperCase()] = answer.data.holder;
          } catch (failure) {
            console.warn('The shop ledger could not be read', failure);
          }
        }),
    );
    return held;
  }

  private async lookupOffline(id: string, error: BridgeError): Promise<CustomerLookup> {
    const cached = await this.afterWrites(() => this.cache.getCustomer(id));
    if (!cached) return { ok: false, error };
    const rewards = cached.rewards.map((row) => row.reward);
    return {
      ok: true,
      source: 'cache',
      customer: { ...cached.record.customer, rewards },
      cachedAt: cached.record.fetchedAt,
      pendingCodes: cached.rewards.filter((row) => row.pendingOutboxSeq !== undefined).map((row) => row.code),
      localOnly: cached.record.localOnly === true,
      claimedElsewhere: await this.shopHoldersOf(rewards),
    };
  }

  /** Never sent to the service: an attempt it may have acted on is recorded instead (`recordUnanswered`). */
  private async queueRedemption(input: {
    code: string;
    phone: string;
    orderReference?: string | null;
  }): Promise<RedeemOutcome> {
    const cashier = this.cashier();
    const queued = await this.afterWrites(() => this.outbox.queueRedemption({ ...input, cashier }, this.settings()));
    if (queued.ok) return { outcome: 'queued', item: queued.item, check: queued.check };
    const { ok: _refused, ...refusal } = queued;
    return { outcome: 'refused', ...refusal };
  }

  /**
   * What the other tills of the shop know of the code; null when the ledger is off or the ask
   * failed, and the till then works alone, as before the ledger.
   */
  private async askShop(code: string): Promise<ShopCheck | null> {
    try {
      const answer = await this.api.shopCheck({ reward_code: code });
      return answer.ok && answer.data.enabled ? answer.data : null;
    } catch (failure) {
      console.warn('The shop ledger could not be asked', failure);
      return null;
    }
  }

  /**
   * An offline redemption (never sent to the service), kept once per shop (docs/shop-ledger.md):
   * 1. the shop's other tills are asked; one that claimed it wins, and nothing is queued;
   * 2. a till that cannot be reached may have redeemed it: Settings say whether to go on;
   * 3. queued here (durable), then claimed, the claim awaited within the ledger's bounded wait:
   *    of two tills claiming at once, both name the same winner, and the other withdraws its
   *    queued item before the cashier hands anything over.
   * A ledger that is off or fails leaves the till deciding alone, as before the ledger.
   */
  private async queueOffline(input: RedeemInput): Promise<RedeemOutcome> {
    // Refused by the settings anyway: asking the shop would only make the cashier wait.
    const { splitAccepted, ...queueInput } = input;
    if (!this.settings().allowOfflineRedemption) return this.queueRedemption(queueInput);
    const code = input.code.trim();
    const shop = await this.askShop(code);
    if (shop?.claimedBy) return this.refusedElsewhere(input, shop.claimedBy);
    if (shop && shop.unreachable.length > 0 && this.settings().shopRedeemWhenSplit === false) {
      return { outcome: 'refused', reason: 'shop_split', unreachableTills: [...shop.unreachable] };
    }
    // Asked before anything is queued: the cashier has not told the customer yes yet.
    if (shop && shop.unreachable.length > 0 && !splitAccepted) {
      return { outcome: 'split', unreachableTills: [...shop.unreachable] };
    }
    const outcome = await this.queueRedemption(queueInput);
    if (outcome.outcome !== 'queued' || !shop) return outcome;
    const claim = await this.claimInShop(code);
    if (claim && !claim.won && claim.winner) {
      // Never sent, so withdrawn; should the replayer have sent it meanwhile, it stays, and a
      // 422 on it will name the till that won.
      if (await this.outbox.withdraw(outcome.item.seq!)) return this.refusedElsewhere(input, claim.winner);
    }
    // Tills the cashier already chose to redeem without are not warned about twice.
    const unreachable = [...new Set(claim?.unreachable ?? [])].filter((till) => !shop.unreachable.includes(till));
    return unreachable.length > 0 ? { ...outcome, unreachableTills: unreachable } : outcome;
  }

  /**
   * Refused: another till of the shop claimed the reward first. Nothing happened, yet the
   * attempt is journalled (who, which reward, which till held it) for the manager.
   */
  private refusedElsewhere(input: { code: string; phone: string }, holder: ShopClaimHolder): RedeemOutcome {
    this.journalRefusedElsewhere(input, holder);
    return { outcome: 'refused', reason: 'claimed_elsewhere', claimedBy: { till: holder.till, at: holder.at } };
  }

  /** A refused attempt into the journal, behind the answer (the cashier never waits for it). */
  private journalRefusedElsewhere(input: { code: string; phone: string }, holder: ShopClaimHolder): void {
    const phoneE164 = readPhone(input.phone, this.settings().defaultCountry)?.e164 ?? input.phone.trim();
    const attempt = {
      code: input.code.trim(),
      phoneE164,
      cashier: this.cashier(),
      attemptedAt: this.now().toISOString(),
      heldBy: holder,
      // The refusal's reason, not words: the journal's readers word it from `heldBy`.
      note: 'claimed_elsewhere',
    };
    this.writeBehind.queue('a refused redemption for the journal', () => this.outbox.journalRefusedElsewhere(attempt));
  }

  /** This till's claim, told to the shop; null when the ledger is off or the claim failed. */
  private async claimInShop(code: string): Promise<ShopClaim | null> {
    try {
      const claimed = await this.api.shopClaim({ reward_code: code });
      if (claimed.ok) return claimed.data.enabled ? claimed.data : null;
      console.warn('The shop ledger did not take the claim', claimed.error.kind);
    } catch (failure) {
      console.warn('The shop ledger did not take the claim', failure);
    }
    return null;
  }

  /**
   * Tells the shop again of every redemption still waiting in this till's outbox (at start-up:
   * the claims on disk may be gone, or the other tills may have missed them). Whether the
   * ledger took them: false while it is not running yet, so the caller may try again.
   */
  async announcePending(): Promise<boolean> {
    const waiting = (await this.outbox.items()).filter(
      (item): item is RedemptionItem => item.kind === 'redeem' && item.state === 'pending',
    );
    const claims = await Promise.all(waiting.map((item) => this.claimInShop(item.code)));
    return claims.every((claim) => claim !== null);
  }

  /** A redemption of this code already waits (or failed, or conflicts) in this till's outbox. */
  private async redemptionWaitsHere(code: string): Promise<boolean> {
    const cached = await this.db.rewards.get(rewardKey(code));
    return cached?.pendingOutboxSeq !== undefined || (await this.outbox.redemptionOf(code)) !== undefined;
  }

  /**
   * A 2xx: the service redeemed it. Written through to the cache; where the answer could not be
   * read in full, the journal keeps the record, since the screen cannot show all of it.
   */
  private redeemed(redemption: Redemption, sent: OnlineAttempt, attempt: AttemptTiming | undefined): RedeemOutcome {
    const fetchedAt = this.now().toISOString();
    this.writeBehind.queue('a redemption', () =>
      this.cache.applyRedemption(redemption, sent.phoneE164, fetchedAt, sent.code),
    );
    const serviceAt = typeof attempt?.end === 'number' ? new Date(attempt.end).toISOString() : null;
    if (redemption.reward === null || redemption.card === null) {
      this.writeBehind.queue('a redemption read in part', () =>
        this.outbox.journalConfirmedUnread({ ...sent, serviceAt }),
      );
    } else {
      // Who redeemed what: the till's record, joined to the POS's by the order reference.
      this.writeBehind.queue('a redemption for the journal', () =>
        this.outbox.journalRedeemed({ ...sent, reward: redemption.reward, serviceAt }),
      );
    }
    return { outcome: 'redeemed', redemption };
  }

  private async recordUnanswered(
    sent: OnlineAttempt,
    attempt: AttemptRecord | null,
    error: BridgeError,
  ): Promise<RedeemOutcome> {
    try {
      // Without the main process's timing the attempt still counts, its times unknown.
      const window = attempt ?? { start: null, end: null, uncertaintyMs: null, localStart: 0, localEnd: null };
      const item = await this.afterWrites(() => this.outbox.recordUnanswered({ ...sent, attempt: window, error }));
      // The service may have made it: the shop's other tills must refuse it meanwhile. The item
      // stays whoever wins, since only the service knows whether it was made.
      void this.claimInShop(sent.code);
      this.replaySoon();
      return { outcome: 'queued', item, answerLost: true };
    } catch (failure) {
      console.error('An unanswered redemption could not be recorded', failure);
      return { outcome: 'failed', error };
    }
  }

  /** Find customers by phone, name words or part of a number; from the cache when offline. */
  async searchCustomers(text: string, page = 1): Promise<CustomerSearch> {
    if (this.offlineNow()) return this.searchOffline(text, page);
    const query = parseQuery(text, this.settings().defaultCountry);
    const base = { page, per_page: PAGE_SIZE };
    const payload =
      query.kind === 'phone'
        ? { ...base, phone: query.e164 }
        : query.kind === 'digits'
          ? { ...base, search: query.digits }
          : query.kind === 'name'
            ? { ...base, search: text.trim() }
            : base;
    let result = await this.api.searchCustomers(payload);
    // As offline: a complete number nobody has exactly is still worth a digit search.
    if (result.ok && query.kind === 'phone' && result.data.length === 0) {
      result = await this.api.searchCustomers({ ...base, search: query.digits });
    }
    if (result.ok) {
      const customers = result.data;
      const fetchedAt = this.now().toISOString();
      this.writeBehind.queue('a page of search results', () => this.cache.putCustomers(customers, fetchedAt));
      return { ok: true, source: 'service', customers, meta: result.meta };
    }
    if (isUnreachable(result.error)) return this.searchOffline(text, page);
    return { ok: false, error: result.error };
  }

  /** One customer with the rewards awaiting redemption; from the cache when offline. */
  async getCustomer(id: string): Promise<CustomerLookup> {
    const notReachable: BridgeError = { kind: 'offline', code: NOT_CACHED_CUSTOMER, message: NOT_CACHED_CUSTOMER };
    if (id.startsWith(LOCAL_ID_PREFIX) || this.offlineNow()) return this.lookupOffline(id, notReachable);
    const result = await this.api.getCustomer({ id });
    if (result.ok) {
      const customer = result.data;
      const fetchedAt = this.now().toISOString();
      this.writeBehind.queue('a customer and their rewards', () =>
        this.cache.putCustomerWithRewards(customer, fetchedAt),
      );
      return {
        ok: true,
        source: 'service',
        customer,
        cachedAt: fetchedAt,
        // Pending marks live on the rewards table, which the refresh never writes: a quick read.
        pendingCodes: await this.pendingCodesOf(id),
        localOnly: false,
        claimedElsewhere: await this.shopHoldersOf(customer.rewards ?? []),
      };
    }
    if (isUnreachable(result.error)) return this.lookupOffline(id, result.error);
    return { ok: false, error: result.error };
  }

  /**
   * Check a code; offline, from the cached rewards, saying so. The shop's other tills are
   * asked at the same time (within the ledger's bounded wait), online as well: a reward one of
   * them redeemed offline is still "available" to the service until that till sends it.
   */
  async checkReward(code: string, phone: string): Promise<RewardCheck> {
    const shop = this.askShop(code.trim()).then((answer) => answer?.claimedBy ?? null);
    // The check is the cashier's attempt: a reward another till holds is refused here, and journalled.
    const refusedBy = async (): Promise<ShopClaimHolder | null> => {
      const holder = await shop;
      if (holder) this.journalRefusedElsewhere({ code, phone }, holder);
      return holder;
    };
    const country = this.settings().defaultCountry;
    const offline = async () => ({
      ok: true as const,
      source: 'cache' as const,
      check: await this.afterWrites(() =>
        checkRewardOffline(this.db, { code, phone }, { defaultCountry: country, now: this.now() }),
      ),
      claimedBy: await refusedBy(),
    });
    if (this.offlineNow()) return offline();
    const reading = readPhone(phone, country);
    const result = await this.api.checkReward({ reward_code: code.trim(), phone: reading?.e164 ?? phone.trim() });
    if (result.ok) {
      const reward = result.data;
      const fetchedAt = this.now().toISOString();
      this.writeBehind.queue('a checked reward', () => this.cache.putReward(reward, reading?.e164 ?? null, fetchedAt));
      // The pending mark is set by the outbox, not by write-through: read it as it stands.
      const pendingHere = (await this.db.rewards.get(rewardKey(reward.code)))?.pendingOutboxSeq !== undefined;
      // The service's "redeemed" or "expired" stands; a claim matters only while it says available.
      const claimedBy = reward.status === 'available' ? await refusedBy() : null;
      return { ok: true, source: 'service', reward, pendingHere, claimedBy };
    }
    if (isUnreachable(result.error)) return offline();
    return { ok: false, error: result.error };
  }

  /**
   * Redeem after the order is settled. Offline (or when the answer is lost) it is queued,
   * if the settings allow it, and the caller hears "queued" only once it is stored.
   */
  async redeemReward(input: RedeemInput): Promise<RedeemOutcome> {
    if (await this.redemptionWaitsHere(input.code)) {
      return { outcome: 'refused', reason: 'already_queued' };
    }
    if (this.offlineNow()) return this.queueOffline(input);
    const { branchId, defaultCountry } = this.settings();
    const phoneE164 = readPhone(input.phone, defaultCountry)?.e164 ?? input.phone.trim();
    const sent = {
      code: input.code.trim(),
      phoneE164,
      branchId,
      orderReference: input.orderReference?.trim() || null,
      attemptedAt: this.now().toISOString(),
      cashier: this.cashier(),
    };
    const result = await this.api.redeemReward({
      reward_code: sent.code,
      phone: phoneE164,
      ...(branchId ? { branch_id: branchId } : {}),
      ...(sent.orderReference ? { order_reference: sent.orderReference } : {}),
    });
    if (result.ok) return this.redeemed(result.data, sent, result.attempt);
    // The service may have made it with its answer lost (no answer, a 5xx, an unreadable one):
    // recorded at once and settled by the replayer, whatever the settings say.
    if (mayHaveBeenApplied(result.error) && result.attempt?.requestSent !== false) {
      const attempt = result.attempt ? closedAttempt(result.attempt) : null;
      return this.recordUnanswered(sent, attempt, result.error);
    }
    // Never sent, so never made: queued as offline, where the settings allow it.
    if (isUnreachable(result.error) && this.settings().allowOfflineRedemption) return this.queueOffline(input);
    return { outcome: 'failed', error: result.error };
  }

  /** Register (idempotent by phone); offline it is queued and the customer usable at once. */
  async registerCustomer(payload: RegisterCustomerPayload): Promise<RegisterOutcome> {
    const queue = async (): Promise<RegisterOutcome> => {
      const cashier = this.cashier();
      const queued = await this.afterWrites(() => this.outbox.queueRegistration(payload, this.settings(), cashier));
      if (!queued.ok) {
        const { ok: _refused, ...refusal } = queued;
        return { outcome: 'refused', ...refusal };
      }
      if (!queued.queued) return { outcome: 'known_here', customer: queued.customer.customer };
      this.replaySoon();
      return { outcome: 'queued', customer: queued.customer.customer };
    };
    if (this.offlineNow()) return queue();
    const cashier = this.cashier();
    const attemptedAt = this.now().toISOString();
    const result = await this.api.registerCustomer(payload);
    if (result.ok) {
      const { customer, created } = result.data;
      const fetchedAt = this.now().toISOString();
      this.writeBehind.queue('a registered customer', () => this.cache.putCustomers([customer], fetchedAt));
      // A phone the service already knew registers nobody new: only a creation is journalled.
      if (created) this.journalCustomer('register', customer, cashier, attemptedAt);
      return { outcome: 'registered', customer, created };
    }
    if (isUnreachable(result.error)) return queue();
    return { outcome: 'failed', error: result.error };
  }

  /** Corrections need the service (they are not queued); the answer is written through. */
  async updateCustomer(payload: UpdateCustomerPayload) {
    const cashier = this.cashier();
    const attemptedAt = this.now().toISOString();
    const result = await this.api.updateCustomer(payload);
    if (result.ok) {
      const customer = result.data;
      const fetchedAt = this.now().toISOString();
      this.writeBehind.queue('a corrected customer', () => this.cache.putCustomers([customer], fetchedAt));
      this.journalCustomer('correct', customer, cashier, attemptedAt);
    }
    return result;
  }

  /** A registration or correction the service made: into the journal, behind the answer. */
  private journalCustomer(
    kind: 'register' | 'correct',
    customer: Customer,
    cashier: string | null,
    attemptedAt: string,
  ): void {
    const phoneE164 = readPhone(customer.phone, this.settings().defaultCountry)?.e164 ?? customer.phone;
    this.writeBehind.queue(`a ${kind === 'register' ? 'registration' : 'correction'} for the journal`, () =>
      this.outbox.journalAnswered({
        kind,
        outcome: kind === 'register' ? 'registered' : 'corrected',
        cashier,
        customerId: customer.id,
        customerName: customer.name,
        phoneE164,
        attemptedAt,
      }),
    );
  }
}
