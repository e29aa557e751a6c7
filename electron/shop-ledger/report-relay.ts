import type { ShopReportPart } from '../../common/contract';

/**
 * Between the ledger and the page, for the shop's report (docs/shop-ledger.md): the till's
 * report lives in the page's journal (IndexedDB), and only the page can build it. When another
 * till asks for it, the ledger puts the request here; the page, which keeps one call waiting
 * (`next`, a long poll over the ordinary bridge, so every shell carries it), takes it, builds the
 * report and `answer`s. A page that does not answer in time, or no page at all, leaves the asking
 * till naming this one as silent.
 */

export interface ReportRequest {
  id: number;
  /** The period asked for, ISO: the asking till's, so that every till reports the same one. */
  since: string;
  until: string;
}

export interface ReportRelay {
  /** The ledger: this till's report for the period, or null when the page did not give one within `waitMs`. */
  ask(since: string, until: string, waitMs: number): Promise<ShopReportPart | null>;
  /** The page: the next request, waiting at most `waitMs` for one; null when none came. */
  next(waitMs: number): Promise<ReportRequest | null>;
  /** The page: its report for request `id` (null: it could not build one). Whether the request still waited. */
  answer(id: number, report: ShopReportPart | null): boolean;
  /** Ends every wait (the app is closing). */
  close(): void;
}

/** Requests waiting for the page at once: a shop has a handful of managers asking. */
const MAX_WAITING = 8;

export function createReportRelay(): ReportRelay {
  let lastId = 0;
  /** Requests not yet taken by the page, oldest first. */
  const queued: ReportRequest[] = [];
  /** Requests taken or queued, by id: how to answer the ledger. */
  const answers = new Map<number, (report: ShopReportPart | null) => void>();
  /** The page's waiting `next` calls. */
  const takers: Array<(request: ReportRequest | null) => void> = [];

  return {
    ask(since, until, waitMs) {
      if (answers.size >= MAX_WAITING) return Promise.resolve(null);
      lastId += 1;
      const request = { id: lastId, since, until };
      return new Promise((resolve) => {
        const timer = setTimeout(() => finish(null), waitMs);
        function finish(report: ShopReportPart | null): void {
          clearTimeout(timer);
          answers.delete(request.id);
          const index = queued.indexOf(request);
          if (index >= 0) queued.splice(index, 1);
          resolve(report);
        }
        answers.set(request.id, finish);
        const taker = takers.shift();
        if (taker) taker(request);
        else queued.push(request);
      });
    },

    next(waitMs) {
      const request = queued.shift();
      if (request) return Promise.resolve(request);
      return new Promise((resolve) => {
        const take = (found: ReportRequest | null): void => {
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          const index = takers.indexOf(take);
          if (index >= 0) takers.splice(index, 1);
          resolve(null);
        }, waitMs);
        takers.push(take);
      });
    },

    answer(id, report) {
      const finish = answers.get(id);
      if (!finish) return false;
      finish(report);
      return true;
    },

    close() {
      for (const finish of [...answers.values()]) finish(null);
      for (const take of takers.splice(0)) take(null);
    },
  };
}
