import { LINK_PUSH_CHANNEL } from '../../common/contract';
import { createWindowTill } from '../../common/window-till';
import { createPageSocketClient } from './page-socket';

// The browser shell's preload: runs in the page (bundled by `page-bridge-bundle.ts`, loaded by
// a classic script before the app's module), and gives it the same `window.till` the Electron
// preload gives, built by the same `createWindowTill`, over the shell's WebSocket instead of IPC.
// As in the preload, nothing else is exposed: no socket, no generic send or listen.

// page-server.ts's BRIDGE_SOCKET_PATH (the server is not bundled into the page).
const client = createPageSocketClient({ path: '/__till/socket', pushChannel: LINK_PUSH_CHANNEL });

Object.defineProperty(globalThis, 'till', {
  value: createWindowTill({ invoke: (channel, payload) => client.invoke(channel, payload), onLinkPush: client.onPush }),
  enumerable: true,
  writable: false,
  configurable: false,
});
