import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { APP_ORIGIN } from '../app-page/app-protocol';
import type { AppCore } from '../bridge/app-core';
import { describeError } from '../log/log';
import { createAccessGuard, newAccessSecret, type AccessGuard } from './access-guard';
import { createPageHolder, MAX_MESSAGE_BYTES, serveBridgeSocket } from './bridge-socket';
import type { SaveFile } from '../bridge/exports';
import { createOneTimeDownloads, DOWNLOAD_PATH_PREFIX, type OneTimeDownloads } from './one-time-downloads';
import { DISPLAY_PAGE_FILE, DISPLAY_SHELL_PATH } from '../display/display-page';
import { startDisplayServer, type DisplayServer } from './display-server';
import {
  admitted,
  admittedSocket,
  listenOnLoopback,
  plain,
  REFUSED_UPGRADE,
  scriptHeaders,
  send,
  sendPage,
  sendServed,
  SHELL_HEADERS,
  withBridgeScript as withScript,
} from './http-answers';

/** Under the secret, beside the renderer's files: names the Vite build never produces. */
export const BRIDGE_SCRIPT_PATH = '/__till/bridge.js';
export const BRIDGE_SOCKET_PATH = '/__till/socket';

export interface PageServer {
  /** The address a person opens, with the secret. */
  address: string;
  /** The customer display's address, on its own listener with its own secret: `http://127.0.0.1:<port>/<secret>/display`. */
  displayAddress: string;
  guard: AccessGuard;
  /** The customer display's listener: its origin and guard. */
  display: Pick<DisplayServer, 'origin' | 'guard'>;
  /** The core made for this server's origin. */
  core: AppCore;
  /** Stops listening (both listeners) and closes every page's socket. */
  close(): Promise<void>;
}

export interface PageServerOptions {
  /**
   * Makes the core once the ports, and so the page's origin (the bridge's only sender) and the
   * display's (the display channels' only sender), are known; `saveFile` is this shell's way
   * out for an export (a download served once), for the core.
   */
  createCore: (
    appOrigin: string,
    shell: { saveFile: SaveFile; displayOrigin: string; displayAddress: string },
  ) => Promise<AppCore>;
  /** The `app://` protocol handler (`createAppProtocolHandler`): the same files and headers as in Electron. */
  appProtocol: (request: Request) => Promise<Response>;
  /** The bundled `page-bridge.ts`. */
  bridgeScript: string;
  /** The bundled `display-bridge.ts`: the customer display's page gets this, never the till's. */
  displayScript: string;
  secret: string;
  /** The customer display's listener's own secret; a new one by default. */
  displaySecret?: string;
  /** 0 for a free port. */
  port?: number;
}

/**
 * The browser shell's web server, on 127.0.0.1 only: every request and WebSocket upgrade
 * passes the access guard first; pages and files come from the app's own protocol handler,
 * with the bridge's script added to index.html; the bridge itself is a WebSocket. The customer
 * display has a listener of its own (`display-server.ts`), so an origin of its own: this one
 * serves it nothing.
 */
export async function startPageServer(options: PageServerOptions): Promise<PageServer> {
  const { appProtocol, bridgeScript, secret } = options;
  // No request is answered until the core exists; nobody knows the secret before then anyway.
  const server: Server = createServer();
  const guard = createAccessGuard({ port: await listenOnLoopback(server, options.port ?? 0), secret });
  let display: DisplayServer;
  try {
    display = await startDisplayServer({
      appProtocol,
      displayScript: options.displayScript,
      secret: options.displaySecret ?? newAccessSecret(),
    });
  } catch (error) {
    server.close();
    throw error;
  }
  const downloads = createOneTimeDownloads();
  let core: AppCore;
  try {
    core = await options.createCore(guard.appOrigin, {
      saveFile: downloads.offer,
      displayOrigin: display.origin,
      displayAddress: display.address,
    });
  } catch (error) {
    server.close();
    await display.close();
    throw error;
  }
  display.serve(core);
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  const page = createPageHolder(core.page);

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    void answer(request, response).catch((error: unknown) => {
      core.log.error(`The browser shell failed to answer a request: ${describeError(error)}`);
      if (!response.headersSent) plain(response, 500, 'The till app failed to answer.');
      else response.destroy();
    });
  });

  async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const allowed = admitted(guard, request, response);
    if (!allowed) return;
    const { path, method } = allowed;
    if (path === BRIDGE_SCRIPT_PATH) return send(response, method, 200, scriptHeaders(), bridgeScript);
    if (path.startsWith(DOWNLOAD_PATH_PREFIX)) return serveDownload(response, method, downloads, path);
    // The customer display is not served on the till's origin, by any of its names.
    if (path === DISPLAY_SHELL_PATH || path === DISPLAY_PAGE_FILE)
      return plain(response, 404, 'The customer display has an address of its own; "npm start" printed it.');
    // The request Electron would make for the same file: `app://till/<path>`.
    const served = await appProtocol(new Request(`${APP_ORIGIN}${path}`, { method }));
    // The page's one difference from Electron's: the bridge arrives as a script, not a preload.
    if (served.status === 200 && served.headers.get('content-type')?.startsWith('text/html'))
      return sendPage(response, method, served, BRIDGE_SCRIPT_PATH);
    return sendServed(response, method, served);
  }

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    // The till's bridge only: the display's socket is on the display's listener.
    if (admittedSocket(guard, request) !== BRIDGE_SOCKET_PATH) {
      socket.end(REFUSED_UPGRADE);
      return;
    }
    sockets.handleUpgrade(request, socket, head, (webSocket) =>
      serveBridgeSocket(webSocket, { core, page, senderUrl: `${guard.appOrigin}/` }),
    );
  });

  return {
    address: guard.address,
    displayAddress: display.address,
    guard,
    display: { origin: display.origin, guard: display.guard },
    core,
    close: async () => {
      await Promise.all([
        new Promise<void>((resolve) => {
          for (const client of sockets.clients) client.terminate();
          sockets.close();
          server.close(() => resolve());
          server.closeAllConnections();
        }),
        display.close(),
      ]);
    },
  };
}

/** An export the core approved, once; a HEAD does not use it up, and says nothing of it. */
function serveDownload(response: ServerResponse, method: string, downloads: OneTimeDownloads, path: string): void {
  if (method !== 'GET') {
    response.setHeader('Allow', 'GET');
    return plain(response, 405, 'Method not allowed');
  }
  const file = downloads.take(path.slice(DOWNLOAD_PATH_PREFIX.length));
  if (!file) return plain(response, 404, 'This download was already taken, or has expired.');
  send(
    response,
    method,
    200,
    {
      'Content-Type': file.contentType,
      'Content-Disposition': `attachment; filename="${file.fileName}"`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      ...SHELL_HEADERS,
    },
    file.bytes,
  );
}

/** The till's page with its bridge's script, which runs before the app's module script (modules are deferred). */
export function withBridgeScript(html: string, scriptPath = BRIDGE_SCRIPT_PATH): string {
  return withScript(html, scriptPath);
}
