/**
 * A reward checked and redeemed at the counter, service first. Offline (or when the answer is
 * lost) the check answers from the cached rewards and the redemption is queued in the outbox,
 * once per shop (the shop's ledger asked first). A redeem whose outcome is unknown (no answer,
 * a 5xx, an answer that cannot be read) is recorded in the outbox at once and settled by the
 * replayer; a 2xx is always "redeemed" (docs/service-reading.md).
 */
import type { AttemptTiming, BridgeError, Redemption, ShopClaimHolder } from '../../../common/contract';
import { readPhone } from '../../../common/phone';
import { isUnreachable, mayHaveBeenApplied } from '../connection/failure-kinds';
import { rewardKey, type AttemptRecord } from '../db/schema';
import { closedAttempt } from '../outbox/attribution';
import type { OnlineAttempt } from '../outbox/outbox';
import { checkRewardOffline } from '../rewards/offline-check';
import { CounterPart, type CounterDeps } from './counter-part';
import type { RedeemInput, RedeemOutcome, RewardCheck } from './outcomes';
import type { ShopLedgerAsks } from './shop-ledger-asks';

export class Redemptions extends CounterPart {
  constructor(
    deps: CounterDeps,
    private readonly shop: ShopLedgerAsks,
  ) {
    super(deps);
  }

  /**
   * Check a code; offline, from the cached rewards, saying so. The shop's other tills are
   * asked at the same time (within the ledger's bounded wait), online as well: a reward one of
   * them redeemed offline is still "available" to the service until that till sends it.
   */
  async checkReward(code: string, phone: string): Promise<RewardCheck> {
    const shop = this.shop.check(code.trim()).then((answer) => answer?.claimedBy ?? null);
    // The check is the cashier's attempt: a reward another till holds is refused here, and journalled.
    const refusedBy = async (): Promise<ShopClaimHolder | null> => {
      const holder = await shop;
      if (holder) this.shop.journalRefused({ code, phone }, holder);
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
    const shop = await this.shop.check(code);
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
    const claim = await this.shop.claim(code);
    if (claim && !claim.won && claim.winner) {
      // Never sent, so withdrawn, the refused attempt journalled with it; should the replayer
      // have sent it meanwhile, it stays, and a 422 on it will name the till that won.
      const winner = { till: claim.winner.till, at: claim.winner.at };
      if (await this.outbox.withdraw(outcome.item.seq!, this.shop.refusedAttempt(input, winner))) {
        return { outcome: 'refused', reason: 'claimed_elsewhere', claimedBy: winner };
      }
    }
    // Tills the cashier already chose to redeem without are not warned about twice.
    const unreachable = [...new Set(claim?.unreachable ?? [])].filter((till) => !shop.unreachable.includes(till));
    return unreachable.length > 0 ? { ...outcome, unreachableTills: unreachable } : outcome;
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
   * Refused: another till of the shop claimed the reward first. Nothing happened, yet the
   * attempt is journalled (who, which reward, which till held it) for the manager.
   */
  private refusedElsewhere(input: { code: string; phone: string }, holder: ShopClaimHolder): RedeemOutcome {
    this.shop.journalRefused(input, holder);
    return { outcome: 'refused', reason: 'claimed_elsewhere', claimedBy: { till: holder.till, at: holder.at } };
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
      void this.shop.claim(sent.code);
      this.replaySoon();
      return { outcome: 'queued', item, answerLost: true };
    } catch (failure) {
      console.error('An unanswered redemption could not be recorded', failure);
      return { outcome: 'failed', error };
    }
  }
}
