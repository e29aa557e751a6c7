import { computed, type ComputedRef } from 'vue';
import { useConnectionStore } from '../connection';
import { useCustomersStore } from '../customers';
import { useOfflineStore } from '../offline';
import { useSettingsStore } from '../settings';
import { useLinkOutcome } from './link-outcome';
import { amendCheck, NO_REDEEM, type CheckedFor, type RewardState } from './state';
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
  const tellLink = useLinkOutcome(state);
  const { redeeming, splitTills, offlineCheck, fieldErrors, redeemOutcome } = state;

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
      // Only a failure, or the question of a split shop, leaves the redeem to press again.
      ['none', 'failed', 'split'].includes(redeemOutcome.value.kind) &&
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
    const splitAccepted = options.anyway === true && splitTills.value.length > 0;
    redeemOutcome.value = NO_REDEEM;
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
          redeemOutcome.value = { kind: 'split', tills: outcome.unreachableTills };
          return false;
        case 'redeemed': {
          connection.noteSuccess();
          const { card } = outcome.redemption;
          redeemOutcome.value = { kind: 'redeemed', redemption: outcome.redemption, at: new Date().toISOString() };
          // The answer may not say what was redeemed: the checked reward, now redeemed, stands in.
          const checked = state.reward.value;
          amendCheck(state, {
            reward: outcome.redemption.reward ?? (checked ? { ...checked, status: 'redeemed' } : null),
          });
          customers.applyRedemption(outcome.redemption, target.code);
          tellLink(target, 'redeemed', {
            ...(card ? { points_balance: card.points } : {}),
            ...(card?.serial_number ? { card_serial_number: card.serial_number } : {}),
          });
          return true;
        }
        case 'queued':
          // Only now, with the outbox write committed, is the cashier told "queued".
          redeemOutcome.value = {
            kind: 'queued',
            item: outcome.item,
            answerLost: outcome.answerLost === true,
            unreachableTills: outcome.unreachableTills ?? [],
          };
          if (outcome.check) amendCheck(state, { offlineCheck: outcome.check });
          customers.markPending(outcome.item.code);
          tellLink(target, 'queued', {});
          return true;
        case 'refused':
          if (outcome.reason === 'invalid_input') {
            fieldErrors.value = { ...fieldErrors.value, ...queueFieldWords(outcome.fields) };
          } else {
            const note = redeemRefusalWords(outcome);
            redeemOutcome.value = { kind: 'refused', note };
            if (outcome.reason === 'already_queued') amendCheck(state, { pendingHere: true });
            if (outcome.reason === 'claimed_elsewhere') amendCheck(state, { claimedBy: outcome.claimedBy });
            if ('check' in outcome && outcome.check) amendCheck(state, { offlineCheck: outcome.check });
            tellLink(target, 'refused', { message: note });
          }
          return false;
        case 'failed': {
          const { error } = outcome;
          connection.noteFailure(error);
          if (error.kind === 'reward_unavailable') {
            const note = await explainUnavailable(target);
            tellLink(target, 'refused', { message: note });
          } else {
            redeemOutcome.value = { kind: 'failed', error };
            fieldErrors.value = { ...fieldErrors.value, ...(error.fields ?? {}) };
            if (ANSWER_LOST.has(error.kind)) amendCheck(state, { earlierAttemptUnanswered: true });
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
    if (redeemOutcome.value.kind === 'split') redeemOutcome.value = NO_REDEEM;
  }

  /** The service refused: ask it (without changing anything) what state the reward is in, to say why. */
  async function explainUnavailable(target: CheckedFor): Promise<string> {
    const result = await offline.services().checkReward(target.code, target.phone);
    const known = result.ok && result.source === 'service' ? result.reward : null;
    if (known) amendCheck(state, { reward: known });
    const note = unavailableWords(known, state.earlierAttemptUnanswered.value);
    redeemOutcome.value = { kind: 'unavailable', note };
    return note;
  }

  return { offlineRedemptionForbidden, canRedeem, redeem, askAtTheOtherTill };
}
