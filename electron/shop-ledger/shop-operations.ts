/**
 * The bridge operations of the shop ledger (docs/shop-ledger.md): whether another till of
 * the shop holds a reward, claiming it, settling it, and who holds it. With no ledger
 * running, or when the other tills cannot be asked, the till decides alone.
 */
import type { Logger } from '../log/log';
import type { Wording } from '../messages';
import * as payloads from '../validation/bridge-payloads';
import { joinOperations, operationMaker, type OperationTable } from '../validation/bridge-operation';
import type { ShopLedger } from './shop-ledger-service';
import { shopTillsHandler } from './shop-tills';
import { shopReportOperations, type ShopReportNeeds } from './shop-report-operations';

export interface ShopNeeds extends Pick<ShopReportNeeds, 'relay' | 'refusal'> {
  /** The ledger, once it listens; null while it starts, when off, or when it could not start. */
  running: () => ShopLedger | null;
  /** How long `shopCheck` waits for the other tills in all; `DEFAULT_SHOP_CHECK_WAIT_MS` when not given. */
  checkWaitMs: number | undefined;
  /** The one word of an error a log line may carry. */
  errorKind: (error: unknown) => string;
  log: Logger;
  wording: () => Wording;
}

/** How long `shopCheck` waits for the other tills in all, unless the core is told otherwise. */
export const DEFAULT_SHOP_CHECK_WAIT_MS = 1500;

const NO_SHOP = { enabled: false, claimedBy: null, unreachable: [] };

type ShopOperation = 'shopCheck' | 'shopClaim' | 'shopSettle' | 'shopHolder' | 'shopTills';

export function shopOperations(
  needs: ShopNeeds,
): OperationTable<ShopOperation | 'shopReports' | 'shopReportRequest' | 'shopReportAnswer'> {
  const { running, log, errorKind } = needs;
  const op = operationMaker(needs.wording);
  const ownTable: OperationTable<ShopOperation> = {
    shopCheck: op(payloads.shopRewardPayload, async ({ reward_code }) => {
      const ledger = running();
      if (ledger === null) return { ok: true, data: NO_SHOP };
      try {
        const { claimedBy, unreachable } = await ledger.check(reward_code, {
          waitMs: needs.checkWaitMs ?? DEFAULT_SHOP_CHECK_WAIT_MS,
        });
        const holder = claimedBy && { till: claimedBy.till, at: claimedBy.at };
        return { ok: true, data: { enabled: true, claimedBy: holder, unreachable } };
      } catch (error) {
        log.warn(`The other tills of the shop could not be asked (${errorKind(error)}); this till decides alone.`);
        return { ok: true, data: NO_SHOP };
      }
    }),
    shopClaim: op(payloads.shopRewardPayload, async ({ reward_code }) => {
      const ledger = running();
      const alone = { ok: true as const, data: { enabled: false, winner: null, won: true, unreachable: [] } };
      if (ledger === null) return alone;
      try {
        const { winner, won, unreachable } = await ledger.claim(reward_code);
        return { ok: true, data: { enabled: true, winner: { till: winner.till, at: winner.at }, won, unreachable } };
      } catch (error) {
        log.warn(`The claim could not be kept in the shop ledger (${errorKind(error)}); this till decides alone.`);
        return alone;
      }
    }),
    shopSettle: op(payloads.shopRewardPayload, async ({ reward_code }) => {
      running()?.settle(reward_code);
      return { ok: true, data: null };
    }),
    shopHolder: op(payloads.shopRewardPayload, async ({ reward_code }) => {
      const held = running()?.holder(reward_code) ?? null;
      return { ok: true, data: { holder: held && { till: held.till, at: held.at } } };
    }),
    shopTills: op(payloads.noPayload, shopTillsHandler({ running, errorKind, log })),
  };
  return joinOperations(ownTable, shopReportOperations(needs));
}
