import { ref } from 'vue';
import type { BridgeError, Customer, Redemption, Reward } from '../../../common/contract';
import type { OfflineCheck, RedemptionItem } from '../../offline';

/** The reward check / redeem form. */
export interface RewardDraft {
  code: string;
  /** Typed only when no customer is on screen. */
  phone: string;
  orderReference: string;
}

/** What a check was made for: a redeem goes to exactly this code and phone. */
export interface CheckedFor {
  code: string;
  phone: string;
}

/**
 * The rewards store's state, in one place: the check and the redeem both write it (a redeem
 * refused as already queued marks the check pending, say), so each concern takes it whole.
 */
export function useRewardState() {
  return {
    draft: ref<RewardDraft>({ code: '', phone: '', orderReference: '' }),
    fieldErrors: ref<Record<string, string>>({}),
    /** The customer who was on screen when the check started; null means "ask for the phone". */
    forCustomer: ref<Customer | null>(null),

    checking: ref(false),
    checkError: ref<BridgeError | null>(null),
    reward: ref<Reward | null>(null),
    checkedFor: ref<CheckedFor | null>(null),
    /** Set when the cache answered the check because the service could not be reached. */
    offlineCheck: ref<OfflineCheck | null>(null),
    /** A redemption of this reward is already waiting in this till's outbox. */
    pendingHere: ref(false),
    /** Another till of the shop redeemed the checked reward offline: the screen says so on the reward. */
    claimedElsewhere: ref<{ till: string; at: string } | null>(null),

    redeeming: ref(false),
    redeemError: ref<BridgeError | null>(null),
    redemption: ref<Redemption | null>(null),
    /** The redemption was stored in the outbox, to be sent when the till reconnects. */
    queued: ref<RedemptionItem | null>(null),
    /** When the service's 2xx came, on this till's clock: shown where its answer did not say. */
    redeemedAt: ref<string | null>(null),
    /**
     * The queued item is an online attempt whose answer was lost: the service may already have
     * made it, and the replayer settles it. Not a second redeem the cashier should try.
     */
    answerLost: ref(false),
    /** Tills of the shop (`host:port`) that did not answer before the redemption was queued. */
    unreachableTills: ref<string[]>([]),
    /**
     * Tills of the shop that could not be reached when the cashier pressed redeem, and may have
     * redeemed it: nothing is queued until the cashier answers (ask there, or redeem anyway).
     */
    splitTills: ref<string[]>([]),
    /** Plain words when the till would not redeem or queue it (offline redemption turned off, say). */
    refusedNote: ref<string | null>(null),
    /** Plain words after a refused redeem, e.g. "This reward was already used on 22 Nov 2026, 10:41." */
    unavailableNote: ref<string | null>(null),
    /** An earlier redeem of this check went unanswered: a later "already used" may be ours. */
    earlierAttemptUnanswered: ref(false),

    /** Set when a POS link prepared this reward: its outcome is reported back once (see stores/links.ts). */
    fromLink: ref<{ id: string; code: string } | null>(null),
  };
}

export type RewardState = ReturnType<typeof useRewardState>;

/** Forgets the last check and redeem, as a new check or a new reward starts. */
export function clearOutcome(state: RewardState): void {
  state.checkError.value = null;
  state.reward.value = null;
  state.checkedFor.value = null;
  state.offlineCheck.value = null;
  state.pendingHere.value = false;
  state.redeemError.value = null;
  state.redemption.value = null;
  state.queued.value = null;
  state.redeemedAt.value = null;
  state.answerLost.value = false;
  state.unreachableTills.value = [];
  state.splitTills.value = [];
  state.claimedElsewhere.value = null;
  state.refusedNote.value = null;
  state.unavailableNote.value = null;
  state.earlierAttemptUnanswered.value = false;
}
