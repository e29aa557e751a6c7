/**
 * Which other till of the shop holds a reward, as this till's shop ledger says (docs/shop-ledger.md):
 * asked by the counter for the rewards it lists and by the replay for a conflict's attribution.
 * A ledger that is off or fails answers null, and the till then works alone, as before it.
 */
import type { ShopClaimHolder, TillApi } from '../../../common/contract';

export async function askShopHolder(api: Pick<TillApi, 'shopHolder'>, code: string): Promise<ShopClaimHolder | null> {
  try {
    const answer = await api.shopHolder({ reward_code: code });
    return answer.ok ? answer.data.holder : null;
  } catch (failure) {
    console.warn('The shop ledger could not be read', failure);
    return null;
  }
}
