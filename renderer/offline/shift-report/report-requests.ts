/**
 * Answers the shop's other tills when they ask for this till's report (docs/shop-ledger.md,
 * "The shop's report"): one call to the main process is kept waiting (a long poll it holds up
 * to 20 s); when a request comes, this till's report from the asked time is built from the
 * journal and sent back. A failing call (no bridge for it, an old main process) is tried again
 * later, never in a tight loop.
 */
import type { ShopReportPart, TillApi } from '../../../common/contract';
import type { Timers } from '../connection/connection-monitor';

/** After a failed call, or a call answered at once with nothing, the next one waits this long. */
const RETRY_MS = 30_000;
/** A "nothing asked" sooner than this was no long poll: the next call waits. */
const SHORTEST_POLL_MS = 1000;

export function serveReportRequests(options: {
  api: Pick<TillApi, 'shopReportRequest' | 'shopReportAnswer'>;
  build: (since: string, until: string) => Promise<ShopReportPart>;
  timers: Timers;
  now?: () => number;
}): () => void {
  const { api, build, timers } = options;
  const now = options.now ?? (() => performance.now());
  let stopped = false;
  let timer: unknown;

  async function answerOne(): Promise<number> {
    const started = now();
    const asked = await api.shopReportRequest();
    if (!asked.ok) return RETRY_MS;
    const request = asked.data.request;
    if (request === null) return now() - started < SHORTEST_POLL_MS ? RETRY_MS : 0;
    const report = await build(request.since, request.until).catch((error: unknown) => {
      console.error('This till’s report could not be built for the shop', error);
      return null;
    });
    await api.shopReportAnswer({ id: request.id, report });
    return 0;
  }

  function loop(): void {
    if (stopped) return;
    void answerOne()
      .catch(() => RETRY_MS)
      .then((waitMs) => {
        if (stopped) return;
        if (waitMs === 0) loop();
        else timer = timers.setTimeout(loop, waitMs);
      });
  }

  loop();
  return () => {
    stopped = true;
    timers.clearTimeout(timer);
  };
}
