import { performance } from 'node:perf_hooks';
import { ClaimLedger } from './claim-ledger';
import { claimToken, newClaim, winningClaim, type Claim } from './claims';
import { isTillName } from './fields';
import { createPeerTransport, type PeerAddress, type TransportLimits, type TransportRefusal } from './peer-transport';
import { ReplayCache } from './replay-cache';
import type { SeenTill } from './seen-tills';
import type { ShopKeys } from './shop-secret';
import { MAX_CLAIMS_PER_MESSAGE, type OpenedMessage, type ShopMessage } from './wire';

/**
 * One till's part in the shop ledger (docs/shop-ledger.md): its claims, the peers it tells
 * about them, and the questions it asks them before an offline redemption. Peers are the
 * addresses named in Settings, those discovery finds on the LAN now, and those that
 * answered in the last hours (a till unplugged from the LAN drops out of discovery, yet may
 * have redeemed: it must still be named when it cannot be reached).
 *
 * Two clocks: `now` (injectable) stamps claims and messages and is what peers compare;
 * waits on the network run on the process's monotonic clock, which a test's clock standing
 * still must not stop.
 */

export interface ShopLedgerOptions {
  keys: ShopKeys;
  tillName: string;
  /** Peers named in Settings: always asked, named by address until they answer. */
  peers: readonly PeerAddress[];
  /** Where this till listens: port 0 for one the OS chooses; every address in the app. */
  listen: PeerAddress;
  /** The shop's clock, ms since the epoch. */
  now?: () => number;
  /** How long one announcement or catch-up may take per peer. */
  askTimeoutMs?: number;
  /** How long a till that answered stays one to ask (and to warn about) after its last answer. */
  seenForMs?: number;
  limits?: Partial<TransportLimits>;
  /** Which remote addresses may connect: the LAN by default (tests stand in a public one). */
  acceptRemote?: (address: string | undefined) => boolean;
  /** The tills heard from before a restart (`seen-tills.ts`). */
  seenBefore?: readonly SeenTill[];
  /** A till answered for the first time, from a new address or name, or again after a while: keep the list. */
  onSeen?: (tills: SeenTill[]) => void;
}

export interface CheckResult {
  /** The winning claim on the reward, when it is another till's: this till must refuse. */
  claimedBy: Claim | null;
  /**
   * The peers that did not answer in time, which may hold a claim: a till's name when it
   * answered in the last hours, its address (`host:port`) while it never has.
   */
  unreachable: string[];
}

export interface ClaimResult {
  /** The claim that stands on the reward, as every till that heard of both will agree. */
  winner: Claim;
  /** Whether `winner` is this till's claim. */
  won: boolean;
  /** Peers that did not take the claim in time (named as in `CheckResult`). */
  unreachable: string[];
}

export interface ShopLedger {
  /** Listens, then asks every peer for its claims, so a till started late knows them. */
  start(): Promise<PeerAddress>;
  stop(): Promise<void>;
  /**
   * Claims `code` for this till and tells every peer, each answering with the claims it holds
   * on the reward: of two tills claiming at once, at least one hears of the other's claim
   * before it decides, and both then name the same winner.
   */
  claim(code: string): Promise<ClaimResult>;
  /** Asks every peer, at most `waitMs` in all, whether another till holds `code`. */
  check(code: string, options?: { waitMs?: number }): Promise<CheckResult>;
  /** Another till's claim on `code` as this till knows it now (no asking): the earliest. */
  holder(code: string): Claim | null;
  /** The service has answered the redemption of `code`: its claims are done with. */
  settle(code: string): void;
  /** The peers discovery sees on the LAN now (replacing the last list). */
  setDiscovered(peers: readonly PeerAddress[]): void;
  /** How many claims this till holds, and what it has refused. */
  stats(): { claims: number; peers: number; refusals: Partial<Record<TransportRefusal, number>> };
  /**
   * The shop's other tills as they are now: each asked (at most `waitMs` in all), whether it
   * answered, and when it last did (shop clock, ms; null: never). For Settings' live list.
   */
  tills(waitMs?: number): Promise<ShopTillNow[]>;
}

export interface ShopTillNow {
  till: string;
  reachable: boolean;
  lastHeardAt: number | null;
}

const DEFAULT_ASK_TIMEOUT_MS = 1500;
/** A shift: a till that answered within it is still one of the shop's. */
const DEFAULT_SEEN_FOR_MS = 8 * 60 * 60 * 1000;
/** A till's "last answered" is written again at most this often: every check must not write a file. */
const SEEN_SAVE_EVERY_MS = 10 * 60 * 1000;
/**
 * A peer that just timed out (a till unplugged: its packets go nowhere) is not waited for
 * again this soon: the claim that follows a check would otherwise wait for it a second time,
 * and a redemption must cost the cashier at most one bounded wait. A refused connection is
 * not remembered: it costs nothing to try again, and the till may just have started.
 */
const DOWN_FOR_MS = 10_000;
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

/** A till the ledger has heard from: its name and when, on the shop's clock. */
interface Seen {
  till: string;
  at: number;
}

export function createShopLedger(options: ShopLedgerOptions): ShopLedger {
  const { keys, tillName } = options;
  if (!isTillName(tillName)) throw new RangeError('shop ledger: not a till name');
  const configured = options.peers.map((peer) => checkedAddress(peer, 1));
  const listenAt = checkedAddress(options.listen, 0);
  const now = options.now ?? Date.now;
  const askTimeoutMs = checkedWait(options.askTimeoutMs ?? DEFAULT_ASK_TIMEOUT_MS, 'askTimeoutMs');
  const seenForMs = options.seenForMs ?? DEFAULT_SEEN_FOR_MS;
  const ledger = new ClaimLedger();
  let discovered: PeerAddress[] = [];
  /** By `peerName(address)`: who answered there last, and when. */
  const seen = new Map<string, Seen & { address: PeerAddress }>();
  for (const before of options.seenBefore ?? []) {
    const address = { host: before.host, port: before.port };
    seen.set(peerName(address), { till: before.till, at: before.at, address });
  }
  /** By `peerName(address)`: when (monotonic ms) a peer last timed out. */
  const down = new Map<string, number>();
  const isDown = (peer: PeerAddress): boolean => {
    const at = down.get(peerName(peer));
    return at !== undefined && performance.now() - at < DOWN_FOR_MS;
  };

  const transport = createPeerTransport({
    keys,
    tillName,
    now,
    seenNonces: new ReplayCache(),
    limits: options.limits,
    ...(options.acceptRemote ? { acceptRemote: options.acceptRemote } : {}),
    onMessage: answer,
  });

  function answer(message: OpenedMessage): ShopMessage | undefined {
    if (message.kind === 'claim') {
      ledger.add(message.claim);
      // The claimer learns every claim on the reward this till holds, its own included.
      const claims = ledger.claimsFor(message.claim.token).slice(0, MAX_CLAIMS_PER_MESSAGE);
      return { kind: 'answer', inReplyTo: message.nonce, claims };
    }
    if (message.kind !== 'ask') return undefined;
    // Earliest first: a peer reading page after page asks again from the last `at` it got.
    const claims = ledger.since(message.since).slice(0, MAX_CLAIMS_PER_MESSAGE);
    return { kind: 'answer', inReplyTo: message.nonce, claims };
  }

  /** Named in Settings, seen by discovery now, or answered within `seenForMs`; each once. */
  function peers(): PeerAddress[] {
    const cutoff = now() - seenForMs;
    const recent = [...seen.values()].filter((entry) => entry.at >= cutoff).map((entry) => entry.address);
    const byName = new Map<string, PeerAddress>();
    for (const peer of [...configured, ...discovered, ...recent]) byName.set(peerName(peer), peer);
    return [...byName.values()];
  }

  function heardFrom(peer: PeerAddress, till: string): void {
    const key = peerName(peer);
    const before = seen.get(key);
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
  }

  function failed(peer: PeerAddress, failure: 'unreachable' | 'timeout'): void {
    if (failure === 'timeout') down.set(peerName(peer), performance.now());
  }

  /** How a peer that did not answer is named to the cashier. */
  function nameOf(peer: PeerAddress): string {
    const last = seen.get(peerName(peer));
    return last !== undefined && last.at >= now() - seenForMs ? last.till : peerName(peer);
  }

  /** Names of the peers that failed, without repeats (one till may have two addresses). */
  function namesOf(failed: PeerAddress[]): string[] {
    return [...new Set(failed.map(nameOf))];
  }

  /**
   * Every claim `peer` holds, page by page, merged as they come; false when the peer did not
   * answer before `deadline` (monotonic ms).
   */
  async function catchUp(peer: PeerAddress, deadline: number): Promise<boolean> {
    let since = EVERY_CLAIM;
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const left = deadline - performance.now();
      if (left <= 0) {
        failed(peer, 'timeout');
        return false;
      }
      const exchange = await transport.send(peer, { kind: 'ask', since }, left);
      if (!exchange.ok) {
        failed(peer, exchange.failure);
        return false;
      }
      heardFrom(peer, exchange.reply.from);
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
    const asked = peers();
    const deadline = performance.now() + waitMs;
    const answered = await Promise.all(asked.map((peer) => catchUp(peer, deadline)));
    return namesOf(asked.filter((_peer, index) => !answered[index]));
  }

  /** Tells every peer of `claim`; merges what each holds on the reward; those that failed. */
  async function announce(claim: Claim): Promise<string[]> {
    const all = peers();
    // Those that timed out a moment ago are not waited for twice; the next check tries them again.
    const skipped = all.filter(isDown);
    const asked = all.filter((peer) => !isDown(peer));
    const exchanges = await Promise.all(
      asked.map((peer) => transport.send(peer, { kind: 'claim', claim }, askTimeoutMs)),
    );
    const unanswered: PeerAddress[] = [...skipped];
    exchanges.forEach((exchange, index) => {
      const peer = asked[index]!;
      if (!exchange.ok) {
        failed(peer, exchange.failure);
        unanswered.push(peer);
        return;
      }
      heardFrom(peer, exchange.reply.from);
      ledger.merge(exchange.reply.claims.filter((held) => held.token === claim.token));
    });
    return namesOf(unanswered);
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
      const unreachable = ours === undefined ? [] : await announce(ours);
      const winner = winningClaim(ledger.claimsFor(token));
      // Only a settled reward (the service answered) or a full ledger leaves no claim kept.
      const stands = winner ?? made;
      return { winner: stands, won: stands.till === tillName, unreachable };
    },

    async check(code, { waitMs = askTimeoutMs } = {}) {
      const token = claimToken(keys, code);
      const unreachable = await catchUpAll(checkedWait(waitMs, 'waitMs'));
      const winner = winningClaim(ledger.claimsFor(token));
      return { claimedBy: winner !== undefined && winner.till !== tillName ? winner : null, unreachable };
    },

    holder(code) {
      const others = ledger.claimsFor(claimToken(keys, code)).filter((claim) => claim.till !== tillName);
      return winningClaim(others) ?? null;
    },

    settle(code) {
      ledger.settle(claimToken(keys, code), now());
    },

    setDiscovered(found) {
      discovered = found.map((peer) => checkedAddress(peer, 1));
    },

    stats: () => ({ claims: ledger.size, peers: peers().length, refusals: transport.refusals() }),

    async tills(waitMs = askTimeoutMs) {
      const unreachable = new Set(await catchUpAll(checkedWait(waitMs, 'waitMs')));
      const byName = new Map<string, ShopTillNow>();
      for (const peer of peers()) {
        const till = nameOf(peer);
        const heard = seen.get(peerName(peer))?.at ?? null;
        const known = byName.get(till);
        // One till at two addresses: reachable at either, last heard at the later.
        byName.set(till, {
          till,
          reachable: (known?.reachable ?? false) || !unreachable.has(till),
          lastHeardAt: Math.max(known?.lastHeardAt ?? 0, heard ?? 0) || null,
        });
      }
      return [...byName.values()].sort((a, b) => a.till.localeCompare(b.till));
    },
  };
}
