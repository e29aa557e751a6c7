import { z } from 'zod';
import type { Failure, ShopReportPart } from '../../common/contract';
import type { GuardedAction } from '../../common/guarded-actions';
import { msg, type Wording } from '../messages';
import type { Logger } from '../log/log';
import * as payloads from '../validation/bridge-payloads';
import { operationMaker, type OperationTable } from '../validation/bridge-operation';
import { isIsoTime } from './fields';
import { isReportPart } from './report-part';
import type { ReportRelay } from './report-relay';
import type { ShopLedger } from './shop-ledger-service';

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

/** The shop's report: from a time the manager chose (ISO) to another, or to now. */
const shopReportsPayload = z.strictObject({
  since: z.string(msg('payload.shopReport.since')).refine(isIsoTime, msg('payload.shopReport.since')),
  until: z.string(msg('payload.shopReport.until')).refine(isIsoTime, msg('payload.shopReport.until')).optional(),
});

/** This till's report for another till's request, as the page built it; checked as a peer would check it. */
const shopReportAnswerPayload = z.strictObject({
  id: z.int(msg('payload.shopReport.answer')).min(1, msg('payload.shopReport.answer')),
  report: z.custom<ShopReportPart>(isReportPart, msg('payload.shopReport.answer')).nullable(),
});

export interface ShopReportNeeds {
  /** The ledger, once it listens; null while it starts, when off, or when it could not start. */
  running: () => ShopLedger | null;
  /** Where the other tills' requests for this till's report wait for the page. */
  relay: ReportRelay;
  /** The manager's approval: null when given, else the refusal to return. */
  refusal: (action: GuardedAction) => Failure | null;
  /** The one word of an error a log line may carry. */
  errorKind: (error: unknown) => string;
  log: Logger;
  wording: () => Wording;
}

export function shopReportOperations(
  needs: ShopReportNeeds,
): OperationTable<'shopReports' | 'shopReportRequest' | 'shopReportAnswer'> {
  const { running, relay, refusal, errorKind, log } = needs;
  const op = operationMaker(needs.wording);
  return {
    shopReports: op(shopReportsPayload, async ({ since, until }) => {
      const refused = refusal('gatherShopReport');
      if (refused) return refused;
      const ledger = running();
      if (ledger === null) return { ok: true, data: { enabled: false, tills: [], silent: [] } };
      try {
        const { tills, silent } = await ledger.gatherReports(
          since,
          until ?? new Date().toISOString(),
          SHOP_REPORTS_WAIT_MS,
        );
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
