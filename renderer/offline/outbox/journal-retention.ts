/**
 * The journal's personal details kept for the set number of days, then removed
 * (docs/privacy.md#the-journal-after-its-days): an entry older than `journalPersonalDays` keeps
 * its counts only (common/journal-retention.ts says what). Looked at when the till starts (after
 * the reconciliation with the main process's copy: the database's opening waits for it), and
 * once a day.
 *
 * The stripped entries are written with `put`, through the kept tables' middleware, so the main
 * process's copy is handed each new version and replaces its own (and never takes the old one
 * back); it also strips its copy by the same rule on its own.
 */
import { JOURNAL_PERSONAL_DAYS, detailsCutoff, detailsDue, withoutDetails } from '../../../common/journal-retention';
import type { Timers } from '../connection/connection-monitor';
import type { OfflineDb } from '../db/schema';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Removes the details of the entries done more than `days` days before `now`; how many it did. */
export async function removeOldDetails(db: OfflineDb, now: Date, days: number): Promise<number> {
  const cutoff = detailsCutoff(now, days);
  const removed = { at: now.toISOString(), afterDays: days };
  return db.transaction('rw', db.journal, async () => {
    const due = (await db.journal.where('doneAt').below(cutoff).toArray()).filter((entry) => detailsDue(entry, cutoff));
    if (due.length > 0) await db.journal.bulkPut(due.map((entry) => withoutDetails(entry, removed)));
    return due.length;
  });
}

export interface JournalRetentionOptions {
  db: OfflineDb;
  now: () => Date;
  timers: Timers;
  /** The setting of the moment; the default (90) while it is not known. */
  days: () => number | undefined;
  /** Told when entries were stripped (the screens read the journal again). */
  changed: () => void;
}

/**
 * Strips at `start` and once a day after, until `stop`; `runNow` strips once more at once. A
 * start after a stop starts again.
 */
export function journalRetention(options: JournalRetentionOptions): { start(): void; runNow(): void; stop(): void } {
  const { timers } = options;
  let timer: unknown = null;
  const runNow = (): void => {
    const days = options.days() ?? JOURNAL_PERSONAL_DAYS.default;
    void removeOldDetails(options.db, options.now(), days).then(
      (count) => {
        if (count > 0) options.changed();
      },
      (error: unknown) => console.warn("The journal's old details could not be removed; trying again tomorrow", error),
    );
  };
  const daily = (): void => {
    timer = timers.setTimeout(() => {
      runNow();
      daily();
    }, DAY_MS);
  };
  const stop = (): void => {
    if (timer !== null) timers.clearTimeout(timer);
    timer = null;
  };
  return {
    start() {
      stop();
      runNow();
      daily();
    },
    runNow,
    stop,
  };
}
