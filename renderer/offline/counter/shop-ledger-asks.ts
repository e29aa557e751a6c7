/**
 * The counter's asks of the shop's ledger (docs/shop-ledger.md): which other till holds a
 * reward, a code checked and claimed, the waiting redemptions told again at start-up, and an
 * attempt refused because another till held the reward, journalled. A ledger that is off or
 * fails answers null here, and the till then works alone, as before the ledger.
 */
import type { Reward, ShopCheck, ShopClaim, ShopClaimHolder } from '../../../common/contract';
import { readPhone } from '../../../common/phone';
import { rewardKey } from '../../../common/reward-key';
import type { RedemptionItem } from '../db/schema';
import type { RefusedAttempt } from '../outbox/refused-attempts';
import { askShopHolder } from '../outbox/shop-holder';
import { CounterPart } from './counter-part';

export class ShopLedgerAsks extends CounterPart {
  /**
   * Another till's claim on each of these rewards that is still available by the service's or
   * the cache's word, as this till's ledger holds it (asking no one: the list must not wait
   * for the LAN; checks and anti-entropy keep the ledger current). None when the ledger is off.
   */
  async holdersOf(rewards: readonly Reward[]): Promise<Record<string, ShopClaimHolder>> {
    const held: Record<string, ShopClaimHolder> = {};
    await Promise.all(
      rewards
        .filter((reward) => reward.status === 'available')
        .map(async ({ code }) => {
          const holder = await askShopHolder(this.api, code);
          if (holder) held[rewardKey(code)] = holder;
        }),
    );
    return held;
  }

  /**
   * What the other tills of the shop know of the code; null when the ledger is off or the ask
   * failed, and the till then works alone, as before the ledger.
   */
  async check(code: string): Promise<ShopCheck | null> {
    try {
      const answer = await this.api.shopCheck({ reward_code: code });
      return answer.ok && answer.data.enabled ? answer.data : null;
    } catch (failure) {
      console.warn('The shop ledger could not be asked', failure);
      return null;
    }
  }

  /** This till's claim, told to the shop; null when the ledger is off or the claim failed. */
  async claim(code: string): Promise<ShopClaim | null> {
    try {
      const claimed = await this.api.shopClaim({ reward_code: code });
      if (claimed.ok) return claimed.data.enabled ? claimed.data : null;
      console.warn('The shop ledger did not take the claim', claimed.error.kind);
    } catch (failure) {
      console.warn('The shop ledger did not take the claim', failure);
    }
    return null;
  }

  /** A refused attempt into the journal, behind the answer (the cashier never waits for it). */
  journalRefused(input: { code: string; phone: string }, holder: ShopClaimHolder): void {
    const attempt = this.refusedAttempt(input, holder);
    this.writeBehind.queue('a refused redemption for the journal', () => this.outbox.journalRefusedElsewhere(attempt));
  }

  /** An attempt refused here because `holder` claimed the reward: who, which reward, when. */
  refusedAttempt(input: { code: string; phone: string }, holder: ShopClaimHolder): RefusedAttempt {
    return {
      code: input.code.trim(),
      phoneE164: readPhone(input.phone, this.settings().defaultCountry)?.e164 ?? input.phone.trim(),
      cashier: this.cashier(),
      attemptedAt: this.now().toISOString(),
      heldBy: { till: holder.till, at: holder.at },
    };
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
    const claims = await Promise.all(waiting.map((item) => this.claim(item.code)));
    return claims.every((claim) => claim !== null);
  }
}
