import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface StubServer {
  url: string;
  /** Every request received, in order. */
  readonly requests: Array<{ method: string; url: string; authorization: string | undefined }>;
  close(): Promise<void>;
}

/**
 * A tiny real HTTP server on 127.0.0.1 for answers the sandbox never gives (HTML pages,
 * broken JSON, silence). Records every request so tests can prove what was or was not sent.
 */
export async function startStubServer(
  handle: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<StubServer> {
  const requests: StubServer['requests'] = [];
  const sockets = new Set<Socket>();
  const server = createServer((request, response) => {
    requests.push({
      method: request.method ?? '',
      url: request.url ?? '',
      authorization: request.headers.authorization,
    });
    handle(request, response);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        // Hanging requests would keep the server open forever.
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A server that accepts requests and never answers them. */
export function startSilentServer(): Promise<StubServer> {
  return startStubServer(() => undefined);
}

/**
 * A pass-through proxy in front of a real service (the sandbox) that counts requests:
 * proof that a refused payload never reached the service, or how often a GET was retried.
 */
export async function startCountingProxy(targetUrl: string): Promise<StubServer> {
  const target = new URL(targetUrl);
  return startStubServer((request, response) => {
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, method: request.method, path: request.url, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => response.destroy());
    request.pipe(upstream);
  });
}
