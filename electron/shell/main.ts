import { app, ipcMain, Menu, net, protocol, session, shell, type BrowserWindow } from 'electron';
import { join } from 'node:path';
import { CHANNELS } from '../../common/contract';
import type { PageSend } from '../app-page/page-door';
import { createAppCore, LAN_HOSTS, type AppCore } from '../bridge/app-core';
import { startDiscovery } from '../shop-ledger/discovery';
import { APP_HOST, APP_ORIGIN, APP_SCHEME, createAppProtocolHandler, DISPLAY_ORIGIN } from '../app-page/app-protocol';
import { buildAppMenu } from './app-menu';
import { createFileLogger } from './electron-log-file';
import { createRedactingLogger, describeError } from '../log/log';
import { createSafeStorageCipher } from './safe-storage-cipher';
import type { LinkSource } from '../links/link-inbox';
import { protocolClientArgs } from '../links/protocol-client';
import { linksInArgv } from '../links/till-link';
import { installWebContentsGuards } from './web-contents-guards';
import { startAutoUpdate } from './auto-update';
import { machinePolicySource } from '../policy/machine-policy';
import { IMPORT_API_KEY_FLAG, importApiKey } from '../storage/key-import';
import { HEALTH_FLAG } from '../health/health-flag';
import { runHealthCommand } from '../health/health-check';
import { readingCodec } from '../work-copy/till-work-copy';
import { logFilesIn } from '../health/health-wiring';
import { createMainWindow } from './window';
import { saveReportPdf } from './report-pdf';
import { saveExportWithDialog } from './save-with-dialog';
import { startCustomerDisplay, type CustomerDisplayWindow } from './display-window';

// The Electron shell around the app core: protocol, window, IPC registration, lifecycle.
// Everything with logic in it lives in modules that are tested under Node.

// Bundled to dist/main/main.cjs: the preload sits beside it, the renderer in dist/renderer.
const PRELOAD = join(__dirname, 'preload.cjs');
const DISPLAY_PRELOAD = join(__dirname, 'display-preload.cjs');
const RENDERER_ROOT = join(__dirname, '..', 'renderer');

protocol.registerSchemesAsPrivileged([
  // Standard and secure: a real origin for the page, so `'self'` in the CSP and same-origin module scripts work.
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true } },
]);
app.enableSandbox();

if (process.argv.includes(HEALTH_FLAG)) {
  // A fleet tool's look (docs/operations.md, "Watching the tills"): the till's health from its
  // folder, printed, and the exit code; no window, no instance lock (the till may be running),
  // after `ready` so that the OS's store can be asked should the files need the data key.
  app.dock?.hide();
  void app.whenReady().then(async () => {
    const status = await runHealthCommand({
      folder: app.getPath('userData'),
      about: { version: app.getVersion(), shell: 'electron' },
      policySource: machinePolicySource(),
      // Its copy of the outbox is sealed under the data key, which the OS's store opens.
      openCodec: () => readingCodec(app.getPath('userData'), createSafeStorageCipher()),
    });
    app.exit(status);
  });
} else if (process.argv.includes(IMPORT_API_KEY_FLAG)) {
  // A deployment script's run: store the key from standard input and exit, no window, no
  // instance lock (the till may be running; it reads the new key at its next start).
  void app.whenReady().then(async () => {
    const status = await importApiKey({
      input: process.stdin,
      output: process.stderr,
      userDataDir: app.getPath('userData'),
      cipher: createSafeStorageCipher(),
      log: createRedactingLogger(createFileLogger(), () => []),
    });
    app.exit(status);
  });
} else if (!app.requestSingleInstanceLock()) {
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
  let stopUpdates = (): void => undefined;
  let customerDisplay: CustomerDisplayWindow | null = null;
  const devTools = !app.isPackaged;
  // Links that arrive before the core is ready (macOS sends open-url before `ready`).
  const early: Array<{ url: string; via: LinkSource }> = [];

  const receiveLink = (url: string, via: LinkSource) => {
    if (core) core.links.receive(url, via);
    else if (early.length < 10) early.push({ url, via });
  };

  const showWindow = () => {
    if (window && !window.isDestroyed()) {
      if (window.isMinimized()) window.restore();
      window.focus();
      return;
    }
    const created = createMainWindow({ preloadPath: PRELOAD, devTools });
    window = created;
    if (core) {
      const page = core.page;
      const send: PageSend = (channel, payload) => created.webContents.send(channel, payload);
      page.attach(send);
      // A reload starts a new page that has not subscribed yet: hold links until it asks.
      created.webContents.on('did-start-loading', () => page.attach(send));
      created.on('closed', () => page.detach());
    }
    void created.loadURL(`${APP_ORIGIN}/index.html`);
  };

  // Windows (and Linux): a link opened while the app runs starts a second instance, whose
  // command line carries the link. The second instance quits; the link is handled here.
  app.on('second-instance', (_event, argv) => {
    showWindow();
    for (const url of linksInArgv(argv ?? [])) receiveLink(url, 'second-instance');
  });
  // macOS: links come as open-url, also the one that started the app.
  app.on('open-url', (event, url) => {
    event.preventDefault();
    receiveLink(url, 'open-url');
    if (core) showWindow();
  });

  app.on('will-quit', (event) => {
    if (disposed || !core) return;
    // Stop the demo sandbox (and let it save) before the process goes.
    event.preventDefault();
    disposed = true;
    stopUpdates();
    customerDisplay?.stop();
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
        displayOrigin: DISPLAY_ORIGIN,
        log: fileLog,
        policySource: machinePolicySource(),
        about: { version: app.getVersion(), shell: 'electron', logFiles: logFilesIn(app.getPath('logs')) },
        // Read on every getState, so a language added in the OS is followed without a restart.
        systemLanguages: () => {
          const preferred = app.getPreferredSystemLanguages();
          return preferred.length > 0 ? preferred : [app.getLocale()];
        },
        // The shop ledger on the LAN, found by mDNS (docs/shop-ledger.md).
        shopLedgerHosts: LAN_HOSTS,
        shopDiscovery: startDiscovery,
        reportPdf: async (fileName) =>
          window && !window.isDestroyed() ? saveReportPdf(window, fileName) : 'cancelled',
        saveFile: async (file) =>
          window && !window.isDestroyed()
            ? saveExportWithDialog(window, file)
            : { outcome: 'cancelled', downloadPath: null },
        screens: () => customerDisplay?.screens() ?? [],
      });
      const handlers = core.handlers;
      const log = core.log;
      process.on('uncaughtException', (error) => log.error(`Uncaught: ${describeError(error)}`));
      process.on('unhandledRejection', (error) => log.error(`Unhandled rejection: ${describeError(error)}`));

      installWebContentsGuards({ appOrigin: APP_ORIGIN, session: session.defaultSession, log });
      // The till's session serves the till's host only; the display's partition its own (display-window.ts).
      protocol.handle(
        APP_SCHEME,
        createAppProtocolHandler({ rootDir: RENDERER_ROOT, fetchFile: (url) => net.fetch(url), hosts: [APP_HOST] }),
      );
      // The customer display's window reaches its own channels only, never the till's.
      customerDisplay = startCustomerDisplay({
        core,
        preloadPath: DISPLAY_PRELOAD,
        devTools,
        rendererRoot: RENDERER_ROOT,
        mainWindow: () => window,
      });
      for (const channel of Object.values(CHANNELS)) {
        ipcMain.handle(channel, (event, payload) =>
          handlers[channel](
            customerDisplay?.owns(event.sender) ? null : { url: event.senderFrame?.url ?? '' },
            payload,
          ),
        );
      }
      Menu.setApplicationMenu(
        buildAppMenu({
          isMac: process.platform === 'darwin',
          devTools,
          openLogsFolder: () => void shell.openPath(app.getPath('logs')),
        }),
      );
      app.on('activate', showWindow);
      registerAsLinkHandler(log);
      // `"Loyalty Till.exe" "loyalty-till://…"`: a link on the command line of the first start.
      for (const url of linksInArgv(process.argv.slice(1))) receiveLink(url, 'command-line');
      for (const { url, via } of early.splice(0)) receiveLink(url, via);
      showWindow();
      void customerDisplay.place();
      stopUpdates = startAutoUpdate(core);
      log.info(`Loyalty Till ${app.getVersion()} started.`);
    })
    .catch((error) => {
      // No core, so no known key: still strip anything shaped like a bearer token.
      createRedactingLogger(fileLog, () => []).error(`Start-up failed: ${describeError(error)}`);
      app.exit(1);
    });
}

/** Where the installer did not register `loyalty-till://` (an unpacked build), the app does. */
function registerAsLinkHandler(log: { info(message: string): void; warn(message: string): void }): void {
  const args = protocolClientArgs({
    defaultApp: process.defaultApp === true,
    execPath: process.execPath,
    argv: process.argv,
  });
  if (app.isDefaultProtocolClient(...args)) return;
  if (app.setAsDefaultProtocolClient(...args)) log.info(`Registered as the handler of ${args[0]}:// links.`);
  else log.warn(`Could not register as the handler of ${args[0]}:// links; the installer registers them.`);
}
