import { defineStore } from 'pinia';
import { ref, watch } from 'vue';
import type { DisplayModel } from '../../common/display-model';
import { useCustomerEntry } from './customer-display/customer-entry';
import { useDisplaySettings } from './customer-display/display-settings';
import { useDisplayModel } from './customer-display/model';
import { useSettingsStore } from './settings';
import { till } from './till';

/**
 * The till's side of the customer display: the sanitised model of what the till is doing,
 * sent to the main process on every change (which pushes it to the display's window), whether
 * the cashier blanked it, and the phone a customer typed on it, looked up as if
 * the cashier had typed it. Composed of its concerns (renderer/stores/customer-display/).
 */
export const useCustomerDisplayStore = defineStore('customerDisplay', () => {
  const settings = useSettingsStore();

  const blanked = ref(false);
  /** How many displays heard the last model (0: none attached). */
  const attached = ref(0);
  let revision = 0;
  const entry = useCustomerEntry(blanked);
  const { view, model } = useDisplayModel({ blanked, lookingUp: entry.lookingUp, notFound: entry.notFound });

  async function push(next: Omit<DisplayModel, 'revision'>): Promise<void> {
    if (!settings.isConfigured) return;
    revision += 1;
    const result = await till().showOnDisplay({ ...next, revision });
    if (result.ok) attached.value = result.data.displays;
  }

  function toggleBlank(): void {
    blanked.value = !blanked.value;
  }

  let stopPushing: (() => void) | null = null;
  let unsubscribe: (() => void) | null = null;

  function start(): void {
    if (stopPushing) return;
    stopPushing = watch(model, (next) => void push(next), { immediate: true });
    unsubscribe = till().onCustomerEntry((phoneEntry) => void entry.receive(phoneEntry));
  }

  function stop(): void {
    stopPushing?.();
    unsubscribe?.();
    stopPushing = unsubscribe = null;
  }

  return {
    blanked,
    attached,
    ...entry,
    view,
    model,
    ...useDisplaySettings(),
    toggleBlank,
    start,
    stop,
  };
});
