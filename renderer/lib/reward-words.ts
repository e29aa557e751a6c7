import type { Reward } from '../../common/contract';
import { t, tPlural } from '../i18n';
import { formatCount } from '../i18n/format';

/** What a reward gives, in words: how many items, from which products. */
export function rewardGrants(reward: Reward): string {
  if (reward.allowed_products === null) return t('rewardGrants.notKnown');
  const { quantity, products_list: products } = reward.allowed_products;
  return grantsWords(quantity, products.length);
}

/** "2 items, choosing from 3 products": the customer display says it from the counts alone. */
export function grantsWords(quantity: number, productCount: number): string {
  const items = tPlural('rewardGrants.items', quantity, { count: formatCount(quantity) });
  if (productCount === 0) return t('rewardGrants.anyProduct', { items });
  if (productCount === 1) return t('rewardGrants.oneProduct', { items });
  return tPlural('rewardGrants.choice', productCount, { items, products: formatCount(productCount) });
}
