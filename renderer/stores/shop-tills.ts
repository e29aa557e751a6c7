import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { ShopTills } from '../../common/contract';
import { till } from './till';

/** How often Settings asks the shop's tills again while it is open. */
export const SHOP_TILLS_EVERY_MS = 10_000;

/**
 * The shop's other tills as Settings shows them, live: asked when Settings opens and every
 * few seconds while it stays open (each ask is bounded by the main process), never otherwise.
 */
export const useShopTillsStore = defineStore('shopTills', () => {
  const enabled = ref(false);
  const tills = ref<ShopTills['tills']>([]);
  /** Whether the list has been read at least once since Settings opened. */
  const read = ref(false);
  let timer: ReturnType<typeof setInterval> | null = null;

  async function refresh(): Promise<void> {
    let answer: Awaited<ReturnType<ReturnType<typeof till>['shopTills']>>;
    try {
      answer = await till().shopTills();
    } catch (error) {
      // The list is for information: a failed ask leaves the last one, and Settings works on.
      console.warn('The shop’s tills could not be listed', error);
      return;
    }
    if (!answer.ok) return;
    enabled.value = answer.data.enabled;
    tills.value = answer.data.tills;
    read.value = true;
  }

  function follow(everyMs = SHOP_TILLS_EVERY_MS): void {
    stop();
    void refresh();
    timer = setInterval(() => void refresh(), everyMs);
  }

  function stop(): void {
    if (timer) clearInterval(timer);
    timer = null;
    read.value = false;
  }

  return { enabled, tills, read, refresh, follow, stop };
});
