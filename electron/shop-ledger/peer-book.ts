import { performance } from 'node:perf_hooks';
import type { PeerAddress } from './peer-transport';
import type { SeenTill } from './seen-tills';

/**
 * Whom a till of the shop asks, and how it names them (docs/shop-ledger.md, "Whom it asks"):
 * the addresses named in Settings, those discovery sees now, and every till heard from this
 * shift (by an answer, or the sealed hello of any message it sent); which of them failed last
 * (a till whose link comes back is caught up with), and which timed out a moment ago (not waited
 * for twice in one redemption).
 */

/** A till's "last answered" is written again at most this often: every check must not write a file. */
const SEEN_SAVE_EVERY_MS = 10 * 60 * 1000;
/**
 * A peer that just timed out (a till unplugged: its packets go nowhere) is not waited for
 * again this soon: the claim that follows a check would otherwise wait for it a second time,
 * and a redemption must cost the cashier at most one bounded wait. A refused connection is
 * not remembered: it costs nothing to try again, and the till may just have started.
 */
const DOWN_FOR_MS = 10_000;

/** How a peer is named in results and logs: its address only. */
export function peerName({ host, port }: PeerAddress): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

export interface PeerBook {
  /** Named in Settings, seen by discovery now, or heard from within the shift; each once. */
  peers(): PeerAddress[];
  setDiscovered(peers: PeerAddress[]): void;
  /** `till` answered (or said hello) at `peer`; whether its last exchange had failed (its link is back). */
  heardFrom(peer: PeerAddress, till: string): boolean;
  failed(peer: PeerAddress, failure: 'unreachable' | 'timeout'): void;
  /** Timed out a moment ago: not waited for a second time. */
  isDown(peer: PeerAddress): boolean;
  /** How peers that did not answer are named to the cashier, without repeats: a till's name once heard from. */
  namesOf(peers: PeerAddress[]): string[];
  /** How one peer is named: its till's name once heard from this shift, else its address. */
  nameOf(peer: PeerAddress): string;
  /** When the till at `peer` last answered (the shop's clock, ms); null: never. */
  lastHeardAt(peer: PeerAddress): number | null;
}

export function createPeerBook(options: {
  configured: PeerAddress[];
  now: () => number;
  seenForMs: number;
  seenBefore?: readonly SeenTill[];
  onSeen?: (tills: SeenTill[]) => void;
}): PeerBook {
  const { configured, now, seenForMs } = options;
  let discovered: PeerAddress[] = [];
  /** By `peerName(address)`: who answered there last, and when (the shop's clock). */
  const seen = new Map<string, { till: string; at: number; address: PeerAddress }>();
  for (const before of options.seenBefore ?? []) {
    const address = { host: before.host, port: before.port };
    seen.set(peerName(address), { till: before.till, at: before.at, address });
  }
  /** By `peerName(address)`: when (monotonic ms) a peer last timed out. */
  const down = new Map<string, number>();
  /** By `peerName(address)`: peers whose last exchange failed. */
  const failing = new Set<string>();

  function nameOf(peer: PeerAddress): string {
    const last = seen.get(peerName(peer));
    return last !== undefined && last.at >= now() - seenForMs ? last.till : peerName(peer);
  }

  return {
    peers() {
      const cutoff = now() - seenForMs;
      const recent = [...seen.values()].filter((entry) => entry.at >= cutoff).map((entry) => entry.address);
      const byName = new Map<string, PeerAddress>();
      for (const peer of [...configured, ...discovered, ...recent]) byName.set(peerName(peer), peer);
      return [...byName.values()];
    },

    setDiscovered(peers) {
      discovered = peers;
    },

    heardFrom(peer, till) {
      const key = peerName(peer);
      const before = seen.get(key);
      const back = failing.delete(key);
      seen.set(key, { till, at: now(), address: peer });
      down.delete(key);
      if (before === undefined || before.till !== till || now() - before.at >= SEEN_SAVE_EVERY_MS) {
        options.onSeen?.(
          [...seen.values()].map(({ till: name, at, address }) => ({
            till: name,
            at,
            host: address.host,
            port: address.port,
          })),
        );
      }
      return back;
    },

    failed(peer, failure) {
      if (failure === 'timeout') down.set(peerName(peer), performance.now());
      failing.add(peerName(peer));
    },

    isDown(peer) {
      const at = down.get(peerName(peer));
      return at !== undefined && performance.now() - at < DOWN_FOR_MS;
    },

    namesOf: (peers) => [...new Set(peers.map(nameOf))],
    nameOf,
    lastHeardAt: (peer) => seen.get(peerName(peer))?.at ?? null,
  };
}
