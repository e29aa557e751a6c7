/**
 * The outbox in figures, the same way on both sides: the main process's copy for the till's
 * health (electron/health/outbox-figures.ts) and the page's outbox for the shop's report
 * (renderer/offline/outbox/shop-report.ts). Counts and a time only: never an item.
 */

/** What of an item the figures read: its state and when it was queued (ISO). */
export interface OutboxFigureSource {
  state: string;
  queuedAt: string;
}

/** Items waiting to be sent (`pending`), failed, and in conflict. */
export interface OutboxStateCounts {
  waiting: number;
  failed: number;
  conflicts: number;
}

export function outboxStateCounts(items: readonly OutboxFigureSource[]): OutboxStateCounts {
  const counts: OutboxStateCounts = { waiting: 0, failed: 0, conflicts: 0 };
  for (const { state } of items) {
    if (state === 'pending') counts.waiting++;
    else if (state === 'failed') counts.failed++;
    else if (state === 'conflict') counts.conflicts++;
  }
  return counts;
}

/** The item queued first (a time that cannot be read is passed over), or null for none. */
export function oldestQueued<T extends OutboxFigureSource>(items: readonly T[]): T | null {
  let oldest: { item: T; at: number } | null = null;
  for (const item of items) {
    const at = Date.parse(item.queuedAt);
    if (!Number.isNaN(at) && (oldest === null || at < oldest.at)) oldest = { item, at };
  }
  return oldest?.item ?? null;
}
