import { useNavigationStore } from './navigation';
import { useRewardsStore } from './rewards';

/**
 * Whether the cashier is in the middle of something a POS link or a customer's entry on the
 * display must not take the screen from: a half-filled form (register, correct, Settings), the
 * report being read or printed, or a reward being checked or redeemed. One rule for both; what
 * else each waits for (the links: a key pressed in the last seconds) is theirs.
 */
export function useCashierAtWork(): () => boolean {
  const navigation = useNavigationStore();
  const rewards = useRewardsStore();
  return () => {
    const screen = navigation.screen.name;
    if (screen === 'register' || screen === 'correct' || screen === 'settings' || screen === 'report') return true;
    return screen === 'reward' && (rewards.checking || rewards.redeeming || rewards.canRedeem);
  };
}
