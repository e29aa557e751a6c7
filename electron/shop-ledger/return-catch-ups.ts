import { performance } from 'node:perf_hooks';
import { peerName } from './peer-book';
import type { PeerAddress } from './peer-transport';

/**
 * A till heard from again after its last exchange failed: everything it holds is fetched
 * (docs/shop-ledger.md, "How tills catch up"). A link that has just come back may still fail an
 * exchange or two: address lookups begun during the cut fail after it (seen on the namespace
 * LAN of test/e2e/shop-lan.test.ts). So the catch-up is tried again after these pauses before it
 * is left to the next anti-entropy round, minutes away, so that a conflict names its till within
 * seconds; and one till is caught up with once at a time, however many messages it sends meanwhile.
 */
const RETRY_RETURN_MS = [500, 2_000, 5_000];

export interface ReturnCatchUps {
  /** Catches up with `peer`, unless a catch-up with it on its return runs now. */
  start(peer: PeerAddress): void;
  /** Drops the catch-ups waiting to be tried again (the ledger stops). */
  stop(): void;
}

export function createReturnCatchUps(options: {
  /** Every claim `peer` holds, merged; the till that answered, or null. */
  catchUp: (peer: PeerAddress, deadline: number) => Promise<string | null>;
  askTimeoutMs: number;
  retryReturnMs?: readonly number[] | undefined;
}): ReturnCatchUps {
  const retries = new Set<ReturnType<typeof setTimeout>>();
  /** By `peerName`: tills being caught up with on their return. */
  const returning = new Set<string>();
  let stopped = false;

  function attempt(peer: PeerAddress, key: string, pauses: readonly number[]): void {
    void options.catchUp(peer, performance.now() + options.askTimeoutMs).then((answered) => {
      const [pause, ...later] = pauses;
      if (answered !== null || stopped || pause === undefined) return void returning.delete(key);
      const retry = setTimeout(() => {
        retries.delete(retry);
        attempt(peer, key, later);
      }, pause);
      // A retry never keeps a process alive by itself.
      retry.unref?.();
      retries.add(retry);
    });
  }

  return {
    start(peer) {
      const key = peerName(peer);
      if (stopped || returning.has(key)) return;
      returning.add(key);
      attempt(peer, key, options.retryReturnMs ?? RETRY_RETURN_MS);
    },
    stop() {
      stopped = true;
      for (const retry of retries) clearTimeout(retry);
      retries.clear();
    },
  };
}
