/**
 * The customer display's page bridge and socket under its listener's secret
 * (docs/screens.md#the-customer-display; `display-server.ts`): in a module of their own, since
 * the display's page bridge is bundled for the browser and must not pull the server in.
 */
export const DISPLAY_SCRIPT_PATH = '/__till/display.js';
export const DISPLAY_SOCKET_PATH = '/__till/display-socket';
