import { computed } from 'vue';
import type { Reward } from '../../../common/contract';
import { t, tPlural } from '../../i18n';
import { formatPoints } from '../../i18n/format';
import { isolatedList } from '../../i18n/isolate';
import { countryLabel } from '../../lib/countries';
import { formatDayTime } from '../../lib/dates';
import { isRewardCode } from '../../lib/scan-route';
import { isUnreachable } from '../../offline';
import { useSettingsStore } from '../settings';
import type { RewardState } from './state';

/**
 * What is wrong with the check form, field by field, in the cashier's words (empty when nothing
 * is); `phone` is the number read from it, null when none could be, in the till's `country`.
 */
export function checkFormErrors(
  code: string,
  typedPhone: string,
  phone: string | null,
  country: string,
): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!code) errors.reward_code = t('rewards.fields.codeMissing');
  else if (!isRewardCode(code)) errors.reward_code = t('rewards.fields.codeShape');
  if (!phone) {
    errors.phone = typedPhone.trim()
      ? t('rewards.fields.phoneUnreadable', { country: countryLabel(country) })
      : t('rewards.fields.phoneMissing');
  }
  return errors;
}

/** Why the service refused a redeem, from what it says of the reward now. */
export function unavailableWords(known: Reward | null, maybeOurs: boolean): string {
  if (known?.redeemed_at) {
    const when = formatDayTime(known.redeemed_at);
    return maybeOurs
      ? t('rewards.unavailable.usedMaybeOurs', { date: when })
      : t('rewards.unavailable.used', { date: when });
  }
  if (known?.status === 'expired' && known.expires_at) {
    return t('rewards.unavailable.expired', { date: formatDayTime(known.expires_at) });
  }
  if (known?.type === 'points' && known.price !== undefined) {
    return tPlural('rewards.unavailable.tooFewPoints', known.price, { points: formatPoints(known.price) });
  }
  return t('rewards.unavailable.unknown');
}

/**
 * The rewards store's notes, each a computed in the interface language of the moment, so a
 * language switch re-words them.
 */
export function useRewardNotes(state: RewardState) {
  const settings = useSettingsStore();

  /** The service could not be reached during a redeem, and the settings forbid queueing it. */
  const cannotQueueNote = computed(() =>
    state.redeemError.value && isUnreachable(state.redeemError.value) && !settings.allowOfflineRedemption
      ? t('rewards.refusal.offlineRedemptionOff')
      : null,
  );

  /** The warning under a queued redemption when some of the shop's tills did not answer. */
  const unreachableNote = computed(() =>
    state.unreachableTills.value.length > 0
      ? t('rewards.shop.unreachable', { tills: isolatedList(state.unreachableTills.value) })
      : null,
  );

  /** The question before queuing while a till of the shop is out of reach; null when none is asked. */
  const splitQuestion = computed(() =>
    state.splitTills.value.length > 0
      ? t('rewards.shop.splitQuestion', { tills: isolatedList(state.splitTills.value) })
      : null,
  );

  const offlineRedemptionOffWords = computed(() => t('rewards.refusal.offlineRedemptionOff'));

  return { cannotQueueNote, unreachableNote, splitQuestion, offlineRedemptionOffWords };
}
