import type { Result, ShopTills } from '../../common/contract';
import type { ShopLedger } from './shop-ledger-service';
import type { Logger } from '../log/log';

/** How long Settings' live list waits for the other tills: short, it is asked again soon. */
export const SHOP_TILLS_WAIT_MS = 1000;

/**
 * `shopTills`: the shop's other tills as Settings shows them live, each asked now (bounded
 * wait), whether it answered, and when it last did. No ledger (off, the demo, starting): none.
 */
export function shopTillsHandler(options: {
  running: () => ShopLedger | null;
  errorKind: (error: unknown) => string;
  log: Logger;
  waitMs?: number;
}) {
  return async (): Promise<Result<ShopTills>> => {
    const ledger = options.running();
    if (ledger === null) return { ok: true, data: { enabled: false, tills: [] } };
    try {
      const tills = await ledger.tills(options.waitMs ?? SHOP_TILLS_WAIT_MS);
      return {
        ok: true,
        data: {
          enabled: true,
          tills: tills.map(({ till, reachable, lastHeardAt }) => ({
            till,
            reachable,
            lastHeardAt: lastHeardAt === null ? null : new Date(lastHeardAt).toISOString(),
          })),
        },
      };
    } catch (error) {
      options.log.warn(`The other tills of the shop could not be listed (${options.errorKind(error)}).`);
      return { ok: true, data: { enabled: true, tills: [] } };
    }
  };
}
