import { BrowserWindow } from 'electron';

/**
 * The till's one window. Every web preference below is a security choice (see
 * docs/security.md): the page is an untrusted renderer that can reach the main
 * process only through `window.till`.
 */
export function createMainWindow(options: { preloadPath: string; devTools: boolean }): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 800,
    minWidth: 900,
    minHeight: 600,
    title: 'Loyalty Till',
    show: false,
    backgroundColor: '#ffffff',
    webPreferences: secureWebPreferences(options),
  });
  // Avoids a white flash before the first paint.
  window.once('ready-to-show', () => window.show());
  return window;
}

/**
 * Every window's web preferences, the till's and the customer display's: each a security
 * choice (docs/security.md). Only the preload differs between them.
 */
export function secureWebPreferences(options: { preloadPath: string; devTools: boolean }) {
  return {
    preload: options.preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    safeDialogs: true,
    spellcheck: false,
    devTools: options.devTools,
  } as const;
}
