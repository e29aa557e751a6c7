import { defineStore } from 'pinia';
import { computed, watch } from 'vue';
import type { TillActivity } from '../../common/contract';
import { useCustomersStore } from './customers';
import { useOfflineStore } from './offline';
import { useRewardsStore } from './rewards';
import { useSettingsStore } from './settings';
import { till } from './till';

/**
 * The main process installs an update only while the till is idle; what the page is doing
 * only the page knows. So it says so: at once when it changes, and every minute besides,
 * because the main process counts a page that has gone quiet as busy.
 */
export const ACTIVITY_HEARTBEAT_MS = 60_000;

export const useActivityStore = defineStore('activity', () => {
  const customers = useCustomersStore();
  const rewards = useRewardsStore();
  const offline = useOfflineStore();
  const settings = useSettingsStore();

  const activity = computed<TillActivity>(() => ({
    // A customer on screen is a customer being served.
    customerOpen: customers.current !== null,
    // A redemption or a registration sent and not yet answered.
    inFlight: (rewards.redeeming ? 1 : 0) + (customers.saving ? 1 : 0),
    // A replay moves items of the outbox between states; between replays every item is on disk.
    outboxDurable: !offline.replaying,
  }));

  async function report(): Promise<void> {
    const answer = await till().noteActivity({ ...activity.value });
    // The organisation's policy changed since the settings were read: read them again, so
    // Settings shows what is locked now.
    const known = settings.state?.managed.revision;
    if (answer.ok && known !== undefined && answer.data.policyRevision !== known) await settings.load();
  }

  let stopWatching: (() => void) | null = null;
  let heartbeat: ReturnType<typeof setInterval> | null = null;
  /** Starts reporting; returns the stop function. Reporting failures are left to the next report. */
  function start(): () => void {
    stop();
    const send = () => void report().catch(() => undefined);
    stopWatching = watch(activity, send, { deep: true });
    heartbeat = setInterval(send, ACTIVITY_HEARTBEAT_MS);
    send();
    return stop;
  }
  function stop(): void {
    stopWatching?.();
    stopWatching = null;
    if (heartbeat) clearInterval(heartbeat);
    heartbeat = null;
  }

  return { activity, report, start, stop };
});
