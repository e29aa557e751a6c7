import type { ConnectionState } from '../../common/contract';
import type { ConnectionChange } from './health-file';

/**
 * Whether the loyalty service answers, as the main process's own calls find it: every call the
 * page makes through the bridge passes here (service-operations.ts tells it), so the till
 * knows "online" or "offline since 14:02" without the page being open. An answer of any kind
 * (a refused key, a 5xx) is online: the service is there; a timeout or no connection is offline.
 * It keeps the changes of the last seven days, for the support file.
 */
export interface ConnectionWatch {
  /** One call's outcome; true when it changed the state. */
  heard(reachable: boolean): boolean;
  now(): { state: ConnectionState; since: string | null };
  history(): ConnectionChange[];
}

export const HISTORY_DAYS = 7;
/** A till flapping all week still keeps a bounded file. */
const MAX_CHANGES = 1000;

export function watchConnection(options: {
  /** As the till last recorded it: a restart while offline keeps "offline since" the first failure. */
  previous: { state: ConnectionState; since: string | null };
  history: readonly ConnectionChange[];
  now?: () => Date;
}): ConnectionWatch {
  const now = options.now ?? (() => new Date());
  let current = { ...options.previous };
  let changes = [...options.history];

  const prune = (): void => {
    const cutoff = now().getTime() - HISTORY_DAYS * 24 * 3_600_000;
    changes = changes.filter((change) => Date.parse(change.at) >= cutoff).slice(-MAX_CHANGES);
  };

  return {
    heard(reachable) {
      const state = reachable ? 'online' : 'offline';
      if (current.state === state) return false;
      const at = now().toISOString();
      current = { state, since: at };
      changes.push({ at, state });
      prune();
      return true;
    },
    now: () => ({ ...current }),
    history() {
      prune();
      return [...changes];
    },
  };
}
