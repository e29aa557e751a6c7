// The back-off formula and the Retry-After cap live in common/, shared with the main process.
export { backoffDelay, boundedRetryAfter, MAX_RETRY_AFTER_MS, type BackoffPolicy } from '../../../common/backoff';
