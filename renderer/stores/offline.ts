import { defineStore } from 'pinia';
import { computed } from 'vue';
import type { Program } from '../../common/contract';
import { useOfflineCore } from './offline/core';
import { useOutboxView } from './offline/outbox-view';
import { useRetryNow } from './offline/retry';

export { setOfflineServiceOverrides } from './offline/core';

/** How often the outbox is re-read, for changes made in another window. */
const OUTBOX_POLL_MS = 5_000;

/**
 * The cache, the outbox and the connection monitor, as the screens see them. The other
 * stores reach the service through `services()` so that, when it cannot be reached, the
 * cache (or the outbox) answers instead. Composed of its concerns (renderer/stores/offline/):
 * the core and its feeds, the outbox's view, and "Retry now".
 */
export const useOfflineStore = defineStore('offline', () => {
  const { services, opened, connection, refresh, keyProblem, deleteDatabase } = useOfflineCore();
  const outbox = useOutboxView(services);
  const { replaying, lastReplay, retryNow } = useRetryNow({
    services,
    connection,
    pause: outbox.pause,
    loadOutbox: outbox.loadOutbox,
  });

  let started = false;
  const unsubscribers: Array<() => void> = [];

  const isOffline = computed(() => connection.value?.state === 'offline');

  /**
   * Starts the cache refresh, the connection monitor and the replay loop. Called once the
   * till is configured; the cashier never waits for any of it.
   */
  function start(): void {
    if (started) return;
    started = true;
    const core = services();
    unsubscribers.push(core.onOutboxChange(() => void outbox.loadOutbox()));
    // What this browser had lost and the till's own copy put back, said once on screen.
    unsubscribers.push(core.onCopyReconciled(outbox.noteReconciled));
    const reconciled = core.copyReconciliation();
    if (reconciled) outbox.noteReconciled(reconciled);
    // Another window of this till (sharing the database) changes the outbox without telling
    // this one: a light re-read keeps the counts true.
    const poll = setInterval(() => void outbox.loadOutbox(), OUTBOX_POLL_MS);
    unsubscribers.push(() => clearInterval(poll));
    core.start();
    void outbox.loadOutbox();
  }

  function stop(): void {
    if (!started) return;
    started = false;
    for (const unsubscribe of unsubscribers.splice(0)) unsubscribe();
    opened()?.stop();
  }

  /** The header's own probe: a lost network is noticed even while nobody calls the service. */
  function noteReachable(reachable: boolean, reason?: string): void {
    if (!started) return;
    services().noteReachable(reachable, reason);
  }

  /** Programmes this till has seen on cached customers' cards, for choosing its own. */
  async function programmesSeen(): Promise<Program[]> {
    return services().programmesSeen();
  }

  /** Stops the offline work and deletes the database: the till's data forgotten. */
  async function deleteAll(): Promise<void> {
    stop();
    await deleteDatabase();
  }

  return {
    services,
    connection,
    refresh,
    keyProblem,
    deleteDatabase: deleteAll,
    ...outbox,
    replaying,
    lastReplay,
    isOffline,
    start,
    stop,
    retryNow,
    noteReachable,
    programmesSeen,
  };
});
