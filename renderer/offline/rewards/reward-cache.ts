/**
 * The cached rewards: those the service last listed for a customer, and the ones it
 * described on a check or a redemption. A reward's pending mark (the outbox's) survives
 * every write here; only the outbox sets and clears it.
 */
import type { Redemption, Reward } from '../../../common/contract';
import { customerTables, putCustomerRows } from '../customers/customer-blocks';
import { findCustomerById } from '../customers/customer-reads';
import { rewardKey, type CachedReward, type OfflineDb } from '../db/schema';

export class RewardCache {
  constructor(private readonly db: OfflineDb) {}

  /**
   * The rewards `GET /v1/customers/{id}` lists as awaiting redemption, inside the caller's
   * transaction over the rewards table. Cached rewards missing from the fresh list were
   * redeemed or expired meanwhile: kept (a pending mark must survive) but no longer
   * presented as available.
   */
  async putListed(
    customerId: string,
    listed: readonly Reward[],
    owner: { phoneE164: string; name: string },
    fetchedAt: string,
  ): Promise<void> {
    const { phoneE164 } = owner;
    const cached = await this.db.rewards.where('customerId').equals(customerId).toArray();
    const byCode = new Map(cached.map((row) => [row.code, row]));
    const rows: CachedReward[] = listed.map((reward) => {
      const code = rewardKey(reward.code);
      const previous = byCode.get(code);
      byCode.delete(code);
      return {
        code,
        customerId,
        phoneE164,
        ownerName: owner.name,
        reward,
        fetchedAt,
        ...(previous?.pendingOutboxSeq !== undefined ? { pendingOutboxSeq: previous.pendingOutboxSeq } : {}),
      };
    });
    for (const stale of byCode.values()) {
      if (stale.reward.status === 'available') rows.push({ ...stale, noLongerListed: true, fetchedAt });
    }
    await this.db.rewards.bulkPut(rows);
  }

  /** Stores a reward the service described (check, redeem). Keeps a pending mark. */
  async putReward(reward: Reward, phoneE164: string | null, fetchedAt: string): Promise<CachedReward> {
    return this.db.transaction('rw', [this.db.rewards, ...customerTables(this.db)], async () => {
      const code = rewardKey(reward.code);
      const previous = await this.db.rewards.get(code);
      const owner = await findCustomerById(this.db, reward.customer_id);
      const row: CachedReward = {
        code,
        customerId: reward.customer_id,
        phoneE164: phoneE164 ?? owner?.phoneE164 ?? previous?.phoneE164 ?? null,
        ...ownerNameOf(owner?.customer.name ?? previous?.ownerName),
        reward,
        fetchedAt,
        ...(previous?.pendingOutboxSeq !== undefined ? { pendingOutboxSeq: previous.pendingOutboxSeq } : {}),
      };
      await this.db.rewards.put(row);
      return row;
    });
  }

  /**
   * Applies a confirmed redemption: the reward is redeemed, the card carries its new balance.
   * Where the service's answer could not be read in full (a part is null), the cached reward
   * is still marked redeemed, by `code`, and the card keeps what the till knew of it.
   */
  async applyRedemption(
    redemption: Redemption,
    phoneE164: string,
    fetchedAt: string,
    code = redemption.reward?.code,
  ): Promise<void> {
    if (code === undefined) return;
    await this.db.transaction('rw', [this.db.rewards, ...customerTables(this.db)], async () => {
      const key = rewardKey(code);
      const previous = await this.db.rewards.get(key);
      const reward = redemption.reward ?? (previous ? { ...previous.reward, status: 'redeemed' } : null);
      if (reward) {
        await this.db.rewards.put({
          code: key,
          customerId: reward.customer_id,
          phoneE164: previous?.phoneE164 ?? phoneE164,
          ...ownerNameOf(previous?.ownerName),
          reward,
          fetchedAt,
        });
      }
      const card = redemption.card;
      const owner = reward && card ? await findCustomerById(this.db, reward.customer_id) : null;
      if (owner && card) {
        const cards = owner.customer.cards.map((held) => (held.id === card.id ? card : held));
        await putCustomerRows(this.db, [{ ...owner, customer: { ...owner.customer, cards } }], [owner]);
      }
    });
  }

  /** Rewards to present: those still listed as available, and any with a redemption pending here. */
  async rewardsOf(customerId: string): Promise<CachedReward[]> {
    const rows = await this.db.rewards.where('customerId').equals(customerId).toArray();
    return rows
      .filter((row) => row.pendingOutboxSeq !== undefined || (row.reward.status === 'available' && !row.noLongerListed))
      .sort((a, b) => a.code.localeCompare(b.code));
  }
}

/** The owner's name where known; nothing (not an empty name) where not. */
function ownerNameOf(name: string | undefined): { ownerName?: string } {
  return name === undefined ? {} : { ownerName: name };
}
