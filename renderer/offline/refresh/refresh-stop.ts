/**
 * Why a refresh run stopped early, kept as a reason and never as words: the screens word it
 * (lib/refresh-words.ts `refreshStopWords`) in the interface language of the moment. Its own
 * module so the fetcher, the fill loop and the words can share it without importing each
 * other; cache-refresh.ts re-exports it.
 */

import type { RefreshStop } from '../../vocabulary/refresh';

export type { RefreshStop };

/** Thrown inside a run to end it early with its reason; the run catches it and records it. */
export class StopRun extends Error {
  constructor(readonly stop: RefreshStop) {
    super(stop.reason);
  }
}
