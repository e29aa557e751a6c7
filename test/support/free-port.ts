// A TCP port free on loopback now, for tests whose servers must know each other's ports
// before any of them listens (the tills of a shop, electron/shop-ledger/).
import { createServer, type AddressInfo } from 'node:net';

export const LOOPBACK = '127.0.0.1';

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, LOOPBACK, resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
