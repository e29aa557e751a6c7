import { BrowserWindow, ipcMain, net, screen, session, type WebContents } from 'electron';
import { CHANNELS, type TillState } from '../../common/contract';
import { DISPLAY_CHANNELS, DISPLAY_PUSH_CHANNEL } from '../../common/display-model';
import {
  APP_ORIGIN,
  APP_SCHEME,
  createAppProtocolHandler,
  DISPLAY_HOST,
  DISPLAY_ORIGIN,
} from '../app-page/app-protocol';
import type { AppCore } from '../bridge/app-core';
import { displayBounds, listScreens, type ScreenInfo } from '../display/display-placement';
import { DISPLAY_PAGE_FILE } from '../display/display-page';
import { guardSession } from './web-contents-guards';
import { secureWebPreferences } from './window';

/**
 * The display window's session: a partition of its own, in memory (no `persist:`), so the
 * display's page shares no storage, cache or cookie with the till's, and keeps none on disk.
 */
export const DISPLAY_PARTITION = 'display';

/** How often the chosen screen is read again from the settings (Settings may change it). */
const SETTINGS_POLL_MS = 3000;

export interface CustomerDisplayWindow {
  /** Whether IPC came from the display's window (the till's channels refuse it). */
  owns(sender: WebContents): boolean;
  /** The screens for Settings (`listScreens`). */
  screens(): ReturnType<typeof listScreens>;
  /** Opens, moves or closes the window as the settings and the monitors now are. */
  place(): Promise<void>;
  stop(): void;
}

/**
 * The customer display's window: frameless, full screen, without a menu, on the screen chosen in
 * Settings and only there; re-placed when monitors are added, removed or changed. It has the
 * till window's web preferences (sandbox, context isolation, no Node) with its own preload,
 * which exposes the display's operations only, and the app-wide guards (navigation, new
 * windows, permissions) apply to it as to every web contents.
 *
 * Its page is on a host of its own, `app://display`, in a session of its own (`DISPLAY_PARTITION`),
 * whose `app://` handler serves the display's page and the files it names, nothing of the
 * till's; that session gets the same limits as the till's (`guardSession`), and every response
 * the same Content-Security-Policy. So the display's page can open neither the till's
 * IndexedDB nor its files, and the bridge refuses its origin on every till channel.
 */
export function startCustomerDisplay(options: {
  core: AppCore;
  preloadPath: string;
  devTools: boolean;
  /** The built renderer (`dist/renderer`): the display's host serves its display page. */
  rendererRoot: string;
  /** The till's own window, to mark the cashier's screen. */
  mainWindow: () => BrowserWindow | null;
}): CustomerDisplayWindow {
  const { core, preloadPath, devTools } = options;
  const displaySession = session.fromPartition(DISPLAY_PARTITION);
  displaySession.protocol.handle(
    APP_SCHEME,
    createAppProtocolHandler({
      rootDir: options.rendererRoot,
      fetchFile: (url) => net.fetch(url),
      hosts: [DISPLAY_HOST],
    }),
  );
  guardSession(displaySession, core.log);
  let window: BrowserWindow | null = null;
  let detach: (() => void) | null = null;
  /** Where the window was last put, so that the settings' poll moves it only on a change. */
  let placedAt = '';

  const allScreens = (): ScreenInfo[] => screen.getAllDisplays();
  const chosenId = async (): Promise<number | null> => {
    const state = (await core.handlers[CHANNELS.getState]({ url: `${APP_ORIGIN}/` }, undefined)) as {
      ok: boolean;
      data?: TillState;
    };
    return state.ok && state.data ? state.data.settings.customerDisplayId : null;
  };

  for (const channel of Object.values(DISPLAY_CHANNELS)) {
    ipcMain.handle(channel, (event, payload) =>
      window && event.sender === window.webContents
        ? core.display.handlers[channel]({ url: event.senderFrame?.url ?? '' }, payload)
        : core.display.handlers[channel](null, payload),
    );
  }

  function close(): void {
    detach?.();
    detach = null;
    if (window && !window.isDestroyed()) window.destroy();
    window = null;
  }

  async function place(): Promise<void> {
    const bounds = displayBounds(allScreens(), await chosenId());
    if (!bounds) return close();
    if (window && !window.isDestroyed()) {
      if (placedAt === JSON.stringify(bounds)) return;
      placedAt = JSON.stringify(bounds);
      // Out of full screen first: a full-screen window keeps its screen's bounds on some systems.
      window.setFullScreen(false);
      window.setBounds(bounds);
      window.setFullScreen(true);
      return;
    }
    placedAt = JSON.stringify(bounds);
    const created = new BrowserWindow({
      ...bounds,
      frame: false,
      fullscreen: true,
      autoHideMenuBar: true,
      focusable: true,
      title: 'Loyalty Till: customer display',
      backgroundColor: '#000000',
      webPreferences: { ...secureWebPreferences({ preloadPath, devTools }), partition: DISPLAY_PARTITION },
    });
    created.setMenu(null);
    // The display never goes anywhere, not even to the till's own page (the app-wide guards
    // already keep every window on the app's origin).
    created.webContents.on('will-navigate', (event) => event.preventDefault());
    window = created;
    detach = core.display.attach((model) => created.webContents.send(DISPLAY_PUSH_CHANNEL, model));
    created.on('closed', () => {
      if (window === created) {
        detach?.();
        detach = null;
        window = null;
      }
    });
    await created.loadURL(`${DISPLAY_ORIGIN}${DISPLAY_PAGE_FILE}`);
  }

  const replace = () =>
    void place().catch((error) => core.log.warn(`The customer display could not be placed: ${String(error)}`));
  screen.on('display-added', replace);
  screen.on('display-removed', replace);
  screen.on('display-metrics-changed', replace);
  const poll = setInterval(replace, SETTINGS_POLL_MS);
  poll.unref?.();

  return {
    owns: (sender) => window !== null && !window.isDestroyed() && sender === window.webContents,
    screens: () => {
      const main = options.mainWindow();
      const mainId = main && !main.isDestroyed() ? screen.getDisplayMatching(main.getBounds()).id : null;
      return listScreens(allScreens(), mainId);
    },
    place,
    stop() {
      clearInterval(poll);
      screen.off('display-added', replace);
      screen.off('display-removed', replace);
      screen.off('display-metrics-changed', replace);
      close();
    },
  };
}
