import type { DisplayScreen } from '../../common/contract';

/** What placement needs of a screen (Electron's `Display`). */
export interface ScreenInfo {
  id: number;
  label: string;
  bounds: { x: number; y: number; width: number; height: number };
}

/**
 * Where the customer display's window goes: on the screen chosen in Settings, and nowhere
 * else. With none chosen, or the chosen one unplugged, there is no window: it never falls back
 * to another screen, so it never opens on the cashier's unless that one was chosen.
 */
export function displayBounds(screens: readonly ScreenInfo[], chosenId: number | null): ScreenInfo['bounds'] | null {
  if (chosenId === null) return null;
  return screens.find((screen) => screen.id === chosenId)?.bounds ?? null;
}

/** The screens as Settings lists them: by label and size, the cashier's marked. */
export function listScreens(screens: readonly ScreenInfo[], cashiersId: number | null): DisplayScreen[] {
  return screens.map((screen, index) => ({
    id: screen.id,
    label: screen.label || `Screen ${index + 1}`,
    width: screen.bounds.width,
    height: screen.bounds.height,
    cashiers: screen.id === cashiersId,
  }));
}
