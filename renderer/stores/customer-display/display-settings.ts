import { ref } from 'vue';
import type { DisplayScreen, SettingsPatch } from '../../../common/contract';
import { useSettingsStore } from '../settings';
import { till } from '../till';

/**
 * Settings' "Customer display" group: the screens a display can open on, the display's address
 * in the browser shell, and its own save.
 */
export function useDisplaySettings() {
  const settings = useSettingsStore();

  /** The screens a display window can open on (Electron); none in the browser shell. */
  const screens = ref<DisplayScreen[]>([]);
  /**
   * Where a browser opens the display (the browser shell's own listener for it, with its own
   * secret: not this page's address); null in Electron, where it is a window.
   */
  const address = ref<string | null>(null);
  /** Field errors of the last save of the display's settings. */
  const fieldErrors = ref<Record<string, string>>({});

  async function loadScreens(): Promise<void> {
    const [listed, where] = await Promise.all([till().listScreens(), till().displayAddress()]);
    screens.value = listed.ok ? listed.data : [];
    address.value = where.ok ? where.data.address : null;
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

  return { screens, address, fieldErrors, loadScreens, saveSettings };
}
