import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { createTillApi } from './contract';

// The whole preload: `window.till` and nothing else (no ipcRenderer, no Node). The push
// listener receives the payload only, never the IPC event (which would expose `sender`).
contextBridge.exposeInMainWorld(
  'till',
  createTillApi(
    (channel, payload) => ipcRenderer.invoke(channel, payload),
    (channel, listener) => {
      const onMessage = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
      ipcRenderer.on(channel, onMessage);
      return () => void ipcRenderer.removeListener(channel, onMessage);
    },
  ),
);
