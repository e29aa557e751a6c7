import { randomUUID } from 'node:crypto';
import { PAGE_PUSH_CHANNELS, type LinkMessage, type LinkRequest } from '../../common/contract';
import type { PageDoor } from '../app-page/page-door';
import { DEFAULT_LINK_RATE, createLinkRateLimit, type LinkRateLimit } from './link-rate-limit';
import type { Logger } from '../log/log';
import { parseTillLink } from './till-link';
import { ENGLISH, describe, type Wording } from '../messages';

/** How a link reached the app, for the log. */
export type LinkSource = 'command-line' | 'second-instance' | 'open-url';

export type LinkReceipt = { accepted: true; id: string } | { accepted: false; reason: string };

export interface LinkInbox {
  /** A link from the operating system: parsed, rate-limited, logged, handed to the page. */
  receive(raw: unknown, via: LinkSource): LinkReceipt;
  /** The page asks for what arrived before it listened; from now on it is pushed to. */
  take(): LinkMessage[];
  /** The reward link with this id, once: a second claim (a second outcome report) gets nothing. */
  claimRewardLink(id: string): Extract<LinkRequest, { route: 'reward' }> | null;
}

export interface LinkInboxOptions {
  log: Logger;
  /** The till's page, which links are pushed to while it listens (and kept for until it does). */
  page: PageDoor;
  rateLimit?: LinkRateLimit;
  /** The clock the default rate limit refills by (ms since the epoch); `Date.now` by default. Unused with `rateLimit`. */
  rateLimitNow?: () => number;
  now?: () => Date;
  /** The interface's language at this moment: a refusal is shown to the cashier in it. */
  wording?: () => Wording;
}

// Reward links remembered for their outcome report; older ones are forgotten first.
const REMEMBERED_REWARD_LINKS = 50;

/**
 * The main process's side of links: every link the OS delivers comes through `receive`,
 * whichever way it came (command line, second instance, macOS open-url). It only ever
 * passes a validated request on to the page; the page decides when to show it and the
 * cashier decides what to do with it.
 */
export function createLinkInbox(options: LinkInboxOptions): LinkInbox {
  const { log } = options;
  const limit =
    options.rateLimit ??
    createLinkRateLimit({ ...DEFAULT_LINK_RATE, ...(options.rateLimitNow ? { now: options.rateLimitNow } : {}) });
  const now = options.now ?? (() => new Date());
  const wording = options.wording ?? (() => ENGLISH);

  // Until the page listens, only the latest request and the latest refusal are kept: an
  // older request would be replaced on screen by the newer one anyway.
  let waitingRequest: LinkMessage | null = null;
  let waitingRefusal: LinkMessage | null = null;
  const rewardLinks = new Map<string, Extract<LinkRequest, { route: 'reward' }>>();
  // Refusals for flooding are logged once per flood, with a count, not once per link.
  let flooded = 0;

  function deliver(message: LinkMessage): void {
    if (options.page.push(PAGE_PUSH_CHANNELS.link, message)) return;
    if (message.kind === 'request') waitingRequest = message;
    else waitingRefusal = message;
  }

  /** The receipt's reason is English, for the caller's log; the page's is in the interface language. */
  function refuse(reason: string, shown: string): LinkReceipt {
    deliver({ kind: 'refused', reason: shown, receivedAt: now().toISOString() });
    return { accepted: false, reason };
  }

  return {
    receive(raw, via) {
      if (!limit.take()) {
        flooded += 1;
        const reason = describe(ENGLISH, 'link.tooMany');
        if (flooded === 1) {
          log.warn(`Refused a link (${via}): too many links in a short time. Further ones are counted, not logged.`);
          return refuse(reason, describe(wording(), 'link.tooMany'));
        }
        return { accepted: false, reason };
      }
      if (flooded > 1) log.warn(`${flooded - 1} more links were refused as too many.`);
      flooded = 0;

      const parsed = parseTillLink(raw);
      if (!parsed.ok) {
        log.warn(`Refused a link${parsed.route ? ` to ${parsed.route}` : ''} (${via}): ${parsed.reason}`);
        const words = wording();
        return refuse(
          describe(ENGLISH, 'link.refused', { reason: parsed.reason }),
          describe(words, 'link.refused', { reason: parsed.reasonIn(words) }),
        );
      }
      const id = randomUUID();
      const { request } = parsed;
      if (request.route === 'reward') {
        rewardLinks.set(id, request);
        if (rewardLinks.size > REMEMBERED_REWARD_LINKS) rewardLinks.delete(rewardLinks.keys().next().value as string);
      }
      log.info(`Link to ${request.route} received (${via}).`);
      deliver({ kind: 'request', id, request, receivedAt: now().toISOString() });
      return { accepted: true, id };
    },
    take() {
      options.page.heard();
      const waiting = [waitingRefusal, waitingRequest].filter((message): message is LinkMessage => message !== null);
      waitingRequest = null;
      waitingRefusal = null;
      return waiting;
    },
    claimRewardLink(id) {
      const link = rewardLinks.get(id) ?? null;
      rewardLinks.delete(id);
      return link;
    },
  };
}
