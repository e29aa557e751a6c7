// The back-off formula lives in common/, shared with the main process's retries.
export { backoffDelay, type BackoffPolicy } from '../../common/backoff';
