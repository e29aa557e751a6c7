import { performance } from 'node:perf_hooks';
import { createAddressProofs } from './address-proofs';
import type { ClaimLedger } from './claim-ledger';
import type { Claim } from './claims';
import type { PeerBook } from './peer-book';
import type { PeerAddress, PeerTransport } from './peer-transport';
import type { ShopReportPart } from '../../common/contract';
import { createReturnCatchUps } from './return-catch-ups';
import { MAX_CLAIMS_PER_MESSAGE, type OpenedMessage, type ShopMessage } from './wire';

/**
 * What one till of the shop says to its peers and how it answers theirs (docs/shop-ledger.md):
 * the catch-up (every claim a peer holds, page by page), a claim or a query on one reward sent
 * to every peer at once, and the answer to each message a peer sends. What it hears is merged
 * into the ledger. Only an answer to this till's own message places a till at an address
 * (`PeerBook.proven`); a hello asks for that proof; the tills that did not answer are named
 * only when proven (`PeerBook.silentTills`).
 */
export interface PeerExchanges {
  /** Answers one message from a peer at `remote` (the transport's `onMessage`). */
  answer(message: OpenedMessage, remote: string): ShopMessage | undefined | Promise<ShopMessage | undefined>;
  /** Every claim `peer` holds, merged; the till that answered, or null when none did before `deadline` (monotonic ms). */
  catchUp(peer: PeerAddress, deadline: number): Promise<string | null>;
  /** Asks every peer at once for every claim: the tills that answered, and the proven ones that did not in time. */
  catchUpAll(waitMs: number): Promise<{ answered: string[]; silent: string[] }>;
  /** Asks every peer at once what it holds on one reward; the names of those that did not answer. */
  queryAll(token: string, waitMs: number): Promise<string[]>;
  /** Tells every peer of `claim`; merges what each holds on the reward; the names of those that failed. */
  announce(claim: Claim): Promise<string[]>;
  /** Drops the catch-ups waiting to be tried again (the ledger stops). */
  stop(): void;
}

export interface PeerExchangesOptions {
  ledger: ClaimLedger;
  book: PeerBook;
  /** Sends one message to one peer and waits for its answer. */
  transport: Pick<PeerTransport, 'send'>;
  /** The claims held changed. */
  changed: () => void;
  /** How long one announcement or catch-up may take per peer. */
  askTimeoutMs: number;
  /** This till's report for a period, for another till's `report-ask`; null: none. */
  report?: ((since: string, until: string) => Promise<ShopReportPart | null>) | undefined;
  /** This till's own name: a hello bearing it is not followed. */
  tillName: string;
  /** The pauses before a failed catch-up with a till whose link came back is tried again. */
  retryReturnMs?: readonly number[];
  /** How long an address whose proof failed is not dialled again for a hello. */
  proofRetryMs?: number;
  /** A message bearing this till's own name came from `address`: not a hello to follow. */
  onOwnName?: (address: PeerAddress) => void;
}

/** Pages of claims read from one peer in one catch-up (128 claims a page). */
const MAX_PAGES = 64;
/** The claims an answer carries (a report carries none). */
function claimsIn(reply: Extract<OpenedMessage, { kind: 'answer' | 'report' }>): Claim[] {
  return reply.kind === 'answer' ? reply.claims : [];
}

/** An `ask` since the epoch: every claim the peer holds (settled ones are dropped there). */
const EVERY_CLAIM = new Date(0).toISOString();

/** A till that keeps saying hello from an address it cannot be dialled at costs one dial per this. */
const PROOF_RETRY_MS = 30_000;

export function createPeerExchanges(options: PeerExchangesOptions): PeerExchanges {
  const { ledger, book, transport, changed, askTimeoutMs } = options;
  const { peers, failed, isDown, silentTills } = book;
  let stopped = false;
  // A hello from where its till is not proven: the catch-up is the question whose answer proves it.
  const proofs = createAddressProofs({
    prove: async (peer) => (await catchUp(peer, performance.now() + askTimeoutMs)) !== null,
    retryAfterMs: options.proofRetryMs ?? PROOF_RETRY_MS,
  });
  const returns = createReturnCatchUps({ catchUp, askTimeoutMs, retryReturnMs: options.retryReturnMs });

  /**
   * The sealed hello: the till's name and port. Where that till is not proven, the address is
   * dialled and only its answer places the till there (a till that only ever dialled us is so
   * named, and asked); where it is, and its link was down, it is back and what it holds is
   * fetched. A hello bearing this till's own name is no till of the shop's.
   */
  function hello(message: OpenedMessage, remote: string): void {
    if (message.port === 0 || stopped) return;
    const peer = { host: remote, port: message.port };
    if (message.from === options.tillName) return options.onOwnName?.(peer);
    if (!book.isProven(peer, message.from)) proofs.request(peer);
    else if (book.isFailing(peer)) returns.start(peer);
  }

  function answer(message: OpenedMessage, remote: string): ShopMessage | undefined | Promise<ShopMessage | undefined> {
    hello(message, remote);
    if (message.kind === 'claim') {
      if (ledger.add(message.claim) === 'added') changed();
      // The claimer learns every claim on the reward this till holds, its own included.
      const claims = ledger.claimsFor(message.claim.token).slice(0, MAX_CLAIMS_PER_MESSAGE);
      return { kind: 'answer', inReplyTo: message.nonce, claims };
    }
    if (message.kind === 'query') {
      const claims = ledger.claimsFor(message.token).slice(0, MAX_CLAIMS_PER_MESSAGE);
      return { kind: 'answer', inReplyTo: message.nonce, claims };
    }
    if (message.kind === 'report-ask') return reportFor(message.nonce, message.since, message.until);
    if (message.kind !== 'ask') return undefined;
    // Earliest first: a peer reading page after page asks again from the last `at` it got.
    const claims = ledger.since(message.since).slice(0, MAX_CLAIMS_PER_MESSAGE);
    return { kind: 'answer', inReplyTo: message.nonce, claims };
  }

  /** This till's report for a `report-ask`; none (the asker names this till silent) when the page gives none. */
  async function reportFor(inReplyTo: string, since: string, until: string): Promise<ShopMessage | undefined> {
    const report = await options.report?.(since, until).catch(() => null);
    return report ? { kind: 'report', inReplyTo, ...report } : undefined;
  }

  /**
   * Every claim `peer` holds, page by page, merged as they come; the till that answered, or
   * null when none did before `deadline` (monotonic ms).
   */
  async function catchUp(peer: PeerAddress, deadline: number): Promise<string | null> {
    let since = EVERY_CLAIM;
    let till: string | null = null;
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const left = deadline - performance.now();
      if (left <= 0) {
        failed(peer, 'timeout');
        return null;
      }
      const exchange = await transport.send(peer, { kind: 'ask', since }, left);
      if (!exchange.ok) {
        failed(peer, exchange.failure);
        return null;
      }
      till = exchange.reply.from;
      book.proven(peer, till);
      const claims = claimsIn(exchange.reply);
      if (ledger.merge(claims) > 0) changed();
      const last = claims.at(-1)?.at;
      // A short page is the last; a full page all at one instant cannot be paged past.
      if (claims.length < MAX_CLAIMS_PER_MESSAGE || last === undefined || last === since) return till;
      since = last;
    }
    return till;
  }

  /** Asks every peer at once: the tills that answered, and the proven ones that did not in time. */
  async function catchUpAll(waitMs: number): Promise<{ answered: string[]; silent: string[] }> {
    const asked = peers();
    const deadline = performance.now() + waitMs;
    const tills = await Promise.all(asked.map((peer) => catchUp(peer, deadline)));
    const answered = tills.filter((till): till is string => till !== null);
    return {
      answered,
      silent: silentTills(
        asked.filter((_peer, index) => tills[index] === null),
        answered,
      ),
    };
  }

  /**
   * Sends `message` (a claim or a query on one reward) to every peer in `asked` at once and
   * merges what each holds on `token`; the proven tills that did not answer within `waitMs`
   * (those in `skipped` neither, which were not asked). A peer whose link just came back is
   * asked for everything it holds, too.
   */
  async function exchangeOnReward(
    asked: PeerAddress[],
    message: ShopMessage,
    token: string,
    waitMs: number,
    skipped: PeerAddress[] = [],
  ): Promise<string[]> {
    const exchanges = await Promise.all(asked.map((peer) => transport.send(peer, message, waitMs)));
    const unanswered: PeerAddress[] = [...skipped];
    const answered: string[] = [];
    exchanges.forEach((exchange, index) => {
      const peer = asked[index]!;
      if (!exchange.ok) {
        failed(peer, exchange.failure);
        unanswered.push(peer);
        return;
      }
      answered.push(exchange.reply.from);
      const back = book.proven(peer, exchange.reply.from);
      if (ledger.merge(claimsIn(exchange.reply).filter((held) => held.token === token)) > 0) changed();
      if (back) returns.start(peer);
    });
    return silentTills(unanswered, answered);
  }

  /** A check: every peer asked at once what it holds on one reward (one round trip each, whatever the ledger's size). */
  async function queryAll(token: string, waitMs: number): Promise<string[]> {
    return exchangeOnReward(peers(), { kind: 'query', token }, token, waitMs);
  }

  /** Tells every peer of `claim`; merges what each holds on the reward; the proven tills that failed. */
  async function announce(claim: Claim): Promise<string[]> {
    const all = peers();
    // Those that timed out a moment ago are not waited for twice; the next check tries them again.
    const skipped = all.filter(isDown);
    const asked = all.filter((peer) => !isDown(peer));
    return exchangeOnReward(asked, { kind: 'claim', claim }, claim.token, askTimeoutMs, skipped);
  }

  function stop(): void {
    stopped = true;
    returns.stop();
  }

  return { answer, catchUp, catchUpAll, queryAll, announce, stop };
}
