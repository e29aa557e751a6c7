import { ref } from 'vue';
import type { DisplayScreen, SettingsPatch } from '../../../common/contract';
import { useSettingsStore } from '../settings';
import { till } from '../till';

/** Settings' "Customer display" group: the screens a display can open on, and its own save. */
export function useDisplaySettings() {
  const settings = useSettingsStore();

  /** The screens a display window can open on (Electron); none in the browser shell. */
  const screens = ref<DisplayScreen[]>([]);
  /** Field errors of the last save of the display's settings. */
  const fieldErrors = ref<Record<string, string>>({});

  async function loadScreens(): Promise<void> {
    const result = await till().listScreens();
    screens.value = result.ok ? result.data : [];
  }

  /** Saves the display's settings on their own (Settings' "Customer display" group). */
  async function saveSettings(
    patch: Pick<SettingsPatch, 'customerDisplayId' | 'displayIdleSeconds'>,
  ): Promise<boolean> {
    const result = await till().updateSettings(patch);
    fieldErrors.value = result.ok ? {} : (result.error.fields ?? { customerDisplayId: result.error.message });
    if (result.ok) await settings.load();
    return result.ok;
  }

  return { screens, fieldErrors, loadScreens, saveSettings };
}
