/**
 * What every outbox item starts with: an id of its own (the same in the main process's copy),
 * waiting, due at once, no error or note yet; tried once already when it is an online attempt
 * whose answer the till never got (`attemptedAt`).
 */
import type { OutboxItem } from '../db/schema';

export type NewItemState = Pick<
  OutboxItem,
  | 'uid'
  | 'state'
  | 'queuedAt'
  | 'firstAttemptAt'
  | 'lastAttemptAt'
  | 'attempts'
  | 'nextAttemptAt'
  | 'lastError'
  | 'note'
>;

export function newItemState(queuedAt: string, attemptedAt: string | null = null): NewItemState {
  return {
    uid: crypto.randomUUID(),
    state: 'pending',
    queuedAt,
    firstAttemptAt: attemptedAt,
    lastAttemptAt: attemptedAt,
    attempts: attemptedAt ? 1 : 0,
    nextAttemptAt: null,
    lastError: null,
    note: null,
  };
}
