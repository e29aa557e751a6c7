/**
 * How far a message's time may be from the receiver's clock, either way (docs/shop-ledger.md,
 * "The window and the clocks"). Tills keep their clocks by the OS's time service, but a till
 * off the internet through an outage drifts, and a shop PC that never syncs can be a minute or
 * two off: a till two minutes off must still exchange claims, with room to spare. Five minutes
 * is also the clock skew Windows domains already tolerate (Kerberos), so a shop whose clocks
 * are good enough to log in is good enough here. The window does not decide what a replay can
 * do: every message names the connection it was sealed for, and within the window its nonce is
 * remembered; the window only bounds how long the nonces must be kept (at most ten minutes of
 * the shop's messages, capped below).
 */
export const MESSAGE_WINDOW_MS = 5 * 60 * 1000;

/** What the cache says about a message's nonce. */
export type NonceVerdict = 'fresh' | 'replayed' | 'full';

const PRUNE_EVERY_MS = 1000;

/**
 * The nonces of the messages taken recently. A nonce needs remembering only as long as its
 * message would pass the time window: after `sentAt + window` a replay is refused by the
 * window itself, so the nonce is forgotten then, and the cache stays bounded by the traffic
 * of ten minutes.
 *
 * Only messages whose MAC checked are remembered, so a stranger cannot fill the cache. Should
 * the shop's own tills still send more than `maxEntries` in a window, new messages are refused
 * ('full') rather than an unexpired nonce forgotten, which would let its message be replayed.
 */
export class ReplayCache {
  /** Nonce → the time (ms) after which its message is refused by the window anyway. */
  readonly #expiries = new Map<string, number>();
  readonly #maxEntries: number;
  #prunedAt = Number.NEGATIVE_INFINITY;

  constructor(options: { maxEntries?: number } = {}) {
    this.#maxEntries = options.maxEntries ?? 10_000;
  }

  get size(): number {
    return this.#expiries.size;
  }

  /** Checks `nonce` and, when fresh, remembers it until its message leaves the window. */
  check(nonce: string, sentAt: number, now: number): NonceVerdict {
    if (now - this.#prunedAt >= PRUNE_EVERY_MS || this.#expiries.size >= this.#maxEntries) this.#prune(now);
    const expiry = this.#expiries.get(nonce);
    if (expiry !== undefined && expiry >= now) return 'replayed';
    if (this.#expiries.size >= this.#maxEntries) return 'full';
    this.#expiries.set(nonce, sentAt + MESSAGE_WINDOW_MS);
    return 'fresh';
  }

  #prune(now: number): void {
    this.#prunedAt = now;
    for (const [nonce, expiry] of this.#expiries) if (expiry < now) this.#expiries.delete(nonce);
  }
}
