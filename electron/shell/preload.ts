import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { LINK_PUSH_CHANNEL } from '../../common/contract';
import { createWindowTill } from '../../common/window-till';

// The whole preload: `window.till` and nothing else (no ipcRenderer, no Node), built as the
// browser shell's page bridge builds it. The one push listener is fixed to the link channel and
// receives the payload only, never the IPC event (which would expose `sender`).
contextBridge.exposeInMainWorld(
  'till',
  createWindowTill({
    invoke: (channel, payload) => ipcRenderer.invoke(channel, payload),
    onLinkPush: (listener) => {
      const onLink = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
      ipcRenderer.on(LINK_PUSH_CHANNEL, onLink);
      return () => void ipcRenderer.removeListener(LINK_PUSH_CHANNEL, onLink);
    },
  }),
);
