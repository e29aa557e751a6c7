/**
 * The bench browser's only way out: Chromium sends every request that is not for 127.0.0.1
 * (the page's, and the browser's own background traffic) to this proxy, which closes each
 * connection without an answer, so nothing leaves the machine.
 *
 * This replaces request interception, which pauses every request (each bridge call too) for
 * a round trip over the DevTools protocol handled on the Node thread the core runs on.
 */
import { createServer, type AddressInfo } from 'node:net';

export async function startRefusingProxy(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((socket) => {
    socket.on('error', () => undefined);
    socket.destroy();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
