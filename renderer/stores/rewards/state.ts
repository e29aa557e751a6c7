import { computed, ref } from 'vue';
import type { BridgeError, Customer, Redemption, Reward, ShopClaimHolder } from '../../../common/contract';
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
 * What the last check found, one of three: none yet, a failure, or a reward checked. A redeem
 * amends a check (a refusal as already queued marks it pending here, say) but never ends it.
 */
export type CheckOutcome =
  | { kind: 'none' }
  | { kind: 'failed'; error: BridgeError }
  | {
      kind: 'checked';
      for: CheckedFor;
      /** The reward as the service (or the cache) holds it; after a redeem, as it stands then. */
      reward: Reward | null;
      /** Set when the cache answered because the service could not be reached. */
      offlineCheck: OfflineCheck | null;
      /** A redemption of this reward is already waiting in this till's outbox. */
      pendingHere: boolean;
      /** Another till of the shop redeemed it offline: the screen says so on the reward. */
      claimedBy: ShopClaimHolder | null;
      /** An earlier redeem of this check went unanswered: a later "already used" may be ours. */
      earlierAttemptUnanswered: boolean;
    };

/**
 * What the last press of "Order paid — redeem" came to. `failed` and `split` leave the redeem
 * to press again; every other outcome ends this check's redeem.
 */
export type RedeemOutcome =
  | { kind: 'none' }
  /** The service redeemed it; `at`: when its 2xx came, on this till's clock. */
  | { kind: 'redeemed'; redemption: Redemption; at: string }
  /**
   * Stored in the outbox, to be sent when the till reconnects. `answerLost`: an online attempt
   * whose answer was lost, which the replayer settles. `unreachableTills`: tills of the shop
   * (`host:port`) that did not answer before it was queued.
   */
  | { kind: 'queued'; item: RedemptionItem; answerLost: boolean; unreachableTills: string[] }
  /** Tills of the shop out of reach that may have redeemed it: nothing queued until the cashier answers. */
  | { kind: 'split'; tills: string[] }
  /** The till would not redeem or queue it (offline redemption turned off, say), in plain words. */
  | { kind: 'refused'; note: string }
  /** The service refused it, with why in plain words ("already used on 22 Nov 2026, 10:41"). */
  | { kind: 'unavailable'; note: string }
  | { kind: 'failed'; error: BridgeError };

export const NO_CHECK: CheckOutcome = Object.freeze({ kind: 'none' });
export const NO_REDEEM: RedeemOutcome = Object.freeze({ kind: 'none' });

/**
 * The rewards store's state, in one place: the form, the two outcomes, and the views' reading
 * of them. The check and the redeem both write the outcomes, so each concern takes it whole.
 */
export function useRewardState() {
  const checkOutcome = ref<CheckOutcome>(NO_CHECK);
  const redeemOutcome = ref<RedeemOutcome>(NO_REDEEM);
  const checked = computed(() => (checkOutcome.value.kind === 'checked' ? checkOutcome.value : null));
  const redeemed = computed(() => (redeemOutcome.value.kind === 'redeemed' ? redeemOutcome.value : null));
  const queuedOutcome = computed(() => (redeemOutcome.value.kind === 'queued' ? redeemOutcome.value : null));
  const noteOf = (kind: 'refused' | 'unavailable') =>
    computed(() => (redeemOutcome.value.kind === kind ? redeemOutcome.value.note : null));

  return {
    draft: ref<RewardDraft>({ code: '', phone: '', orderReference: '' }),
    fieldErrors: ref<Record<string, string>>({}),
    /** The customer who was on screen when the check started; null means "ask for the phone". */
    forCustomer: ref<Customer | null>(null),
    checking: ref(false),
    redeeming: ref(false),
    checkOutcome,
    redeemOutcome,
    /** Set when a POS link prepared this reward: its outcome is reported back once (see stores/links.ts). */
    fromLink: ref<{ id: string; code: string } | null>(null),

    // The outcomes as the views read them, each a reading of one of the two refs above.
    checkError: computed(() => (checkOutcome.value.kind === 'failed' ? checkOutcome.value.error : null)),
    checkedFor: computed(() => checked.value?.for ?? null),
    reward: computed(() => checked.value?.reward ?? null),
    offlineCheck: computed(() => checked.value?.offlineCheck ?? null),
    pendingHere: computed(() => checked.value?.pendingHere ?? false),
    claimedElsewhere: computed(() => checked.value?.claimedBy ?? null),
    earlierAttemptUnanswered: computed(() => checked.value?.earlierAttemptUnanswered ?? false),
    redemption: computed(() => redeemed.value?.redemption ?? null),
    redeemedAt: computed(() => redeemed.value?.at ?? null),
    queued: computed(() => queuedOutcome.value?.item ?? null),
    answerLost: computed(() => queuedOutcome.value?.answerLost ?? false),
    unreachableTills: computed(() => queuedOutcome.value?.unreachableTills ?? []),
    splitTills: computed(() => (redeemOutcome.value.kind === 'split' ? redeemOutcome.value.tills : [])),
    redeemError: computed(() => (redeemOutcome.value.kind === 'failed' ? redeemOutcome.value.error : null)),
    refusedNote: noteOf('refused'),
    unavailableNote: noteOf('unavailable'),
  };
}

export type RewardState = ReturnType<typeof useRewardState>;

type Checked = Extract<CheckOutcome, { kind: 'checked' }>;

/** Changes what the check found, as a redeem learns more (no-op when nothing was checked). */
export function amendCheck(state: RewardState, change: Partial<Omit<Checked, 'kind' | 'for'>>): void {
  const outcome = state.checkOutcome.value;
  if (outcome.kind === 'checked') state.checkOutcome.value = { ...outcome, ...change };
}

/** Forgets the last check and redeem, as a new check or a new reward starts. */
export function clearOutcome(state: RewardState): void {
  state.checkOutcome.value = NO_CHECK;
  state.redeemOutcome.value = NO_REDEEM;
}
