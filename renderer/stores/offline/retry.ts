import { ref, type ComputedRef, type Ref } from 'vue';
import type { ConnectionSnapshot, OfflineServices, ReplayPause, ReplayRun } from '../../offline';

/** "Retry now" waits this long, at most, for a replay already running to finish. */
const LOCK_WAIT_TRIES = 10;
const LOCK_WAIT_MS = 300;

/** What "Retry now" needs of the rest of the offline store. */
interface RetryNeeds {
  services: () => OfflineServices;
  connection: Ref<ConnectionSnapshot | null>;
  pause: ComputedRef<ReplayPause | null>;
  loadOutbox: () => Promise<void>;
}

/**
 * The offline store's "Retry now": the cashier asked for it, so the service is probed now,
 * waiting items go at once instead of at the end of their back-off, and the outbox replays.
 */
export function useRetryNow({ services, connection, pause, loadOutbox }: RetryNeeds) {
  const replaying = ref(false);
  const lastReplay = ref<{ at: string; run: ReplayRun } | null>(null);

  async function retryNow(): Promise<ReplayRun | null> {
    if (replaying.value) return null;
    replaying.value = true;
    try {
      const core = services();
      await core.probeConnectionNow();
      connection.value = core.connectionNow();
      if (pause.value) await core.resumeReplay();
      // A person pressed the button: the back-off does not apply.
      await core.clearBackoff();
      // Coming back online starts a background replay at once; wait for it rather than
      // report "someone else is sending" for our own till.
      let run = await core.replayNow();
      for (let tries = 0; !run.ran && tries < LOCK_WAIT_TRIES; tries++) {
        await new Promise((resolve) => setTimeout(resolve, LOCK_WAIT_MS));
        run = await core.replayNow();
      }
      lastReplay.value = { at: new Date().toISOString(), run };
      await loadOutbox();
      return run;
    } finally {
      replaying.value = false;
    }
  }

  return { replaying, lastReplay, retryNow };
}
