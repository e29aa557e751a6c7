/**
 * What the browser shell's two listeners, the till's (`page-server.ts`) and the customer
 * display's (`display-server.ts`), answer alike: a listener on 127.0.0.1 only, the access
 * guard's verdict carried out, the headers every answer carries, plain refusals.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CONTENT_SECURITY_POLICY } from '../app-page/content-security-policy';
import type { AccessGuard } from './access-guard';

/**
 * Added to every answer, on top of what the `app://` handler sends: the secret is in the page's
 * address, so no Referer may carry it anywhere, and nothing of the app is for other sites (the
 * till's page and the display's are other sites to each other).
 */
export const SHELL_HEADERS = {
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
};

/** Listens on 127.0.0.1 only (nothing on the network can connect, whatever a guard says); answers the port. */
export async function listenOnLoopback(server: Server, port: number): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}

/**
 * The guard's verdict on an HTTP request, carried out: a refusal or a redirect is answered
 * here (null comes back); an allowed request gives its path and method, only GET or HEAD.
 */
export function admitted(
  guard: AccessGuard,
  request: IncomingMessage,
  response: ServerResponse,
): { path: string; method: 'GET' | 'HEAD' } | null {
  const verdict = guard.check(headOf(request), { websocket: false });
  if (!verdict.allowed) {
    plain(response, verdict.status, verdict.reason);
    return null;
  }
  if ('redirectTo' in verdict) {
    response.writeHead(307, { ...SHELL_HEADERS, Location: verdict.redirectTo, 'Content-Length': '0' });
    response.end();
    return null;
  }
  const method = request.method ?? 'GET';
  // Files are only read here (the bridge is a socket): TRACE, PUT and the rest are refused
  // before the request reaches the app:// handler, which could not even make a Request of some.
  if (method !== 'GET' && method !== 'HEAD') {
    response.setHeader('Allow', 'GET, HEAD');
    plain(response, 405, 'Method not allowed');
    return null;
  }
  return { path: verdict.path, method };
}

/** The path of a WebSocket upgrade the guard allows, or null: the caller refuses it. */
export function admittedSocket(guard: AccessGuard, request: IncomingMessage): string | null {
  const verdict = guard.check(headOf(request), { websocket: true });
  return verdict.allowed && 'path' in verdict ? verdict.path : null;
}

/** A refused upgrade: 403 and nothing else. */
export const REFUSED_UPGRADE = 'HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n';

/** The bridge's classic script runs before the app's module script (modules are deferred). */
export function withBridgeScript(html: string, scriptPath: string): string {
  const end = html.indexOf('</head>');
  if (end === -1) throw new Error('The page has no </head> to put the bridge script in.');
  return `${html.slice(0, end)}<script src=".${scriptPath}"></script>\n${html.slice(end)}`;
}

/** A page from the `app://` handler with its bridge's script added, and the shell's headers. */
export async function sendPage(
  response: ServerResponse,
  method: string,
  served: Response,
  scriptPath: string,
): Promise<void> {
  send(response, method, 200, headersOf(served), withBridgeScript(await served.text(), scriptPath));
}

/** Whatever else the `app://` handler answered, as it answered it, with the shell's headers. */
export async function sendServed(response: ServerResponse, method: string, served: Response): Promise<void> {
  const body = method === 'HEAD' ? '' : Buffer.from(await served.arrayBuffer());
  send(response, method, served.status, headersOf(served), body);
}

function headersOf(served: Response): Record<string, string> {
  const headers: Record<string, string> = { ...Object.fromEntries(served.headers), ...SHELL_HEADERS };
  delete headers['content-length']; // `send` sets it for the bytes actually sent
  return headers;
}

export function scriptHeaders(): Record<string, string> {
  return {
    'Content-Type': 'text/javascript; charset=utf-8',
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-cache',
    ...SHELL_HEADERS,
  };
}

export function send(
  response: ServerResponse,
  method: string,
  status: number,
  headers: Record<string, string>,
  body: string | Buffer,
): void {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  response.writeHead(status, { ...headers, 'Content-Length': String(bytes.length) });
  response.end(method === 'HEAD' ? undefined : bytes);
}

/** A refusal or error: a line of text, nothing of the app. */
export function plain(response: ServerResponse, status: number, text: string): void {
  send(response, 'GET', status, { 'Content-Type': 'text/plain; charset=utf-8', ...SHELL_HEADERS }, `${text}\n`);
}

function headOf(request: IncomingMessage) {
  return { host: request.headers.host, origin: request.headers.origin, url: request.url };
}
