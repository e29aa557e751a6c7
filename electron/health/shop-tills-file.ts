import { join } from 'node:path';
import { readSeenTills, type SeenTill } from '../shop-ledger/seen-tills';

/** Where the shop ledger keeps the tills it heard from (bridge/shop-config.ts). */
export const SHOP_TILLS_FILE = 'shop-tills.json';

/** The shop's tills as the ledger last kept them, whatever shop the file was written for. */
export function readShopTills(folder: string): Promise<SeenTill[]> {
  return readSeenTills(join(folder, SHOP_TILLS_FILE));
}
