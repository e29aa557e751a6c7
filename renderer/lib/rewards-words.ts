/**
 * What an offline check of a reward code found, in words for the cashier: the offline core
 * answers with a verdict (vocabulary/rewards.ts `OfflineVerdict`), never words, and this words it
 * in the interface language of the moment (call it from a computed or a render).
 */
import { t, type MessageKey } from '../i18n';
import type { OfflineVerdict } from '../vocabulary/rewards';

const VERDICT_WORDS: Record<OfflineVerdict, MessageKey> = {
  available: 'rewards.offlineCheck.available',
  pending: 'rewards.offlineCheck.pending',
  redeemed: 'rewards.offlineCheck.redeemed',
  expired: 'rewards.offlineCheck.expired',
  no_longer_listed: 'rewards.offlineCheck.noLongerListed',
  wrong_customer: 'rewards.offlineCheck.wrongCustomer',
  unverifiable: 'rewards.offlineCheck.unverifiable',
  invalid_phone: 'rewards.offlineCheck.invalidPhone',
};

export function offlineVerdictWords(verdict: OfflineVerdict): string {
  return t(VERDICT_WORDS[verdict]);
}
