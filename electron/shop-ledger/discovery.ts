import { randomBytes } from 'node:crypto';
import { Bonjour, type Browser, type Service } from 'bonjour-service';
import { isDialableLanAddress } from './lan-address';
import type { PeerAddress } from './peer-transport';

/**
 * The tills of a shop find each other on the LAN with no set-up: each advertises its ledger's
 * port by mDNS / DNS-SD (`_loyalty-till._tcp.local`, through bonjour-service) and browses for
 * the others (docs/shop-ledger.md, "Discovery").
 *
 * What an advertisement says to anyone on the LAN: a random instance name (new at each start),
 * the port, and the shop's discovery tag, derived one way from the shop secret. The tag tells
 * a shop's tills apart from another shop's; it names no key, service, branch or till. A
 * record anyone could forge only makes a till dial an address on its own LAN, where every
 * message is authenticated: a forged peer learns nothing and is refused.
 */

export const SERVICE_TYPE = 'loyalty-till';
/** A shop has a handful of tills: more records with the tag than this are not all dialled. */
export const MAX_DISCOVERED = 32;
/** Records expire by their TTL; asking again this often finds tills that came back. */
const DEFAULT_REQUERY_MS = 60_000;

export interface DiscoveryOptions {
  /** The shop's discovery tag (`ShopKeys.discoveryTag`). */
  tag: string;
  /** The port this till's ledger listens on. */
  port: number;
  /** Every time the set of the shop's other tills on the LAN changes. */
  onPeers: (peers: PeerAddress[]) => void;
  /** Options for the mDNS socket (tests move it off port 5353); the defaults otherwise. */
  mdns?: { port?: number; interface?: string };
  requeryMs?: number;
  /** Which addresses may be dialled: on the LAN and not link-local IPv6 (`isDialableLanAddress`) by default. */
  dialable?: (address: string) => boolean;
  /** An mDNS socket that fails (no network): logged, and the till goes on with its peer list. */
  onError?: (error: unknown) => void;
}

export interface Discovery {
  /** Says goodbye on the LAN (so others drop this till at once) and closes the socket. */
  stop(): Promise<void>;
}

/** Where to dial a service: the address its answer came from when that is on the LAN, else one it lists. */
export function peerOf(
  service: Pick<Service, 'port' | 'addresses' | 'referer'>,
  dialable: (address: string) => boolean = isDialableLanAddress,
): PeerAddress | null {
  const { port } = service;
  if (!Number.isSafeInteger(port) || port < 1 || port > 65_535) return null;
  const candidates = [service.referer?.address, ...(service.addresses ?? [])].filter(
    (address): address is string => typeof address === 'string' && dialable(address),
  );
  const host = candidates[0];
  return host === undefined ? null : { host, port };
}

function tagOf(service: Service): unknown {
  const txt: unknown = service.txt;
  return typeof txt === 'object' && txt !== null ? (txt as Record<string, unknown>).shop : undefined;
}

export function startDiscovery(options: DiscoveryOptions): Discovery {
  const { tag, port, onPeers } = options;
  const onError = options.onError ?? (() => undefined);
  const name = `till-${randomBytes(6).toString('hex')}`;
  const bonjour = new Bonjour(options.mdns ?? {}, onError);
  const own = bonjour.publish({ name, type: SERVICE_TYPE, port, txt: { v: '1', shop: tag } });
  own.on?.('error', onError);

  let last = '';
  const browser: Browser = bonjour.find({ type: SERVICE_TYPE });
  const report = (): void => {
    const peers = new Map<string, PeerAddress>();
    for (const service of browser.services) {
      if (service.name === name || tagOf(service) !== tag) continue;
      const peer = peerOf(service, options.dialable);
      if (peer !== null) peers.set(service.name, peer);
      if (peers.size >= MAX_DISCOVERED) break;
    }
    const list = [...peers.values()];
    const key = JSON.stringify(list);
    if (key === last) return;
    last = key;
    onPeers(list);
  };
  browser.on('up', report);
  browser.on('down', report);
  browser.on('srv-update', report);
  browser.on('txt-update', report);

  const requery = setInterval(() => {
    browser.expire();
    browser.update();
    report();
  }, options.requeryMs ?? DEFAULT_REQUERY_MS);
  requery.unref();

  return {
    stop() {
      clearInterval(requery);
      browser.stop();
      return new Promise((resolve) => {
        bonjour.unpublishAll(() => bonjour.destroy(() => resolve()));
      });
    },
  };
}
