/**
 * Why a cache refresh run stopped early, as the refresh keeps it (offline/refresh/) and the
 * words read it (lib/refresh-words.ts `refreshStopWords`): a reason, never words.
 */
export type RefreshStop =
  /** `stop()` was called. */
  | { reason: 'stopped' }
  /** The cache could not store what came; `detail` is the storage's own message, as it gave it. */
  | { reason: 'not_stored'; detail: string }
  /** The service answered "not modified" to a request that was not conditional. */
  | { reason: 'not_modified_unasked' }
  /** A page could not be had; `message` is the bridge's (the till's words in the interface language, or the service's). */
  | { reason: 'call_failed'; message: string };
