import { performance } from 'node:perf_hooks';
import { ClaimLedger } from './claim-ledger';
import { claimToken, newClaim, winningClaim, type Claim } from './claims';
import { isTillName } from './fields';
import { createPeerTransport, type PeerAddress, type TransportLimits, type TransportRefusal } from './peer-transport';
import { ReplayCache } from './replay-cache';
import type { ShopKeys } from './shop-secret';
import { MAX_CLAIMS_PER_MESSAGE, type OpenedMessage, type ShopMessage } from './wire';

/**
 * One till's part in the shop ledger (docs/shop-ledger.md): its claims, the peers it tells
 * about them, and the questions it asks them before an offline redemption. Peers are a
 * static list in this step; discovery will feed the same list.
 *
 * Two clocks: `now` (injectable) stamps claims and messages and is what peers compare;
 * waits on the network run on the process's monotonic clock, which a test's clock standing
 * still must not stop.
 */

export interface ShopLedgerOptions {
  keys: ShopKeys;
  tillName: string;
  peers: readonly PeerAddress[];
  /** Where this till listens: port 0 for one the OS chooses; the LAN address in the app. */
  listen: PeerAddress;
  /** The shop's clock, ms since the epoch. */
  now?: () => number;
  /** How long one announcement or catch-up may take per peer. */
  askTimeoutMs?: number;
  limits?: Partial<TransportLimits>;
}

export interface CheckResult {
  /** The winning claim on the reward, when it is another till's: this till must refuse. */
  claimedBy: Claim | null;
  /** The peers (`host:port`) that did not answer in time: their claims are unknown. */
  unreachable: string[];
}

export interface ShopLedger {
  /** Listens, then asks every peer for its claims, so a till started late knows them. */
  start(): Promise<PeerAddress>;
  stop(): Promise<void>;
  /** Claims `code` for this till, announces it to every peer; the claim that wins. */
  claim(code: string): Promise<Claim>;
  /** Asks every peer, at most `waitMs` in all, whether another till holds `code`. */
  check(code: string, options?: { waitMs?: number }): Promise<CheckResult>;
  /** The service has answered the redemption of `code`: its claims are done with. */
  settle(code: string): void;
  /** How many claims this till holds, and what it has refused. */
  stats(): { claims: number; refusals: Partial<Record<TransportRefusal, number>> };
}

const DEFAULT_ASK_TIMEOUT_MS = 1500;
/** A check holds the cashier's screen: never longer than this, whatever is asked. */
const MAX_WAIT_MS = 10_000;
/** Pages of claims read from one peer in one catch-up (128 claims a page). */
const MAX_PAGES = 64;
/** An `ask` since the epoch: every claim the peer holds (settled ones are dropped there). */
const EVERY_CLAIM = new Date(0).toISOString();

function checkedWait(value: number, name: string): number {
  if (!Number.isFinite(value) || value <= 0 || value > MAX_WAIT_MS) {
    throw new RangeError(`shop ledger: ${name} must be above 0 and at most ${MAX_WAIT_MS} ms`);
  }
  return value;
}

function checkedAddress(address: PeerAddress, lowestPort: number): PeerAddress {
  const { host, port } = address;
  if (typeof host !== 'string' || host.length === 0 || host.length > 255 || /\s/.test(host)) {
    throw new RangeError('shop ledger: a host must be a name or an address');
  }
  if (!Number.isSafeInteger(port) || port < lowestPort || port > 65_535) {
    throw new RangeError('shop ledger: a port must be an integer from 1 to 65535');
  }
  return { host, port };
}

/** How a peer is named in results and logs: its address only. */
export function peerName({ host, port }: PeerAddress): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

export function createShopLedger(options: ShopLedgerOptions): ShopLedger {
  const { keys, tillName } = options;
  if (!isTillName(tillName)) throw new RangeError('shop ledger: not a till name');
  const peers = options.peers.map((peer) => checkedAddress(peer, 1));
  const listenAt = checkedAddress(options.listen, 0);
  const now = options.now ?? Date.now;
  const askTimeoutMs = checkedWait(options.askTimeoutMs ?? DEFAULT_ASK_TIMEOUT_MS, 'askTimeoutMs');
  const ledger = new ClaimLedger();

  const transport = createPeerTransport({
    keys,
    tillName,
    now,
    seenNonces: new ReplayCache(),
    limits: options.limits,
    onMessage: answer,
  });

  function answer(message: OpenedMessage): ShopMessage | undefined {
    if (message.kind === 'claim') {
      ledger.add(message.claim);
      return undefined;
    }
    if (message.kind !== 'ask') return undefined;
    // Earliest first: a peer reading page after page asks again from the last `at` it got.
    const claims = ledger.since(message.since).slice(0, MAX_CLAIMS_PER_MESSAGE);
    return { kind: 'answer', inReplyTo: message.nonce, claims };
  }

  /**
   * Every claim `peer` holds, page by page, merged as they come; false when the peer did not
   * answer before `deadline` (monotonic ms).
   */
  async function catchUp(peer: PeerAddress, deadline: number): Promise<boolean> {
    let since = EVERY_CLAIM;
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const left = deadline - performance.now();
      if (left <= 0) return false;
      const exchange = await transport.send(peer, { kind: 'ask', since }, left);
      if (!exchange.ok || exchange.reply === null) return false;
      const { claims } = exchange.reply;
      ledger.merge(claims);
      const last = claims.at(-1)?.at;
      // A short page is the last; a full page all at one instant cannot be paged past.
      if (claims.length < MAX_CLAIMS_PER_MESSAGE || last === undefined || last === since) return true;
      since = last;
    }
    return true;
  }

  /** Asks every peer at once; the names of those that did not answer in time. */
  async function catchUpAll(waitMs: number): Promise<string[]> {
    const deadline = performance.now() + waitMs;
    const answered = await Promise.all(peers.map((peer) => catchUp(peer, deadline)));
    return peers.filter((_peer, index) => !answered[index]).map(peerName);
  }

  return {
    async start() {
      const address = await transport.listen(listenAt);
      await catchUpAll(askTimeoutMs);
      return address;
    },

    stop: () => transport.close(),

    async claim(code) {
      const token = claimToken(keys, code);
      const made = newClaim(keys, code, tillName, new Date(now()));
      ledger.add(made);
      // Should this till have claimed the reward before (a retry), the earlier claim stands.
      const ours = ledger.claimsFor(token).find((claim) => claim.till === tillName);
      if (ours !== undefined) {
        await Promise.all(peers.map((peer) => transport.send(peer, { kind: 'claim', claim: ours }, askTimeoutMs)));
      }
      const winner = winningClaim(ledger.claimsFor(token));
      // Only a settled reward (the service answered) or a full ledger leaves no claim kept.
      return winner ?? made;
    },

    async check(code, { waitMs = askTimeoutMs } = {}) {
      const token = claimToken(keys, code);
      const unreachable = await catchUpAll(checkedWait(waitMs, 'waitMs'));
      const winner = winningClaim(ledger.claimsFor(token));
      return { claimedBy: winner !== undefined && winner.till !== tillName ? winner : null, unreachable };
    },

    settle(code) {
      ledger.settle(claimToken(keys, code), now());
    },

    stats: () => ({ claims: ledger.size, refusals: transport.refusals() }),
  };
}
