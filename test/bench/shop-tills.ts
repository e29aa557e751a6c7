/** Three tills of one shop on loopback, each naming the two others, not yet started: the shop section's tills. */
import { createShopLedger, type ShopLedger } from '../../electron/shop-ledger/shop-ledger-service';
import type { PeerAddress } from '../../electron/shop-ledger/peer-transport';
import { freePort, LOOPBACK } from '../support/free-port';
import { SHOP_KEYS } from '../support/shop-keys';

export async function threeTills(askTimeoutMs: number): Promise<{ tills: ShopLedger[]; at: PeerAddress[] }> {
  const ports = [await freePort(), await freePort(), await freePort()];
  const at = ports.map((port) => ({ host: LOOPBACK, port }));
  const tills = at.map((listen, index) =>
    createShopLedger({
      keys: SHOP_KEYS,
      tillName: `Till ${index + 1}`,
      listen,
      peers: at.filter((other) => other !== listen),
      askTimeoutMs,
    }),
  );
  return { tills, at };
}
