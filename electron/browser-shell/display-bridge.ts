import { createTillDisplayApi, DISPLAY_PUSH_CHANNEL } from '../../common/display-model';
import { createPageSocketClient } from './page-socket';
import { DISPLAY_SOCKET_PATH } from './socket-paths';

// The customer display's page bridge in the browser shell: `window.tillDisplay` over the
// display's own socket, as the display preload builds it over IPC in Electron. It gives the
// page nothing else: no `window.till`, no socket, no generic send or listen. A display stays on
// all day and only listens, so it reopens its socket by itself to hear the next model.

const client = createPageSocketClient({
  path: DISPLAY_SOCKET_PATH,
  pushChannels: [DISPLAY_PUSH_CHANNEL],
  reconnectMs: 2000,
});

Object.defineProperty(globalThis, 'tillDisplay', {
  value: createTillDisplayApi({
    invoke: (channel, payload) => client.invoke(channel, payload),
    onModelPush: (listener) => client.onPush(DISPLAY_PUSH_CHANNEL, listener),
  }),
  enumerable: true,
  writable: false,
  configurable: false,
});
