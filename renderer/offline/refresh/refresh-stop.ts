/**
 * Why a refresh run stopped early, kept as a reason and never as words: the screens word it
 * (lib/refresh-words.ts `refreshStopWords`) in the interface language of the moment. Its own
 * module so the fetcher, the fill loop and the words can share it without importing each
 * other; cache-refresh.ts re-exports it.
 */

/** Why a run stopped early. The screens word it (lib/refresh-words.ts `refreshStopWords`). */
export type RefreshStop =
  /** `stop()` was called. */
  | { reason: 'stopped' }
  /** The cache could not store what came; `detail` is the storage's own message, as it gave it. */
  | { reason: 'not_stored'; detail: string }
  /** The service answered "not modified" to a request that was not conditional. */
  | { reason: 'not_modified_unasked' }
  /** A page could not be had; `message` is the bridge's (the till's words in the interface language, or the service's). */
  | { reason: 'call_failed'; message: string };

/** Thrown inside a run to end it early with its reason; the run catches it and records it. */
export class StopRun extends Error {
  constructor(readonly stop: RefreshStop) {
    super(stop.reason);
  }
}
