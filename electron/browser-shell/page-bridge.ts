import { createWindowTill, PAGE_PUSH_CHANNEL_LIST } from '../../common/window-till';
import { createPageSocketClient } from './page-socket';

// The browser shell's preload: runs in the page (bundled by `page-bridge-bundle.ts`, loaded by
// a classic script before the app's module), and gives it the same `window.till` the Electron
// preload gives, built by the same `createWindowTill`, over the shell's WebSocket instead of IPC.
// As in the preload, nothing else is exposed: no socket, no generic send or listen.

// page-server.ts's BRIDGE_SOCKET_PATH (the server is not bundled into the page).
const client = createPageSocketClient({ path: '/__till/socket', pushChannels: PAGE_PUSH_CHANNEL_LIST });

Object.defineProperty(globalThis, 'till', {
  value: createWindowTill({ invoke: (channel, payload) => client.invoke(channel, payload), onPush: client.onPush }),
  enumerable: true,
  writable: false,
  configurable: false,
});
