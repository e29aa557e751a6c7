import type { RendererErrorEntry } from '../../common/contract';
import type { Logger } from '../log/log';

// A renderer stuck in an error loop must not fill the disk: this many reports a minute.
const REPORTS_PER_MINUTE = 30;

/** Writes renderer error reports into the main log, rate-limited, one entry each. */
export function createRendererErrorLog(
  log: Logger,
  now: () => number = Date.now,
): (report: RendererErrorEntry) => void {
  let windowStart = 0;
  let count = 0;
  return (report) => {
    const time = now();
    if (time - windowStart >= 60_000) {
      if (count > REPORTS_PER_MINUTE)
        log.warn(`${count - REPORTS_PER_MINUTE} renderer error reports were dropped in the last minute.`);
      windowStart = time;
      count = 0;
    }
    count++;
    if (count > REPORTS_PER_MINUTE) return;
    const where = report.source ? ` in ${singleLine(report.source)}` : '';
    const stack = report.stack ? `\n${report.stack.replace(/^/gm, '    ')}` : '';
    log.error(`Renderer error${where}: ${singleLine(report.message)}${stack}`);
  };
}

// One report, one log line (plus its indented stack): a message cannot forge other entries.
function singleLine(text: string): string {
  return text.replace(/[\r\n\t]+/g, ' ').trim();
}
