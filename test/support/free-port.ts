// A TCP port free on loopback now, for tests whose servers must know each other's ports
// before any of them listens (the tills of a shop, electron/shop-ledger/).
import { createServer } from 'node:net';

export const LOOPBACK = '127.0.0.1';

/**
 * Below Linux's ephemeral range (32768-60999, where `listen(0)` and every outgoing connection
 * take their ports): a port found free here cannot be taken meanwhile by a connection another
 * test opens, as one found with `listen(0)` could be between this check and the till's listen.
 */
const LOWEST = 20_000;
const SPAN = 12_000;

export async function freePort(): Promise<number> {
  for (let tries = 0; tries < 50; tries++) {
    const port = LOWEST + Math.floor(Math.random() * SPAN);
    if (await canListen(port)) return port;
  }
  throw new Error(`No free port found between ${LOWEST} and ${LOWEST + SPAN}.`);
}

function canListen(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, LOOPBACK, () => server.close(() => resolve(true)));
  });
}
