import { performance } from 'node:perf_hooks';
import type { ClaimLedger } from './claim-ledger';
import type { Claim } from './claims';
import type { PeerBook } from './peer-book';
import type { PeerAddress, PeerTransport } from './peer-transport';
import type { ShopReportPart } from '../../common/contract';
import { MAX_CLAIMS_PER_MESSAGE, type OpenedMessage, type ShopMessage } from './wire';

/**
 * What one till of the shop says to its peers and how it answers theirs (docs/shop-ledger.md):
 * the catch-up (every claim a peer holds, page by page), a claim or a query on one reward sent
 * to every peer at once, and the answer to each message a peer sends. What it hears is merged
 * into the ledger; the peers that did not answer are named as the peer book names them.
 */
export interface PeerExchanges {
  /** Answers one message from a peer at `remote` (the transport's `onMessage`). */
  answer(message: OpenedMessage, remote: string): ShopMessage | undefined | Promise<ShopMessage | undefined>;
  /** Every claim `peer` holds, merged; false when it did not answer before `deadline` (monotonic ms). */
  catchUp(peer: PeerAddress, deadline: number): Promise<boolean>;
  /** Asks every peer at once for every claim; the names of those that did not answer in time. */
  catchUpAll(waitMs: number): Promise<string[]>;
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
  /** The pauses before a failed catch-up with a till whose link came back is tried again. */
  retryReturnMs?: readonly number[];
}

/** Pages of claims read from one peer in one catch-up (128 claims a page). */
const MAX_PAGES = 64;
/** The claims an answer carries (a report carries none). */
function claimsIn(reply: Extract<OpenedMessage, { kind: 'answer' | 'report' }>): Claim[] {
  return reply.kind === 'answer' ? reply.claims : [];
}

/** An `ask` since the epoch: every claim the peer holds (settled ones are dropped there). */
const EVERY_CLAIM = new Date(0).toISOString();

/**
 * A link that has just come back may still fail an exchange or two: address lookups begun
 * during the cut fail after it (seen on the namespace LAN of test/e2e/shop-lan.test.ts). The
 * catch-up with a till heard from again is tried after these pauses before it is left to the
 * next anti-entropy round, minutes away, so that a conflict names its till within seconds.
 */
const RETRY_RETURN_MS = [500, 2_000, 5_000];

export function createPeerExchanges(options: PeerExchangesOptions): PeerExchanges {
  const { ledger, book, transport, changed, askTimeoutMs } = options;
  const { peers, failed, isDown, namesOf } = book;
  const retries = new Set<ReturnType<typeof setTimeout>>();
  let stopped = false;

  /** A till heard from again: everything it holds, tried again a few times should the link still stumble. */
  function catchUpOnReturn(peer: PeerAddress, pauses: readonly number[] = options.retryReturnMs ?? RETRY_RETURN_MS) {
    void catchUp(peer, performance.now() + askTimeoutMs).then((answered) => {
      const [pause, ...later] = pauses;
      if (answered || stopped || pause === undefined) return;
      const retry = setTimeout(() => {
        retries.delete(retry);
        catchUpOnReturn(peer, later);
      }, pause);
      // A retry never keeps a process alive by itself.
      retry.unref?.();
      retries.add(retry);
    });
  }

  function answer(message: OpenedMessage, remote: string): ShopMessage | undefined | Promise<ShopMessage | undefined> {
    // The sealed hello: the till's name and port. A till that only ever dialled us is named,
    // and asked, by it; one whose link was down is back, and what it holds is fetched.
    if (message.port > 0) {
      const peer = { host: remote, port: message.port };
      if (book.heardFrom(peer, message.from)) catchUpOnReturn(peer);
    }
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
      book.heardFrom(peer, exchange.reply.from);
      const claims = claimsIn(exchange.reply);
      if (ledger.merge(claims) > 0) changed();
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

  /**
   * Sends `message` (a claim or a query on one reward) to every peer in `asked` at once and
   * merges what each holds on `token`; the peers that did not answer within `waitMs`. A peer
   * whose link just came back is asked for everything it holds, too.
   */
  async function exchangeOnReward(
    asked: PeerAddress[],
    message: ShopMessage,
    token: string,
    waitMs: number,
  ): Promise<PeerAddress[]> {
    const exchanges = await Promise.all(asked.map((peer) => transport.send(peer, message, waitMs)));
    const unanswered: PeerAddress[] = [];
    exchanges.forEach((exchange, index) => {
      const peer = asked[index]!;
      if (!exchange.ok) {
        failed(peer, exchange.failure);
        unanswered.push(peer);
        return;
      }
      const back = book.heardFrom(peer, exchange.reply.from);
      if (ledger.merge(claimsIn(exchange.reply).filter((held) => held.token === token)) > 0) changed();
      if (back) catchUpOnReturn(peer);
    });
    return unanswered;
  }

  /** A check: every peer asked at once what it holds on one reward (one round trip each, whatever the ledger's size). */
  async function queryAll(token: string, waitMs: number): Promise<string[]> {
    return namesOf(await exchangeOnReward(peers(), { kind: 'query', token }, token, waitMs));
  }

  /** Tells every peer of `claim`; merges what each holds on the reward; those that failed. */
  async function announce(claim: Claim): Promise<string[]> {
    const all = peers();
    // Those that timed out a moment ago are not waited for twice; the next check tries them again.
    const skipped = all.filter(isDown);
    const asked = all.filter((peer) => !isDown(peer));
    const unanswered = await exchangeOnReward(asked, { kind: 'claim', claim }, claim.token, askTimeoutMs);
    return namesOf([...skipped, ...unanswered]);
  }

  function stop(): void {
    stopped = true;
    for (const retry of retries) clearTimeout(retry);
    retries.clear();
  }

  return { answer, catchUp, catchUpAll, queryAll, announce, stop };
}
