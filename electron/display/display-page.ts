/** The display's page in the app's files (Electron loads `app://till/display.html`). */
export const DISPLAY_PAGE_FILE = '/display.html';
/** The browser shell's address for it, under the secret: `…/<secret>/display`. */
export const DISPLAY_SHELL_PATH = '/display';

/**
 * Whether a call came from the customer display's page: the app's own origin (compared as
 * scheme and host, as the bridge's sender check does) and the display's path. The till's own
 * page, on the same origin, is not a display: it cannot type on the customer's keypad.
 */
export function isDisplayPage(senderUrl: string | undefined, appOrigin: string): boolean {
  if (!senderUrl) return false;
  try {
    const sender = new URL(senderUrl);
    const app = new URL(appOrigin);
    if (
      !sender.host ||
      `${sender.protocol}//${sender.host}`.toLowerCase() !== `${app.protocol}//${app.host}`.toLowerCase()
    )
      return false;
    return sender.pathname === DISPLAY_PAGE_FILE || sender.pathname === DISPLAY_SHELL_PATH;
  } catch {
    return false;
  }
}
