import type { Reward } from '../../common/contract';
import { t, tPlural } from '../i18n';
import { formatCount } from '../i18n/format';

/** What a reward gives, in words: how many items, from which products. */
export function rewardGrants(reward: Reward): string {
  if (reward.allowed_products === null) return t('rewardGrants.notKnown');
  const { quantity, products_list: products } = reward.allowed_products;
  const items = tPlural('rewardGrants.items', quantity, { count: formatCount(quantity) });
  if (products.length === 0) return t('rewardGrants.anyProduct', { items });
  if (products.length === 1) return t('rewardGrants.oneProduct', { items });
  return tPlural('rewardGrants.choice', products.length, { items, products: formatCount(products.length) });
}
