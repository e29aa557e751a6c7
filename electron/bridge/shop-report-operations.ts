import { z } from 'zod';
import type { Failure, Result, ShopReportPart } from '../../common/contract';
import { msg } from '../messages';
import { isIsoTime } from '../shop-ledger/fields';
import { isReportPart } from '../shop-ledger/report-part';
import type { Logger } from '../log/log';
import type { ReportRelay } from '../shop-ledger/report-relay';
import * as payloads from '../validation/bridge-payloads';
import type { ShopLedgerSwitch } from './shop-ledger-switch';
import { errorKind } from './shop-ledger-switch';

/**
 * The bridge's part of the shop's report (docs/shop-ledger.md, "The shop's report"): the
 * manager's page asks for the other tills' reports (with the manager's approval), and every
 * page keeps one long-polling call open to hear when another till asks for its own.
 */

/** How long the other tills have, in all, to send their reports. */
export const SHOP_REPORTS_WAIT_MS = 6000;
/** How long a page has to build this till's report for another till: within the asker's wait. */
export const REPORT_BUILD_MS = 4500;
/** How long one waiting call of the page is held before it is answered "no request". */
const REQUEST_POLL_MS = 20_000;

/** The shop's report: from a time the manager chose (ISO), to now. */
const shopReportsPayload = z.strictObject({
  since: z.string(msg('payload.shopReport.since')).refine(isIsoTime, msg('payload.shopReport.since')),
});

/** This till's report for another till's request, as the page built it; checked as a peer would check it. */
const shopReportAnswerPayload = z.strictObject({
  id: z.int(msg('payload.shopReport.answer')).min(1, msg('payload.shopReport.answer')),
  report: z.custom<ShopReportPart>(isReportPart, msg('payload.shopReport.answer')).nullable(),
});

type Op = <S extends z.ZodType>(
  schema: S,
  run: (payload: z.output<S>) => Promise<Result<unknown> | Failure>,
) => (payload: unknown) => Promise<Result<unknown> | Failure>;

export function shopReportOperations(deps: {
  op: Op;
  shop: ShopLedgerSwitch;
  relay: ReportRelay;
  /** The manager's approval: null when given, else the refusal to return. */
  approval: (what: string) => Failure | null;
  log: Logger;
}) {
  const { op, shop, relay, approval, log } = deps;
  return {
    shopReports: op(shopReportsPayload, async ({ since }) => {
      const refused = approval('gathering the shop’s report');
      if (refused) return refused;
      const ledger = shop.running();
      if (ledger === null) return { ok: true, data: { enabled: false, tills: [], silent: [] } };
      try {
        const { tills, silent } = await ledger.gatherReports(since, SHOP_REPORTS_WAIT_MS);
        log.info(`The shop's report: ${tills.length} tills answered, ${silent.length} did not.`);
        return { ok: true, data: { enabled: true, tills, silent } };
      } catch (error) {
        log.warn(`The other tills' reports could not be gathered (${errorKind(error)}).`);
        return { ok: true, data: { enabled: false, tills: [], silent: [] } };
      }
    }),
    shopReportRequest: op(payloads.noPayload, async () => ({
      ok: true,
      data: { request: await relay.next(REQUEST_POLL_MS) },
    })),
    shopReportAnswer: op(shopReportAnswerPayload, async ({ id, report }) => {
      relay.answer(id, report);
      return { ok: true, data: null };
    }),
  };
}
