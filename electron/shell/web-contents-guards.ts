import { app, type Session } from 'electron';
import type { Logger } from '../log/log';

/**
 * App-wide limits on what any web contents may do, whatever page it shows: no navigation
 * away from the app, no new windows, no <webview>, no permissions, no downloads, and no
 * requests to the network from the renderer (the main process makes every service call).
 */
export function installWebContentsGuards(options: { appOrigin: string; session: Session; log: Logger }): void {
  const { appOrigin, session, log } = options;
  const isApp = (url: string) => {
    try {
      const parsed = new URL(url);
      return `${parsed.protocol}//${parsed.host}` === appOrigin;
    } catch {
      return false;
    }
  };

  app.on('web-contents-created', (_, contents) => {
    contents.on('will-navigate', (event) => {
      if (!isApp(event.url)) {
        event.preventDefault();
        log.warn(`Blocked navigation to ${safeForLog(event.url)}.`);
      }
    });
    contents.on('will-redirect', (event) => {
      if (!isApp(event.url)) event.preventDefault();
    });
    contents.on('will-attach-webview', (event) => {
      event.preventDefault();
      log.warn('Blocked a <webview>.');
    });
    contents.setWindowOpenHandler(({ url }) => {
      log.warn(`Blocked a new window for ${safeForLog(url)}.`);
      return { action: 'deny' };
    });
  });

  guardSession(session, log);
}

/**
 * A session's limits, whoever's pages it holds: the till's (the default session) and the
 * customer display's own partition each get them. No permission, no download, no device, no
 * screen capture, and no request from a page to the network.
 */
export function guardSession(session: Session, log: Logger): void {
  session.setPermissionRequestHandler((_contents, permission, callback) => {
    log.warn(`Denied a permission request: ${permission}.`);
    callback(false);
  });
  session.setPermissionCheckHandler(() => false);
  // No file leaves by the page's own download: exports go through the main process, which
  // needs the manager's approval and shows the save dialog itself (bridge/exports.ts).
  session.on('will-download', (event) => {
    event.preventDefault();
    log.warn('Blocked a download the page started: exports leave through the main process.');
  });
  session.setDevicePermissionHandler(() => false);
  session.setDisplayMediaRequestHandler((_request, callback) => callback({}));

  // File URLs are left alone: the app:// handler reads the renderer through net.fetch.
  session.webRequest.onBeforeRequest(
    { urls: ['http://*/*', 'https://*/*', 'ws://*/*', 'wss://*/*'] },
    (details, callback) => {
      log.warn(`Blocked a request from the renderer to ${safeForLog(details.url)}.`);
      callback({ cancel: true });
    },
  );
}

// The origin is enough to diagnose, and a query string could carry a customer's phone.
function safeForLog(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return '(unreadable URL)';
  }
}
