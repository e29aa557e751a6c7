import { contextBridge, ipcRenderer } from 'electron';
import { createTillApi } from './contract';

// The whole preload: `window.till` and nothing else (no ipcRenderer, no Node).
contextBridge.exposeInMainWorld('till', createTillApi((channel, payload) => ipcRenderer.invoke(channel, payload)));
