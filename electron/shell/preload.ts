import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { createWindowTill } from '../../common/window-till';

// The whole preload: `window.till` and nothing else (no ipcRenderer, no Node), built as the
// browser shell's page bridge builds it. createWindowTill listens only on the page's push
// channels (PAGE_PUSH_CHANNELS), and the listener receives the payload only, never the IPC
// event (which would expose `sender`).
contextBridge.exposeInMainWorld(
  'till',
  createWindowTill({
    invoke: (channel, payload) => ipcRenderer.invoke(channel, payload),
    onPush: (channel, listener) => {
      const onPush = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
      ipcRenderer.on(channel, onPush);
      return () => void ipcRenderer.removeListener(channel, onPush);
    },
  }),
);
