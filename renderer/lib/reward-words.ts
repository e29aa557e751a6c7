import type { Reward } from '../../electron/contract';

/** What a reward gives, in words: how many items, from which products. */
export function rewardGrants(reward: Reward): string {
  const { quantity, products_list: products } = reward.allowed_products;
  const items = `${quantity} item${quantity === 1 ? '' : 's'}`;
  if (products.length === 0) return `${items}, any product`;
  if (products.length === 1) return `${items} of 1 listed product`;
  return `${items}, choice of ${products.length} listed products`;
}
