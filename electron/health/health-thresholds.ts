import type { HealthThresholds } from '../../common/contract';
import type { Policy } from '../policy/policy-schema';

/**
 * What makes the till "needs attention" unless the organisation's policy says otherwise
 * (`health` in the policy, docs/operations.md): a redemption queued a day ago and still unsent
 * is money owed to the programme's books; a failure or conflict is a person's to look at at
 * once; a cache a week old answers offline searches with last week's customers.
 */
export const DEFAULT_THRESHOLDS: HealthThresholds = Object.freeze({
  waitingHours: 24,
  unacknowledgedHours: 0,
  refreshDays: 7,
  offlineHours: 24,
});

/** The thresholds in force: the policy's where it sets them (only an applied policy sets anything). */
export function thresholdsOf(policy: Policy | null): HealthThresholds {
  return { ...DEFAULT_THRESHOLDS, ...policy?.health };
}
