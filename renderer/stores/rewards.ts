import { defineStore } from 'pinia';
import { useRewardCheck } from './rewards/check';
import { useRedeem } from './rewards/redeem';
import { useRewardState } from './rewards/state';
import { useRewardNotes } from './rewards/words';

export type { RewardDraft } from './rewards/state';

/**
 * A reward checked and redeemed, as the reward screen sees it, composed of its concerns
 * (renderer/stores/rewards/): the state both write, the check, the redeem (with its report
 * to a POS link), and the notes in the cashier's words.
 */
export const useRewardsStore = defineStore('rewards', () => {
  const state = useRewardState();
  const { customerPhone, start, check, ...checkSays } = useRewardCheck(state);
  return {
    ...state,
    customerPhone,
    start,
    check,
    ...useRedeem(state, checkSays),
    ...useRewardNotes(state),
  };
});
