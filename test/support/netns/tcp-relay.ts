// A port on this host's 127.0.0.1 that relays each connection to a service elsewhere on the
// test's LAN. A till sends to its service over https, or plain http to its own machine only
// (electron/storage/settings.ts); the sandbox speaks plain http, so a till on a host of the
// LAN reaches it through this relay, as through a local proxy. When the service's link is
// down, each connection through the relay fails as a direct one would.
import { createConnection, createServer, type Server } from 'node:net';

export async function relayToService(upstream: { host: string; port: number }, port: number): Promise<Server> {
  const server = createServer((local) => {
    const remote = createConnection(upstream);
    local.pipe(remote).pipe(local);
    // Either end failing ends both: the till sees the service unreachable, not a hang.
    local.on('error', () => remote.destroy());
    remote.on('error', () => local.destroy());
    local.on('close', () => remote.destroy());
    remote.on('close', () => local.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return server;
}
