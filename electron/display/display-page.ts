import { DISPLAY_PAGE_FILE } from '../../common/display-model';

export { DISPLAY_PAGE_FILE };
/** The browser shell's address for it, under the display listener's own secret: `…/<secret>/display`. */
export const DISPLAY_SHELL_PATH = '/display';

/**
 * Whether a call came from the customer display's page: the display's own origin (compared as
 * scheme and host, as the bridge's sender check compares the till's) and the display's path.
 * The display has an origin of its own (`app://display`; the browser shell's display listener),
 * so the till's page is never one, nor the display a till's page.
 */
export function isDisplayPage(senderUrl: string | undefined, displayOrigin: string | undefined): boolean {
  if (!senderUrl || !displayOrigin) return false;
  try {
    const sender = new URL(senderUrl);
    const display = new URL(displayOrigin);
    if (
      !sender.host ||
      `${sender.protocol}//${sender.host}`.toLowerCase() !== `${display.protocol}//${display.host}`.toLowerCase()
    )
      return false;
    return sender.pathname === DISPLAY_PAGE_FILE || sender.pathname === DISPLAY_SHELL_PATH;
  } catch {
    return false;
  }
}
