/**
 * The counter's refusals and errors in words for the cashier. The offline core's counter
 * (offline/counter-operations.ts) answers with reasons and the data they need (which till
 * claimed the reward and when, which tills are out of reach), never words: this words them in
 * the interface language of the moment, so call it from a store's action or a computed.
 */
import type { BridgeError } from '../../common/contract';
import { t } from '../i18n';
import { isolate, isolatedList } from '../i18n/isolate';
import { formatDayTime } from './dates';
import type { ClaimHolder, RedeemRefusal } from '../vocabulary/rewards';
import { offlineVerdictWords } from './rewards-words';

/** "Already redeemed at Till 2 at 26 Nov 2026, 09:15 (waiting to be sent)…" */
export function claimedElsewhereWords({ till, at }: ClaimHolder): string {
  return t('rewards.refusal.claimedElsewhere', { till: isolate(till), time: formatDayTime(at) });
}

export function redeemRefusalWords(refusal: RedeemRefusal): string {
  switch (refusal.reason) {
    case 'claimed_elsewhere':
      return claimedElsewhereWords(refusal.claimedBy);
    case 'shop_split':
      return t('rewards.refusal.shopSplit', { tills: isolatedList(refusal.unreachableTills) });
    case 'already_queued':
      return t('rewards.refusal.alreadyQueued');
    case 'offline_redemption_disabled':
      return t('rewards.refusal.offlineRedemptionOff');
    case 'not_available':
      // The offline check said why: its verdict (a refusal without one could not be verified).
      return offlineVerdictWords(refusal.check?.verdict ?? 'unverifiable');
    case 'invalid_input':
      // The fields say which; the order reference is the one the queue measures.
      return t('outboxQueue.orderTooLong');
    case 'not_kept':
      return t('rewards.refusal.notKept');
  }
}

/** The counter's code for a customer neither the service nor the cache could give. */
export const NOT_CACHED_CUSTOMER = 'not_cached_customer';

/**
 * A failed lookup's error with the counter's words in its message: the counter gives an
 * error of its own making a code (`not_cached_customer`) and no words; others pass as they came.
 */
export function wordedLookupError(error: BridgeError): BridgeError {
  return error.code === NOT_CACHED_CUSTOMER ? { ...error, message: t('connection.notCachedCustomer') } : error;
}
