import { computed, ref, watch, type Ref } from 'vue';
import type { DisplayModel } from '../../../common/display-model';
import { displayView } from '../../lib/display-model';
import { useCustomersStore } from '../customers';
import { useNavigationStore } from '../navigation';
import { useRewardsStore } from '../rewards';
import { useSettingsStore } from '../settings';

/** What the display shows that is the display store's own, not another store's. */
interface DisplayOwn {
  blanked: Ref<boolean>;
  lookingUp: Ref<boolean>;
  notFound: Ref<boolean>;
}

/**
 * The customer display's model: what the till is doing, read from its stores and reduced to
 * what a customer may see (lib/display-model.ts), with the display's own settings.
 */
export function useDisplayModel({ blanked, lookingUp, notFound }: DisplayOwn) {
  const settings = useSettingsStore();
  const navigation = useNavigationStore();
  const customers = useCustomersStore();
  const rewards = useRewardsStore();

  /** The name of this till's programme, learnt from the cards of customers opened. */
  const programmeName = ref<string | null>(null);
  watch(
    () => customers.current,
    (customer) => {
      const mine = customer?.cards.find((card) => card.program.id === settings.programId);
      if (mine) programmeName.value = mine.program.name;
    },
  );

  const asOf = computed(() => {
    const screen = navigation.screen.name;
    if (screen === 'reward' && rewards.offlineCheck) return rewards.offlineCheck.cachedAt;
    if ((screen === 'customer' || screen === 'reward') && customers.origin?.source === 'cache')
      return customers.origin.cachedAt;
    return null;
  });

  /** Whether a redemption was refused, and whether because the reward was already used. */
  const refusal = computed<'used' | 'other' | null>(() => {
    const usedElsewhere = rewards.claimedElsewhere !== null;
    const queuedHere = rewards.refusedNote !== null && rewards.pendingHere;
    const usedAtService = rewards.unavailableNote !== null && !!rewards.reward?.redeemed_at;
    if (usedElsewhere || queuedHere || usedAtService) return 'used';
    return rewards.refusedNote !== null || rewards.unavailableNote !== null ? 'other' : null;
  });

  const view = computed(() =>
    displayView({
      screen: navigation.screen.name,
      blanked: blanked.value,
      lookingUp: lookingUp.value,
      notFound: notFound.value,
      customer: customers.current,
      tillProgramId: settings.programId,
      reward: {
        checked: rewards.reward ?? rewards.offlineCheck?.reward ?? null,
        offlineVerdict: rewards.offlineCheck?.verdict ?? null,
        redemption: rewards.redemption,
        queued: rewards.queued !== null,
        refused: refusal.value,
        customer: rewards.forCustomer,
      },
      now: new Date(),
    }),
  );

  const model = computed<Omit<DisplayModel, 'revision'>>(() => {
    const current = view.value;
    const live = current.kind === 'idle' || current.kind === 'blank' || current.kind === 'looking-up';
    return {
      view: current,
      programme: programmeName.value,
      asOf: live ? null : asOf.value,
      language: settings.interfaceLanguage,
      digits: settings.arabicDigits,
      theme: settings.theme,
      idleSeconds: settings.settings?.displayIdleSeconds ?? 30,
    };
  });

  return { view, model };
}
