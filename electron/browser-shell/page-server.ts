import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { APP_ORIGIN } from '../app-page/app-protocol';
import type { AppCore } from '../bridge/app-core';
import { describeError } from '../log/log';
import { createAccessGuard, type AccessGuard } from './access-guard';
import { createPageLinks, MAX_MESSAGE_BYTES, serveBridgeSocket } from './bridge-socket';
import type { SaveFile } from '../bridge/exports';
import { createOneTimeDownloads, DOWNLOAD_PATH_PREFIX, type OneTimeDownloads } from './one-time-downloads';
import { DISPLAY_PAGE_FILE, DISPLAY_SHELL_PATH } from '../display/display-page';
import { serveDisplaySocket } from './display-socket';
import { DISPLAY_SCRIPT_PATH, DISPLAY_SOCKET_PATH } from './socket-paths';
import { plain, scriptHeaders, send, SHELL_HEADERS, withBridgeScript as withScript } from './http-answers';

/** Under the secret, beside the renderer's files: names the Vite build never produces. */
export const BRIDGE_SCRIPT_PATH = '/__till/bridge.js';
export const BRIDGE_SOCKET_PATH = '/__till/socket';

export interface PageServer {
  /** The address a person opens, with the secret. */
  address: string;
  /** The customer display's address, beside it: `…/<secret>/display`. */
  displayAddress: string;
  guard: AccessGuard;
  /** The core made for this server's origin. */
  core: AppCore;
  /** Stops listening and closes every page's socket. */
  close(): Promise<void>;
}

export interface PageServerOptions {
  /**
   * Makes the core once the port, and so the page's origin (the bridge's only sender), is known;
   * `saveFile` is this shell's way out for an export (a download served once), for the core.
   */
  createCore: (appOrigin: string, shell: { saveFile: SaveFile }) => Promise<AppCore>;
  /** The `app://` protocol handler (`createAppProtocolHandler`): the same files and headers as in Electron. */
  appProtocol: (request: Request) => Promise<Response>;
  /** The bundled `page-bridge.ts`. */
  bridgeScript: string;
  /** The bundled `display-bridge.ts`: the customer display's page gets this, never the till's. */
  displayScript: string;
  secret: string;
  /** 0 for a free port. */
  port?: number;
}

/**
 * The browser shell's web server, on 127.0.0.1 only: every request and WebSocket upgrade
 * passes the access guard first; pages and files come from the app's own protocol handler,
 * with the bridge's script added to index.html; the bridge itself is a WebSocket.
 */
export async function startPageServer(options: PageServerOptions): Promise<PageServer> {
  const { appProtocol, bridgeScript, secret } = options;
  // No request is answered until the core exists; nobody knows the secret before then anyway.
  const server: Server = createServer();
  // Loopback only: nothing on the network can connect, whatever the guard says.
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const guard = createAccessGuard({ port: (server.address() as AddressInfo).port, secret });
  const downloads = createOneTimeDownloads();
  let core: AppCore;
  try {
    core = await options.createCore(guard.appOrigin, { saveFile: downloads.offer });
  } catch (error) {
    server.close();
    throw error;
  }
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  const pageLinks = createPageLinks(core.links);

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    void answer(request, response).catch((error: unknown) => {
      core.log.error(`The browser shell failed to answer a request: ${describeError(error)}`);
      if (!response.headersSent) plain(response, 500, 'The till app failed to answer.');
      else response.destroy();
    });
  });

  async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const verdict = guard.check(headOf(request), { websocket: false });
    if (!verdict.allowed) return plain(response, verdict.status, verdict.reason);
    if ('redirectTo' in verdict) {
      response.writeHead(307, { ...SHELL_HEADERS, Location: verdict.redirectTo, 'Content-Length': '0' });
      response.end();
      return;
    }
    const method = request.method ?? 'GET';
    // Files are only read here (the bridge is the socket): TRACE, PUT and the rest are refused
    // before the request reaches the app:// handler, which could not even make a Request of some.
    if (method !== 'GET' && method !== 'HEAD') {
      response.setHeader('Allow', 'GET, HEAD');
      return plain(response, 405, 'Method not allowed');
    }
    if (verdict.path === BRIDGE_SCRIPT_PATH) return send(response, method, 200, scriptHeaders(), bridgeScript);
    if (verdict.path.startsWith(DOWNLOAD_PATH_PREFIX)) return serveDownload(response, method, downloads, verdict.path);
    // ---- the customer display: its page with its own bridge, never the till's ----
    if (verdict.path === DISPLAY_SCRIPT_PATH) {
      if (method !== 'GET' && method !== 'HEAD') return plain(response, 405, 'Method not allowed');
      return send(response, method, 200, scriptHeaders(), options.displayScript);
    }
    if (verdict.path === DISPLAY_SHELL_PATH || verdict.path === DISPLAY_PAGE_FILE) {
      const served = await appProtocol(new Request(`${APP_ORIGIN}${DISPLAY_PAGE_FILE}`, { method }));
      const headers: Record<string, string> = { ...Object.fromEntries(served.headers), ...SHELL_HEADERS };
      delete headers['content-length'];
      if (served.status !== 200) return plain(response, served.status, 'The customer display is missing.');
      return send(response, method, 200, headers, withBridgeScript(await served.text(), DISPLAY_SCRIPT_PATH));
    }
    // The request Electron would make for the same file: `app://till/<path>`.
    const served = await appProtocol(new Request(`${APP_ORIGIN}${verdict.path}`, { method }));
    const headers: Record<string, string> = { ...Object.fromEntries(served.headers), ...SHELL_HEADERS };
    delete headers['content-length']; // `send` sets it for the bytes actually sent
    if (served.status === 200 && served.headers.get('content-type')?.startsWith('text/html')) {
      // The page's one difference from Electron's: the bridge arrives as a script, not a preload.
      const html = withBridgeScript(await served.text());
      return send(response, method, 200, headers, html);
    }
    const body = method === 'HEAD' ? '' : Buffer.from(await served.arrayBuffer());
    return send(response, method, served.status, headers, body);
  }

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const verdict = guard.check(headOf(request), { websocket: true });
    if (verdict.allowed && 'path' in verdict && verdict.path === DISPLAY_SOCKET_PATH) {
      sockets.handleUpgrade(request, socket, head, (webSocket) =>
        serveDisplaySocket(webSocket, {
          hub: core.display,
          senderUrl: `${guard.appOrigin}${DISPLAY_SHELL_PATH}`,
          log: core.log,
        }),
      );
      return;
    }
    if (!verdict.allowed || !('path' in verdict) || verdict.path !== BRIDGE_SOCKET_PATH) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    sockets.handleUpgrade(request, socket, head, (webSocket) =>
      serveBridgeSocket(webSocket, { core, pageLinks, senderUrl: `${guard.appOrigin}/` }),
    );
  });

  return {
    address: guard.address,
    displayAddress: `${guard.address.replace(/\/$/, '')}${DISPLAY_SHELL_PATH}`,
    guard,
    core,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of sockets.clients) client.terminate();
        sockets.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
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

function headOf(request: IncomingMessage) {
  return { host: request.headers.host, origin: request.headers.origin, url: request.url };
}
