/**
 * Forgetting the till's data (docs/privacy.md#forgetting-a-till): the main process's part. The
 * work copy is deleted (and every copy kept aside), then the data key destroyed and a new one
 * made, in that order and before anything else is kept, so nothing the till held before opens
 * again; the page then deletes its database and starts blank.
 *
 * Nothing waiting in the outbox is lost silently: while the copy holds items, forgetting (the
 * manager's, or a switch to another service or programme) is refused with `work_waiting`
 * and their number, unless the manager confirmed, a second time and within two minutes, that
 * at least that many are to be lost. The log says how many were.
 */
import type { Failure, TillForgotten } from '../../common/contract';
import type { Logger } from '../log/log';
import { describe, type Wording } from '../messages';
import type { DataKey } from '../storage/data-key';
import type { WorkCopyStore } from './work-copy';

/** How long the manager's confirmation to lose waiting items holds. */
export const CONFIRMATION_MS = 2 * 60_000;

export interface TillForgetting {
  /** The refusal while items wait that the manager has not confirmed losing; null when it may go ahead. */
  refusal(): Failure | null;
  /** The manager confirmed losing this many waiting items: the next forgetting may, within two minutes. */
  confirm(waiting: number): void;
  /** Deletes the work copy, destroys the data key and makes a new one. */
  forget(why: TillForgotten['why']): Promise<TillForgotten>;
  /** The last forgetting of this run; null when there was none. */
  last(): TillForgotten | null;
}

export interface ForgettingNeeds {
  copy: Pick<WorkCopyStore, 'items' | 'forget'>;
  dataKey: Pick<DataKey, 'forget'>;
  log: Logger;
  wording: () => Wording;
  /** ms since the epoch; `Date.now` by default. */
  now?: () => number;
}

export function tillForgetting(needs: ForgettingNeeds): TillForgetting {
  const { copy, dataKey, log, wording } = needs;
  const now = needs.now ?? Date.now;
  let confirmed: { waiting: number; until: number } | null = null;
  let last: TillForgotten | null = null;

  const allowed = (waiting: number): boolean =>
    waiting === 0 || (confirmed !== null && confirmed.waiting >= waiting && now() < confirmed.until);

  return {
    refusal() {
      const waiting = copy.items().length;
      if (allowed(waiting)) return null;
      log.warn(
        `Refused forgetting this till's data: ${waiting} item(s) wait in the outbox, and losing them was not confirmed.`,
      );
      return {
        ok: false,
        error: {
          kind: 'validation',
          code: 'work_waiting',
          message: describe(wording(), 'forget.waiting', { count: waiting }),
          waiting,
        },
      };
    },
    confirm(waiting) {
      confirmed = { waiting, until: now() + CONFIRMATION_MS };
      log.warn(`The manager confirmed that forgetting this till's data may lose up to ${waiting} waiting item(s).`);
    },
    async forget(why) {
      const lost = copy.items();
      confirmed = null;
      await copy.forget(() => dataKey.forget());
      last = { at: new Date(now()).toISOString(), why };
      const cause =
        why === 'manager' ? 'a manager asked (Forget this till’s data)' : 'the till was switched to another service';
      log.warn(
        `This till's data was forgotten: ${cause}. The work copy was deleted and the data key destroyed` +
          (lost.length > 0
            ? `; ${lost.length} item(s) waiting in the outbox were lost, as the manager confirmed.`
            : '.'),
      );
      return last;
    },
    last: () => last,
  };
}
