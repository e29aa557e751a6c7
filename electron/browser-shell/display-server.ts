import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { DISPLAY_ORIGIN } from '../app-page/app-protocol';
import type { DisplayHub } from '../display/display-hub';
import { DISPLAY_PAGE_FILE, DISPLAY_SHELL_PATH } from '../display/display-page';
import { describeError, type Logger } from '../log/log';
import { createAccessGuard, type AccessGuard } from './access-guard';
import { MAX_MESSAGE_BYTES } from './bridge-socket';
import { serveDisplaySocket } from './display-socket';
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
} from './http-answers';
import { DISPLAY_SCRIPT_PATH, DISPLAY_SOCKET_PATH } from './socket-paths';

export interface DisplayServer {
  /** The display's own origin, `http://127.0.0.1:<its port>`: the display channels' one sender. */
  origin: string;
  /** The display's address, with its own secret: `…/<secret>/display`. */
  address: string;
  guard: AccessGuard;
  /** Answers from now on, for the core's display hub; until then every request is 503. */
  serve(core: { display: DisplayHub; log: Logger }): void;
  /** Stops listening and closes every display's socket. */
  close(): Promise<void>;
}

/**
 * The customer display's own listener on 127.0.0.1, beside the till's (`page-server.ts`): its
 * own port, so its own origin, and its own secret, behind the same access guard. It serves the
 * display's page (with its bridge's script), the files that page names, and the display's
 * socket, and nothing else: not the till's page, files, bridge socket or downloads. The till's
 * listener refuses this origin, and this one the till's (the guard checks `Origin`), so the
 * display's page can reach neither the till's socket nor, as another origin, its IndexedDB.
 */
export async function startDisplayServer(options: {
  /** The `app://` protocol handler: the display's files come from `app://display/…`. */
  appProtocol: (request: Request) => Promise<Response>;
  /** The bundled `display-bridge.ts`. */
  displayScript: string;
  secret: string;
  /** 0 (the default) for a free port: the display keeps nothing an origin would have to keep. */
  port?: number;
}): Promise<DisplayServer> {
  const server = createServer();
  const guard = createAccessGuard({ port: await listenOnLoopback(server, options.port ?? 0), secret: options.secret });
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  let core: { display: DisplayHub; log: Logger } | null = null;

  async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const allowed = admitted(guard, request, response);
    if (!allowed) return;
    const { path, method } = allowed;
    if (path === DISPLAY_SCRIPT_PATH) return send(response, method, 200, scriptHeaders(), options.displayScript);
    // The display's page: at the root of its address, at `/display`, and by its file's name.
    const page = path === '/' || path === DISPLAY_SHELL_PATH || path === DISPLAY_PAGE_FILE;
    const served = await options.appProtocol(
      new Request(`${DISPLAY_ORIGIN}${page ? DISPLAY_PAGE_FILE : path}`, { method }),
    );
    if (page && served.status !== 200) return plain(response, served.status, 'The customer display is missing.');
    if (page) return sendPage(response, method, served, DISPLAY_SCRIPT_PATH);
    // Any other file: the handler serves only those the display's page names.
    return sendServed(response, method, served);
  }

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (!core) return plain(response, 503, 'The till app is starting.');
    const log = core.log;
    void answer(request, response).catch((error: unknown) => {
      log.error(`The customer display's listener failed to answer a request: ${describeError(error)}`);
      if (!response.headersSent) plain(response, 500, 'The till app failed to answer.');
      else response.destroy();
    });
  });

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!core || admittedSocket(guard, request) !== DISPLAY_SOCKET_PATH) {
      socket.end(REFUSED_UPGRADE);
      return;
    }
    const { display, log } = core;
    sockets.handleUpgrade(request, socket, head, (webSocket) =>
      serveDisplaySocket(webSocket, { hub: display, senderUrl: `${guard.appOrigin}${DISPLAY_SHELL_PATH}`, log }),
    );
  });

  return {
    origin: guard.appOrigin,
    address: `${guard.address}${DISPLAY_SHELL_PATH.slice(1)}`,
    guard,
    serve(made) {
      core = made;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of sockets.clients) client.terminate();
        sockets.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
