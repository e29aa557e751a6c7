import { computed, type ComputedRef } from 'vue';
import { useConnectionStore } from '../connection';
import { useCustomersStore } from '../customers';
import { useOfflineStore } from '../offline';
import { useSettingsStore } from '../settings';
import { useLinkReport } from './link-report';
import type { CheckedFor, RewardState } from './state';
import { redeemRefusalWords } from '../../lib/counter-words';
import { queueFieldWords } from '../../lib/outbox-words';
import { unavailableWords } from './words';

/** Failures after which nobody can know whether the service redeemed: retrying is safe only because the service refuses a second redeem. */
const ANSWER_LOST = new Set(['offline', 'timeout', 'server', 'bad_response']);

/** What the redeem needs of the check: that it still stands, and what it said. */
interface CheckSays {
  checkIsCurrent: ComputedRef<boolean>;
  checkSaysAvailable: ComputedRef<boolean>;
}

/**
 * The rewards store's redeem: whether one may be made now, the redeem itself (made, queued,
 * held while the shop is split, or refused), and its outcome told to the customer on screen
 * and to the POS link that prepared it.
 */
export function useRedeem(state: RewardState, { checkIsCurrent, checkSaysAvailable }: CheckSays) {
  const settings = useSettingsStore();
  const customers = useCustomersStore();
  const connection = useConnectionStore();
  const offline = useOfflineStore();
  const reportToLink = useLinkReport(state);
  const { redeeming, redeemError, splitTills, offlineCheck, fieldErrors } = state;

  /** Offline, with offline redemption turned off in the settings: say so instead of offering it. */
  const offlineRedemptionForbidden = computed(
    () => offlineCheck.value?.verdict === 'available' && !settings.allowOfflineRedemption,
  );

  const canRedeem = computed(
    () =>
      checkSaysAvailable.value &&
      !state.pendingHere.value &&
      !offlineRedemptionForbidden.value &&
      checkIsCurrent.value &&
      state.redemption.value === null &&
      state.queued.value === null &&
      state.refusedNote.value === null &&
      state.unavailableNote.value === null &&
      state.claimedElsewhere.value === null &&
      !redeeming.value,
  );

  /**
   * Redeems the checked reward. Called by the cashier's "Order paid — redeem", which is itself
   * the confirmation that the order has been settled (the service's rule: redeem only after
   * settlement). Sends at most one request per confirmation: a second call
   * while one is in flight, or after the reward was redeemed or refused, sends nothing —
   * whatever the buttons do. Returns true when the service redeemed it.
   */
  async function redeem(options: { anyway?: boolean } = {}): Promise<boolean> {
    const target = state.checkedFor.value;
    if (!canRedeem.value || !target) return false;
    // Guard set before the first await: a repeated Enter or double click lands here and stops.
    redeeming.value = true;
    redeemError.value = null;
    const splitAccepted = options.anyway === true && splitTills.value.length > 0;
    splitTills.value = [];
    try {
      const outcome = await offline.services().redeemReward({
        code: target.code,
        phone: target.phone,
        orderReference: state.draft.value.orderReference,
        ...(splitAccepted ? { splitAccepted } : {}),
      });
      switch (outcome.outcome) {
        case 'split':
          // Nothing queued: the cashier is asked first.
          splitTills.value = outcome.unreachableTills;
          return false;
        case 'redeemed': {
          connection.noteSuccess();
          const { card } = outcome.redemption;
          state.redemption.value = outcome.redemption;
          state.redeemedAt.value = new Date().toISOString();
          // The answer may not say what was redeemed: the checked reward, now redeemed, stands in.
          const checked = state.reward.value;
          state.reward.value = outcome.redemption.reward ?? (checked ? { ...checked, status: 'redeemed' } : null);
          customers.applyRedemption(outcome.redemption, target.code);
          reportToLink(target, 'redeemed', {
            ...(card ? { points_balance: card.points } : {}),
            ...(card?.serial_number ? { card_serial_number: card.serial_number } : {}),
          });
          return true;
        }
        case 'queued':
          // Only now, with the outbox write committed, is the cashier told "queued".
          state.queued.value = outcome.item;
          state.answerLost.value = outcome.answerLost === true;
          state.unreachableTills.value = outcome.unreachableTills ?? [];
          if (outcome.check) offlineCheck.value = outcome.check;
          customers.markPending(outcome.item.code);
          reportToLink(target, 'queued', {});
          return true;
        case 'refused':
          if (outcome.reason === 'invalid_input') {
            fieldErrors.value = { ...fieldErrors.value, ...queueFieldWords(outcome.fields) };
          } else {
            state.refusedNote.value = redeemRefusalWords(outcome);
            if (outcome.reason === 'already_queued') state.pendingHere.value = true;
            if (outcome.reason === 'claimed_elsewhere') state.claimedElsewhere.value = outcome.claimedBy;
            if ('check' in outcome && outcome.check) offlineCheck.value = outcome.check;
            reportToLink(target, 'refused', { message: state.refusedNote.value });
          }
          return false;
        case 'failed': {
          const { error } = outcome;
          connection.noteFailure(error);
          if (error.kind === 'reward_unavailable') {
            await explainUnavailable(target);
            reportToLink(target, 'refused', { message: state.unavailableNote.value ?? error.message });
          } else {
            redeemError.value = error;
            fieldErrors.value = { ...fieldErrors.value, ...(error.fields ?? {}) };
            if (ANSWER_LOST.has(error.kind)) state.earlierAttemptUnanswered.value = true;
          }
          return false;
        }
      }
    } finally {
      redeeming.value = false;
    }
  }

  /** "Ask at Till 1": nothing is queued, and the redeem stays to press again once they answer. */
  function askAtTheOtherTill(): void {
    splitTills.value = [];
  }

  /** The service refused: ask it (without changing anything) what state the reward is in, to say why. */
  async function explainUnavailable(target: CheckedFor): Promise<void> {
    const result = await offline.services().checkReward(target.code, target.phone);
    const known = result.ok && result.source === 'service' ? result.reward : null;
    if (known) state.reward.value = known;
    state.unavailableNote.value = unavailableWords(known, state.earlierAttemptUnanswered.value);
  }

  return { offlineRedemptionForbidden, canRedeem, redeem, askAtTheOtherTill };
}
