import { performance } from 'node:perf_hooks';
import { peerName } from './peer-book';
import type { PeerAddress } from './peer-transport';

/**
 * When a hello asks for an address to be proven (docs/shop-ledger.md, "Whom it asks"). A hello
 * names a till; it does not move it: the till that hears one from an address where that till
 * is not proven dials the address with a question of its own, and only the answer places the
 * till there (`PeerBook.proven`). Only a fresh message sealed for this till's own connection
 * says hello at all, so only the shop's tills cause a proof; still, one address is proven at
 * most once at a time, and an address whose proof failed (a till whose port cannot be dialled
 * back) is not dialled again for `retryAfterMs`, so a hello costs at most one dial per while.
 */

export interface AddressProofs {
  /** Dials `peer` to prove it, unless a proof of it runs now or failed a moment ago. */
  request(peer: PeerAddress): void;
}

/** Addresses whose failed proof is remembered; a shop has a handful of tills. */
const MAX_REMEMBERED = 64;

export function createAddressProofs(options: {
  /** Asks `peer` a question of this till's own; whether a till of the shop answered it. */
  prove: (peer: PeerAddress) => Promise<boolean>;
  retryAfterMs: number;
}): AddressProofs {
  const running = new Set<string>();
  /** By `peerName`: when (monotonic ms) its last proof failed; oldest first. */
  const failedAt = new Map<string, number>();

  return {
    request(peer) {
      const key = peerName(peer);
      const failed = failedAt.get(key);
      if (running.has(key) || (failed !== undefined && performance.now() - failed < options.retryAfterMs)) return;
      running.add(key);
      void options
        .prove(peer)
        .catch(() => false)
        .then((answered) => {
          running.delete(key);
          failedAt.delete(key);
          if (answered) return;
          failedAt.set(key, performance.now());
          while (failedAt.size > MAX_REMEMBERED) failedAt.delete(failedAt.keys().next().value!);
        });
    },
  };
}
