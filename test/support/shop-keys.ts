// Shop keys for the shop-ledger tests: two shops that differ in their branch only.
import { deriveShopKeys, type ShopKeys } from '../../electron/shop-ledger/shop-secret';

function shop(branchId: string): ShopKeys {
  const keys = deriveShopKeys({
    apiKey: 'sk_test_shop_ledger_0123456789',
    baseUrl: 'https://loyalty.example.com',
    branchId,
    programId: null,
  });
  if (keys === null) throw new Error('expected a shop');
  return keys;
}

export const SHOP_KEYS = shop('3f2b8c1e-4a5d-4e6f-8a7b-9c0d1e2f3a4b');
export const OTHER_SHOP_KEYS = shop('3f2b8c1e-4a5d-4e6f-8a7b-9c0d1e2f3a4c');
