/**
 * The bridge operations of POS links: the OS hands the till a link (the inbox), the
 * page takes those that arrived before it listened, and reports the outcome of a reward link, which goes to the POS callback.
 */
import { rewardKey } from '../../common/reward-key';
import type { Logger } from '../log/log';
import { describe, type Wording } from '../messages';
import * as payloads from '../validation/bridge-payloads';
import { operationMaker, validationFailure, type OperationTable } from '../validation/bridge-operation';
import { createPageDoor, type PageDoor } from '../app-page/page-door';
import { createLinkInbox, type LinkInbox, type LinkInboxOptions } from './link-inbox';
import { createPosCallback, type DeliveryResult, type PosCallbackOptions } from './pos-callback';

export interface LinkNeeds {
  /** How links are taken (the rate limit and its clock), besides the log and the words. */
  inbox: Omit<LinkInboxOptions, 'log' | 'wording' | 'page'>;
  /** Where and how outcomes are posted, besides the log. */
  callback: Omit<PosCallbackOptions, 'log'>;
  /** The till's name, which every outcome carries. */
  tillName: () => string;
  log: Logger;
  wording: () => Wording;
}

export interface LinkOperations {
  /** Where every `loyalty-till://` link the OS delivers goes. */
  links: LinkInbox;
  /** The till's page, as the main process pushes to it: listening once it took its links. */
  page: PageDoor;
  operations: OperationTable<'takeLinkMessages' | 'sendLinkOutcome'>;
  /** Deliveries to the POS callback still under way (tests wait on them). */
  deliveries(): Promise<DeliveryResult[]>;
}

export function linkOperations(needs: LinkNeeds): LinkOperations {
  const { log, wording } = needs;
  const op = operationMaker(wording);
  const page = createPageDoor({ log });
  const links = createLinkInbox({ ...needs.inbox, page, log, wording });
  const posCallback = createPosCallback({ ...needs.callback, log });
  const deliveries = new Set<Promise<DeliveryResult>>();
  return {
    links,
    page,
    operations: {
      takeLinkMessages: op(payloads.noPayload, async () => ({ ok: true, data: links.take() })),
      sendLinkOutcome: op(payloads.linkOutcomePayload, async (report) => {
        // Only a reward link this process handed out, once, for the code it named: the page
        // cannot make the till post outcomes of its own invention.
        const link = links.claimRewardLink(report.link_id);
        if (!link || rewardKey(link.code) !== rewardKey(report.reward_code)) {
          log.warn(
            'An outcome was reported for a link that is unknown, already reported, or for another code; nothing was sent.',
          );
          const words = wording();
          return validationFailure({ link_id: describe(words, 'link.outcomeUnknown') }, words);
        }
        const sent = posCallback.send({
          event: 'loyalty-till.redemption',
          link_id: report.link_id,
          outcome: report.outcome,
          reward_code: report.reward_code,
          order_reference: report.order_reference ?? null,
          points_balance: report.points_balance ?? null,
          card_serial_number: report.card_serial_number ?? null,
          message: report.message ?? null,
          till_name: needs.tillName(),
          cashier: report.cashier ?? null,
        });
        deliveries.add(sent.delivery);
        void sent.delivery.finally(() => deliveries.delete(sent.delivery));
        return { ok: true, data: { callback: sent.callback } };
      }),
    },
    deliveries: () => Promise.all([...deliveries]),
  };
}
