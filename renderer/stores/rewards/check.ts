import { computed } from 'vue';
import type { Customer } from '../../../common/contract';
import { readPhone, toE164 } from '../../../common/phone';
import { normaliseRewardCode } from '../../lib/scan-route';
import { useConnectionStore } from '../connection';
import { useOfflineStore } from '../offline';
import { useSettingsStore } from '../settings';
import { clearOutcome, type RewardState } from './state';
import { checkFormErrors } from './words';

/**
 * The rewards store's check: a reward screen opened afresh, and the check of a code for a
 * phone, by the service or, when it cannot be reached, by the cache.
 */
export function useRewardCheck(state: RewardState) {
  const settings = useSettingsStore();
  const connection = useConnectionStore();
  const offline = useOfflineStore();
  const { draft, fieldErrors, forCustomer, checkedFor, offlineCheck, reward } = state;

  const customerPhone = computed(() => forCustomer.value?.phone ?? null);

  /** The check still describes what is in the form: editing the code or phone afterwards needs a new check. */
  const checkIsCurrent = computed(
    () =>
      checkedFor.value !== null &&
      checkedFor.value.code === normaliseRewardCode(draft.value.code) &&
      checkedFor.value.phone === resolvePhone(),
  );

  /** Available by the service's word, or by the cache's while offline (then it can only be queued). */
  const checkSaysAvailable = computed(() =>
    offlineCheck.value ? offlineCheck.value.verdict === 'available' : reward.value?.status === 'available',
  );

  /**
   * Opens the reward screen afresh, optionally with a code (typed on another screen, or
   * scanned), for the customer on screen. Without one, the check asks for the phone: a
   * customer looked at earlier may not be the one at the till now.
   */
  function start(code = '', customer: Customer | null = null): void {
    forCustomer.value = customer;
    state.fromLink.value = null;
    draft.value = { code: code ? normaliseRewardCode(code) : '', phone: '', orderReference: '' };
    fieldErrors.value = {};
    clearOutcome(state);
  }

  function resolvePhone(): string | null {
    if (customerPhone.value) return toE164(customerPhone.value);
    const reading = readPhone(draft.value.phone, settings.defaultCountry);
    return reading ? reading.e164 : null;
  }

  async function check(): Promise<boolean> {
    if (state.checking.value) return false;
    const code = normaliseRewardCode(draft.value.code);
    const phone = resolvePhone();
    const errors = checkFormErrors(code, draft.value.phone, phone, settings.defaultCountry);
    fieldErrors.value = errors;
    if (Object.keys(errors).length > 0 || !phone) return false;

    draft.value.code = code;
    clearOutcome(state);
    state.checking.value = true;
    try {
      const result = await offline.services().checkReward(code, phone);
      if (!result.ok) {
        connection.noteFailure(result.error);
        state.checkOutcome.value = { kind: 'failed', error: result.error };
        fieldErrors.value = { ...(result.error.fields ?? {}) };
        return false;
      }
      if (result.source === 'service') connection.noteSuccess();
      // From the cache, what it knows, and (offlineCheck) that it is only the cache's word.
      const found =
        result.source === 'service'
          ? { reward: result.reward, offlineCheck: null, pendingHere: result.pendingHere }
          : {
              reward: result.check.reward,
              offlineCheck: result.check,
              pendingHere: result.check.verdict === 'pending',
            };
      state.checkOutcome.value = {
        kind: 'checked',
        for: { code, phone },
        ...found,
        // Another till of the shop redeemed it and has not sent it yet: no redeem is offered.
        claimedBy: result.claimedBy,
        earlierAttemptUnanswered: false,
      };
      return true;
    } finally {
      state.checking.value = false;
    }
  }

  return { customerPhone, checkIsCurrent, checkSaysAvailable, start, check };
}
