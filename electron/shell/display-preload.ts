import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { createTillDisplayApi, DISPLAY_PUSH_CHANNEL } from '../../common/display-model';

// The customer display's whole preload: `window.tillDisplay` (the model, and the keypad's one
// operation) and nothing else; no `window.till`, no ipcRenderer, no Node. The one listener is
// fixed to the model's push channel and receives the payload only, never the IPC event.
contextBridge.exposeInMainWorld(
  'tillDisplay',
  createTillDisplayApi({
    invoke: (channel, payload) => ipcRenderer.invoke(channel, payload),
    onModelPush: (listener) => {
      const onModel = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
      ipcRenderer.on(DISPLAY_PUSH_CHANNEL, onModel);
      return () => void ipcRenderer.removeListener(DISPLAY_PUSH_CHANNEL, onModel);
    },
  }),
);
