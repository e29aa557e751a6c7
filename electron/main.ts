import { app, ipcMain, Menu, net, protocol, session, shell, type BrowserWindow } from 'electron';
import { join } from 'node:path';
import { CHANNELS } from './contract';
import { createAppCore, type AppCore } from './app-core';
import { APP_ORIGIN, APP_SCHEME, createAppProtocolHandler } from './app-protocol';
import { buildAppMenu } from './app-menu';
import { createFileLogger } from './electron-log-file';
import { createRedactingLogger, describeError } from './log';
import { createSafeStorageCipher } from './safe-storage-cipher';
import { installWebContentsGuards } from './web-contents-guards';
import { createMainWindow } from './window';

// The Electron shell around the app core: protocol, window, IPC registration, lifecycle.
// Everything with logic in it lives in modules that are tested under Node.

// Bundled to dist/main/main.cjs: the preload sits beside it, the renderer in dist/renderer.
const PRELOAD = join(__dirname, 'preload.cjs');
const RENDERER_ROOT = join(__dirname, '..', 'renderer');

protocol.registerSchemesAsPrivileged([
  // Standard and secure: a real origin for the page, so `'self'` in the CSP and same-origin module scripts work.
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true } },
]);
app.enableSandbox();

if (!app.requestSingleInstanceLock()) {
  // Two tills in one profile would fight over the key, the settings and the demo's data.
  app.quit();
} else {
  run();
}

function run(): void {
  const fileLog = createFileLogger();
  let core: AppCore | null = null;
  let window: BrowserWindow | null = null;
  let disposed = false;
  const devTools = !app.isPackaged;

  const showWindow = () => {
    if (window && !window.isDestroyed()) {
      if (window.isMinimized()) window.restore();
      window.focus();
      return;
    }
    window = createMainWindow({ preloadPath: PRELOAD, devTools });
    void window.loadURL(`${APP_ORIGIN}/index.html`);
  };

  app.on('second-instance', showWindow);

  app.on('will-quit', (event) => {
    if (disposed || !core) return;
    // Stop the demo sandbox (and let it save) before the process goes.
    event.preventDefault();
    disposed = true;
    core
      .dispose()
      .catch((error) => core?.log.error(`Shutting down: ${describeError(error)}`))
      .finally(() => app.quit());
  });

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  app
    .whenReady()
    .then(async () => {
      core = await createAppCore({
        userDataDir: app.getPath('userData'),
        cipher: createSafeStorageCipher(),
        appOrigin: APP_ORIGIN,
        log: fileLog,
        // Read on every getState, so a language added in the OS is followed without a restart.
        systemLanguages: () => {
          const preferred = app.getPreferredSystemLanguages();
          return preferred.length > 0 ? preferred : [app.getLocale()];
        },
      });
      const handlers = core.handlers;
      const log = core.log;
      process.on('uncaughtException', (error) => log.error(`Uncaught: ${describeError(error)}`));
      process.on('unhandledRejection', (error) => log.error(`Unhandled rejection: ${describeError(error)}`));

      installWebContentsGuards({ appOrigin: APP_ORIGIN, session: session.defaultSession, log });
      protocol.handle(APP_SCHEME, createAppProtocolHandler({ rootDir: RENDERER_ROOT, fetchFile: (url) => net.fetch(url) }));
      for (const channel of Object.values(CHANNELS)) {
        ipcMain.handle(channel, (event, payload) => handlers[channel]({ url: event.senderFrame?.url ?? '' }, payload));
      }
      Menu.setApplicationMenu(
        buildAppMenu({
          isMac: process.platform === 'darwin',
          devTools,
          openLogsFolder: () => void shell.openPath(app.getPath('logs')),
        }),
      );
      app.on('activate', showWindow);
      showWindow();
      log.info(`Loyalty Till ${app.getVersion()} started.`);
    })
    .catch((error) => {
      // No core, so no known key: still strip anything shaped like a bearer token.
      createRedactingLogger(fileLog, () => []).error(`Start-up failed: ${describeError(error)}`);
      app.exit(1);
    });
}
