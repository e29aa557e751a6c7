import { performance } from 'node:perf_hooks';
import type { PeerAddress } from './peer-transport';
import type { SeenTill } from './seen-tills';

/**
 * Whom a till of the shop asks, and whom it names when they do not answer (docs/shop-ledger.md,
 * "Whom it asks"): the addresses named in Settings, those discovery sees now, and every address
 * where a till of the shop has answered this till's own question this shift; which of them
 * failed last (a till whose link comes back is caught up with), and which timed out a moment
 * ago (not waited for twice in one redemption).
 *
 * An address is **proven** for a till only by an answer to a message this till sealed for that
 * address (`proven`): fresh, sealed by the shop, naming this till's own nonce. Nothing a till
 * merely hears (a hello, an address in Settings or in a discovery record) places a till at an
 * address, so nothing recorded or forged on the LAN can: only proven tills are named to the
 * cashier and listed in Settings, and a till never books its own name.
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

/** A till proven at an address: where, and when it last answered there (the shop's clock). */
export interface ProvenTill {
  till: string;
  address: PeerAddress;
  at: number;
}

export interface PeerBook {
  /** Named in Settings, seen by discovery now, or proven within the shift; each once. */
  peers(): PeerAddress[];
  setDiscovered(peers: PeerAddress[]): void;
  /**
   * `till` answered, at `peer`, a message this till sealed for `peer`: the address is proven
   * for it. Whether its last exchange had failed (its link is back). This till's own name is
   * never booked.
   */
  proven(peer: PeerAddress, till: string): boolean;
  /** Whether `till` is proven at `peer` within the shift. */
  isProven(peer: PeerAddress, till: string): boolean;
  /** Whether the last exchange with `peer` failed. */
  isFailing(peer: PeerAddress): boolean;
  failed(peer: PeerAddress, failure: 'unreachable' | 'timeout'): void;
  /** Timed out a moment ago: not waited for a second time. */
  isDown(peer: PeerAddress): boolean;
  /**
   * The tills to name as not answering: proven within the shift at one of `unanswered`, and
   * not among `answeredBy` (a till reached at another of its addresses answered). An address
   * never proven is asked, and never named: it may be nobody's.
   */
  silentTills(unanswered: readonly PeerAddress[], answeredBy: Iterable<string>): string[];
  /** The tills proven within the shift, one entry per address. */
  provenTills(): ProvenTill[];
}

export interface PeerBookOptions {
  /** This till's own name: never booked as another till's. */
  self: string;
  configured: PeerAddress[];
  now: () => number;
  seenForMs: number;
  seenBefore?: readonly SeenTill[];
  onSeen?: (tills: SeenTill[]) => void;
  /** A till of the shop answered with this till's own name from `address` (two tills named alike, or a loop). */
  onOwnName?: (address: PeerAddress) => void;
}

export function createPeerBook(options: PeerBookOptions): PeerBook {
  const { self, configured, now, seenForMs } = options;
  let discovered: PeerAddress[] = [];
  /** By `peerName(address)`: who answered there last, and when (the shop's clock). */
  const seen = new Map<string, ProvenTill>();
  for (const before of options.seenBefore ?? []) {
    if (before.till === self) continue;
    const address = { host: before.host, port: before.port };
    seen.set(peerName(address), { till: before.till, at: before.at, address });
  }
  /** By `peerName(address)`: when (monotonic ms) a peer last timed out. */
  const down = new Map<string, number>();
  /** By `peerName(address)`: peers whose last exchange failed. */
  const failing = new Set<string>();

  /** The entry at `peer` while it is within the shift. */
  function recent(peer: PeerAddress): ProvenTill | undefined {
    const entry = seen.get(peerName(peer));
    return entry !== undefined && entry.at >= now() - seenForMs ? entry : undefined;
  }

  function keep(): void {
    options.onSeen?.([...seen.values()].map(({ till, at, address }) => ({ till, at, ...address })));
  }

  return {
    peers() {
      const cutoff = now() - seenForMs;
      const recentAddresses = [...seen.values()].filter((entry) => entry.at >= cutoff).map((entry) => entry.address);
      const byName = new Map<string, PeerAddress>();
      for (const peer of [...configured, ...discovered, ...recentAddresses]) byName.set(peerName(peer), peer);
      return [...byName.values()];
    },

    setDiscovered(peers) {
      discovered = peers;
    },

    proven(peer, till) {
      const key = peerName(peer);
      const back = failing.delete(key);
      down.delete(key);
      if (till === self) {
        options.onOwnName?.(peer);
        return false;
      }
      const before = seen.get(key);
      seen.set(key, { till, at: now(), address: peer });
      if (before === undefined || before.till !== till || now() - before.at >= SEEN_SAVE_EVERY_MS) keep();
      return back;
    },

    isProven: (peer, till) => recent(peer)?.till === till,
    isFailing: (peer) => failing.has(peerName(peer)),

    failed(peer, failure) {
      if (failure === 'timeout') down.set(peerName(peer), performance.now());
      failing.add(peerName(peer));
    },

    isDown(peer) {
      const at = down.get(peerName(peer));
      return at !== undefined && performance.now() - at < DOWN_FOR_MS;
    },

    silentTills(unanswered, answeredBy) {
      const answered = new Set(answeredBy);
      const names = new Set<string>();
      for (const peer of unanswered) {
        const till = recent(peer)?.till;
        if (till !== undefined && !answered.has(till)) names.add(till);
      }
      return [...names];
    },

    provenTills() {
      const cutoff = now() - seenForMs;
      return [...seen.values()].filter((entry) => entry.at >= cutoff).map((entry) => ({ ...entry }));
    },
  };
}
