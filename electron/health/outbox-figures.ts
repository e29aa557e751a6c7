import type { KeptItem, KeptJournalEntry } from '../../common/contract';
import { oldestQueued, outboxStateCounts } from '../../common/outbox-figures';

/**
 * The outbox and the journal in figures, from the main process's copy (electron/work-copy/):
 * how many items wait, failed or conflict, and how old they are. Counts and times only: the
 * records themselves (names, phones, codes) never leave this module.
 */
export interface OutboxFigures {
  waiting: number;
  failed: number;
  conflicts: number;
  oldestQueuedAt: string | null;
  oldestAgeHours: number | null;
}

const HOUR_MS = 3_600_000;

/** Hours from `time` (ISO) to `now`, to a tenth, never below zero; null for a time that is not one. */
export function hoursSince(time: string | null, now: Date): number | null {
  if (time === null) return null;
  const at = Date.parse(time);
  if (Number.isNaN(at)) return null;
  return Math.max(0, Math.floor((now.getTime() - at) / (HOUR_MS / 10)) / 10);
}

export function outboxFigures(items: readonly KeptItem[], now: Date): OutboxFigures {
  const oldest = oldestQueued(items);
  return {
    ...outboxStateCounts(items),
    oldestQueuedAt: oldest?.queuedAt ?? null,
    oldestAgeHours: hoursSince(oldest?.queuedAt ?? null, now),
  };
}

/** Ages a support file sorts items and entries into. */
const AGE_BANDS = [
  { band: 'under 1 hour', hours: 1 },
  { band: '1 to 24 hours', hours: 24 },
  { band: '1 to 7 days', hours: 7 * 24 },
  { band: '7 to 30 days', hours: 30 * 24 },
  { band: 'over 30 days', hours: Number.POSITIVE_INFINITY },
] as const;

function bandOf(hours: number | null): string {
  if (hours === null) return 'unknown';
  return AGE_BANDS.find((band) => hours < band.hours)?.band ?? 'over 30 days';
}

/** Counts by a key and by age: what the support file says of the outbox and the journal. */
export interface CountsByStateAndAge {
  total: number;
  byState: Record<string, number>;
  byAge: Record<string, number>;
}

function countBy<T>(records: readonly T[], state: (record: T) => string, time: (record: T) => string, now: Date) {
  const byState: Record<string, number> = {};
  const byAge: Record<string, number> = {};
  for (const record of records) {
    // Keys are the page's closed words (states, outcomes); anything else is counted as "other".
    const key = /^[a-z_]{1,40}$/.test(state(record)) ? state(record) : 'other';
    byState[key] = (byState[key] ?? 0) + 1;
    const band = bandOf(hoursSince(time(record), now));
    byAge[band] = (byAge[band] ?? 0) + 1;
  }
  return { total: records.length, byState, byAge };
}

export function outboxCounts(items: readonly KeptItem[], now: Date): CountsByStateAndAge {
  return countBy(
    items,
    (item) => `${item.kind}_${item.state}`,
    (item) => item.queuedAt,
    now,
  );
}

export function journalCounts(entries: readonly KeptJournalEntry[], now: Date): CountsByStateAndAge {
  return countBy(
    entries,
    (entry) => entry.outcome,
    (entry) => entry.doneAt,
    now,
  );
}
