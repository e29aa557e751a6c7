import { isIP } from 'node:net';
import { plainAddress } from './admission';

/**
 * The end of a TCP connection a sealed message is addressed to (docs/shop-ledger.md, "How
 * messages are authenticated and replay-protected"). A till seals each message for the very
 * connection that carries it: a request for the address and port it dialled, an answer for the
 * asker's address and port as the answering till sees them. The receiver takes only a message
 * addressed to the end it arrived at, so a frame recorded on the LAN and sent again to another
 * till, to its own sender, or from another connection is refused before anything is read.
 *
 * Both sides write the end the same way from what their sockets report: the IPv4 a dual-stack
 * socket names `::ffff:10.0.0.2` is `10.0.0.2`, a link-local zone (`%eth0`) is dropped (it names
 * an interface of one machine, not the address), IPv6 goes in brackets.
 */

/** `10.0.0.2:47231` or `[fd00::2]:47231`; null when the socket no longer knows its ends. */
export function socketEnd(address: string | undefined, port: number | undefined): string | null {
  if (address === undefined || port === undefined || !Number.isSafeInteger(port) || port < 1 || port > 65_535) {
    return null;
  }
  const bare = plainAddress(address.split('%')[0]!).toLowerCase();
  const family = isIP(bare);
  if (family === 0) return null;
  return family === 6 ? `[${bare}]:${port}` : `${bare}:${port}`;
}

/** Whether a received `to` is an end as `socketEnd` writes it; the comparison does the rest. */
export function isSocketEnd(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > 64) return false;
  const match = /^(?:\[([0-9a-f:.]+)\]|([0-9.]+)):(\d{1,5})$/.exec(value);
  if (match === null) return false;
  const address = match[1] ?? match[2]!;
  return socketEnd(address, Number(match[3])) === value;
}
