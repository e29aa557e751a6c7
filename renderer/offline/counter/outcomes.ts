/**
 * What the counter answers: which source answered (the service or the cache) and what it
 * found, or an outcome with its reason and the data the reason needs, never words (the view
 * layer words them: lib/counter-words.ts).
 */
import type { BridgeError, Customer, PageMeta, Redemption, Reward, ShopClaimHolder } from '../../../common/contract';
import type { RedemptionItem } from '../db/schema';
import type { QueueRedemptionOutcome, QueueRegistrationOutcome } from '../outbox/outbox';
import type { OfflineCheck } from '../rewards/offline-check';
import type { ListedCustomer } from '../search/listings';

export interface CacheNote {
  /** Oldest fetch time among the customers shown: "from the cache of <time>". */
  of: string | null;
  /** False while the search index is still loading and the answer may miss customers. */
  complete: boolean;
  /** More matched than can be listed: type more. */
  capped: boolean;
}

/** The service's search gives whole customers; the cache's, what the results list shows of each. */
export type CustomerSearch =
  | { ok: true; source: 'service'; customers: Customer[]; meta: PageMeta }
  | { ok: true; source: 'cache'; customers: ListedCustomer[]; meta: PageMeta; cache: CacheNote }
  | { ok: false; error: BridgeError };

export type CustomerLookup =
  | {
      ok: true;
      source: 'service' | 'cache';
      customer: Customer;
      cachedAt: string | null;
      pendingCodes: string[];
      localOnly: boolean;
      /** By reward code: another till of the shop redeemed it offline, as this till's ledger knows now. */
      claimedElsewhere: Record<string, ShopClaimHolder>;
    }
  | { ok: false; error: BridgeError };

/** `claimedBy`: the shop's other tills were asked too, and one of them redeemed it, not yet sent. */
export type RewardCheck =
  | { ok: true; source: 'service'; reward: Reward; pendingHere: boolean; claimedBy: ShopClaimHolder | null }
  | { ok: true; source: 'cache'; check: OfflineCheck; claimedBy: ShopClaimHolder | null }
  | { ok: false; error: BridgeError };

export type RedeemOutcome =
  | { outcome: 'redeemed'; redemption: Redemption }
  /**
   * Stored in the outbox. `answerLost`: sent online with no answer the till could read, so the
   * service may already have made it (then `check` is absent: the service, not the cache, checked).
   * `unreachableTills`: tills of the shop that did not answer the ledger's check, which may
   * have redeemed it meanwhile.
   */
  | {
      outcome: 'queued';
      item: RedemptionItem;
      check?: OfflineCheck;
      answerLost?: true;
      unreachableTills?: string[];
    }
  /** Another till of the shop claimed it offline first: nothing is queued or sent. */
  | { outcome: 'refused'; reason: 'claimed_elsewhere'; claimedBy: ShopClaimHolder }
  /**
   * Nothing queued yet: a till of the shop cannot be reached and may have redeemed it. The
   * cashier decides (ask at that till, or redeem anyway: again with `splitAccepted`).
   */
  | { outcome: 'split'; unreachableTills: string[] }
  /** A till of the shop cannot be reached and Settings refuse offline redemption then. */
  | { outcome: 'refused'; reason: 'shop_split'; unreachableTills: string[] }
  /** A redemption of this code already waits in this till's outbox. */
  | { outcome: 'refused'; reason: 'already_queued' }
  /** Refused by the queue (the settings, the offline check, the input), as the outbox said it. */
  | ({ outcome: 'refused' } & QueueRefused<QueueRedemptionOutcome>)
  | { outcome: 'failed'; error: BridgeError };

/** A refusal of the outbox's queue, without its `ok` (each kind of refusal kept apart, with its data). */
type QueueRefused<T> = T extends { ok: false } ? Omit<T, 'ok'> : never;

export type RegisterOutcome =
  | { outcome: 'registered'; customer: Customer; created: boolean }
  | { outcome: 'queued'; customer: Customer }
  | { outcome: 'known_here'; customer: Customer }
  | ({ outcome: 'refused' } & QueueRefused<QueueRegistrationOutcome>)
  | { outcome: 'failed'; error: BridgeError };

/**
 * The code of the error a lookup answers when the service cannot be reached and the cache
 * does not hold the customer (the error's words are the view layer's).
 */
export const NOT_CACHED_CUSTOMER = 'not_cached_customer';

/** A redemption asked for; `splitAccepted`: the cashier chose to redeem while a till of the shop is out of reach. */
export interface RedeemInput {
  code: string;
  phone: string;
  orderReference?: string | null;
  splitAccepted?: boolean;
}
