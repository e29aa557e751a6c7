import { ClaimLedger, type LedgerSnapshot } from './claim-ledger';
import { claimToken, newClaim, winningClaim, type Claim } from './claims';
import { isTillName } from './fields';
import { createPeerBook, peerName } from './peer-book';
import { createPeerExchanges } from './peer-exchanges';
import { createPeerTransport, type PeerAddress, type TransportLimits, type TransportRefusal } from './peer-transport';
import { ReplayCache } from './replay-cache';
import { SHIFT_MS, type SeenTill } from './seen-tills';
import type { ShopKeys } from './shop-secret';
import type { ShopReportPart } from '../../common/contract';
import type { Logger } from '../log/log';

/**
 * One till's part in the shop ledger (docs/shop-ledger.md): its claims, the peers it tells
 * about them, and the questions it asks them before an offline redemption. Peers are the
 * addresses named in Settings, those discovery finds on the LAN now, and those where a till
 * answered this till's own question in the last hours (a till unplugged from the LAN drops
 * out of discovery, yet may have redeemed: it must still be named when it cannot be reached).
 * Only such proven tills are ever named: an address nobody has answered at may be nobody's.
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
  /** The claims kept on disk before a restart (`claim-store.ts`). */
  keptClaims?: LedgerSnapshot;
  /** The claims held changed: keep `snapshot()` on disk. */
  onClaimsChanged?: () => void;
  /** How often every peer is asked for what it holds (anti-entropy); 3 minutes by default. */
  syncEveryMs?: number;
  /** This till's report for a period, for another till's `report-ask` (built by the page); null: none. */
  report?: (since: string, until: string) => Promise<ShopReportPart | null>;
  /** Where the ledger says what a manager may want to know (a message bearing this till's own name). */
  log?: Pick<Logger, 'warn'>;
}

/** The other tills' reports: each by its name, and the tills that did not answer. */
export interface GatheredReports {
  tills: Array<{ till: string; report: ShopReportPart }>;
  silent: string[];
}

export interface CheckResult {
  /** The winning claim on the reward, when it is another till's: this till must refuse. */
  claimedBy: Claim | null;
  /**
   * The tills that did not answer in time, which may hold a claim: each proven at an address
   * within the last hours (it answered this till there) and answering at none now. An address
   * nobody has answered at is asked, and never named.
   */
  unreachable: string[];
}

export interface ClaimResult {
  /** The claim that stands on the reward, as every till that heard of both will agree. */
  winner: Claim;
  /** Whether `winner` is this till's claim. */
  won: boolean;
  /** Tills that did not take the claim in time (named as in `CheckResult`). */
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
  /** What is kept on disk. */
  snapshot(): LedgerSnapshot;
  /** Asks every peer for its report from `since` to `until`, all within `waitMs` (the shop's report). */
  gatherReports(since: string, until: string, waitMs: number): Promise<GatheredReports>;
  /**
   * One round of anti-entropy: every peer is asked for everything it holds (as on the timer,
   * and with one peer whenever its link comes back). The peers that did not answer.
   */
  sync(): Promise<string[]>;
  /**
   * The shop's other tills as they are now: each proven till, asked (at most `waitMs` in all),
   * whether it answered, and when it last did (shop clock, ms). For Settings' live list: an
   * address nobody has answered at is no till.
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
const DEFAULT_SEEN_FOR_MS = SHIFT_MS;
/** A check holds the cashier's screen: never longer than this, whatever is asked. */
const MAX_WAIT_MS = 10_000;
/** Anti-entropy: often enough that a healed split is known well within a customer's visit. */
const DEFAULT_SYNC_EVERY_MS = 3 * 60 * 1000;

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

export { peerName };

/** Said once per ledger: a message of the shop bearing this till's own name (two tills named alike, or a till dialling itself). */
function ownNameNotice(log: Pick<Logger, 'warn'> | undefined): (address: PeerAddress) => void {
  let said = false;
  return (address) => {
    if (said) return;
    said = true;
    log?.warn(
      `A message of the shop bearing this till's own name came from ${peerName(address)}; it is ignored. ` +
        'Two tills may share a name in Settings.',
    );
  };
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
  if (options.keptClaims) ledger.restore(options.keptClaims);
  const changed = (): void => options.onClaimsChanged?.();
  const syncEveryMs = options.syncEveryMs ?? DEFAULT_SYNC_EVERY_MS;
  let syncTimer: ReturnType<typeof setInterval> | undefined;
  const onOwnName = ownNameNotice(options.log);
  const book = createPeerBook({
    self: tillName,
    configured,
    now,
    seenForMs,
    onOwnName,
    ...(options.seenBefore ? { seenBefore: options.seenBefore } : {}),
    ...(options.onSeen ? { onSeen: options.onSeen } : {}),
  });
  const { peers, silentTills } = book;

  const transport = createPeerTransport({
    keys,
    tillName,
    now,
    seenNonces: new ReplayCache(),
    limits: { knownForMs: seenForMs, ...options.limits },
    ...(options.acceptRemote ? { acceptRemote: options.acceptRemote } : {}),
    // Messages come only once the ledger listens, when `exchanges` stands.
    onMessage: (message, remote) => exchanges.answer(message, remote),
  });
  const exchanges = createPeerExchanges({
    ledger,
    book,
    transport,
    changed,
    askTimeoutMs,
    tillName,
    onOwnName,
    report: options.report,
  });
  const { catchUpAll, queryAll, announce } = exchanges;

  /** Anti-entropy: drops the claims of a finished shift, then fetches what every peer holds. */
  async function sync(): Promise<string[]> {
    if (ledger.prune(now(), seenForMs)) changed();
    return (await catchUpAll(askTimeoutMs)).silent;
  }

  return {
    async start() {
      const address = await transport.listen(listenAt);
      await catchUpAll(askTimeoutMs);
      syncTimer = setInterval(() => void sync(), syncEveryMs);
      // The timer never keeps a process alive by itself.
      syncTimer.unref();
      return address;
    },

    stop() {
      clearInterval(syncTimer);
      exchanges.stop();
      return transport.close();
    },

    async claim(code) {
      const token = claimToken(keys, code);
      const made = newClaim(keys, code, tillName, new Date(now()));
      if (ledger.add(made) === 'added') changed();
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
      const unreachable = await queryAll(token, checkedWait(waitMs, 'waitMs'));
      // Settled here: the service holds the redemption and answers for it; the claims stay to name the till.
      if (ledger.isSettled(token)) return { claimedBy: null, unreachable };
      const winner = winningClaim(ledger.claimsFor(token));
      return { claimedBy: winner !== undefined && winner.till !== tillName ? winner : null, unreachable };
    },

    holder(code) {
      const others = ledger.claimsFor(claimToken(keys, code)).filter((claim) => claim.till !== tillName);
      return winningClaim(others) ?? null;
    },

    settle(code) {
      ledger.settle(claimToken(keys, code), now());
      changed();
    },

    setDiscovered(found) {
      book.setDiscovered(found.map((peer) => checkedAddress(peer, 1)));
    },

    stats: () => ({ claims: ledger.size, peers: peers().length, refusals: transport.refusals() }),
    snapshot: () => ledger.snapshot(),
    async gatherReports(since, until, waitMs) {
      const asked = peers();
      const wait = checkedWait(waitMs, 'waitMs');
      const exchanges = await Promise.all(
        asked.map((peer) => transport.send(peer, { kind: 'report-ask', since, until }, wait)),
      );
      const tills = new Map<string, ShopReportPart>();
      const silent: PeerAddress[] = [];
      exchanges.forEach((exchange, index) => {
        if (!exchange.ok || exchange.reply.kind !== 'report') return void silent.push(asked[index]!);
        book.proven(asked[index]!, exchange.reply.from);
        // This till's own report is the page's; its name answering is a loop, not another till.
        if (exchange.reply.from === tillName) return;
        const { totals, byReward, byCashier, outbox } = exchange.reply;
        // One till reached at two addresses answers once.
        tills.set(exchange.reply.from, { totals, byReward, byCashier, ...(outbox ? { outbox } : {}) });
      });
      return {
        tills: [...tills].map(([till, report]) => ({ till, report })),
        silent: silentTills(silent, tills.keys()),
      };
    },
    sync,

    async tills(waitMs = askTimeoutMs) {
      const answered = new Set((await catchUpAll(checkedWait(waitMs, 'waitMs'))).answered);
      const byName = new Map<string, ShopTillNow>();
      for (const { till, at } of book.provenTills()) {
        // One till at two addresses: once, reachable at either, last heard at the later.
        const lastHeardAt = Math.max(byName.get(till)?.lastHeardAt ?? 0, at);
        byName.set(till, { till, reachable: answered.has(till), lastHeardAt });
      }
      return [...byName.values()].sort((a, b) => a.till.localeCompare(b.till));
    },
  };
}
