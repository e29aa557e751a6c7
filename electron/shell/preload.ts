import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { createTillApi, LINK_PUSH_CHANNEL } from '../../common/contract';

// The whole preload: `window.till` and nothing else (no ipcRenderer, no Node). The one push
// listener is fixed to the link channel, whatever it is asked for, and receives the payload
// only, never the IPC event (which would expose `sender`).
contextBridge.exposeInMainWorld(
  'till',
  createTillApi(
    (channel, payload) => ipcRenderer.invoke(channel, payload),
    (_channel, listener) => {
      const onLink = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
      ipcRenderer.on(LINK_PUSH_CHANNEL, onLink);
      return () => void ipcRenderer.removeListener(LINK_PUSH_CHANNEL, onLink);
    },
  ),
);
