import type { LinkOutcomeNotice } from '../../../common/contract';
import { useCashierStore } from '../cashier';
import { till } from '../till';
import type { CheckedFor, RewardState } from './state';

/**
 * Tells the main process how a redemption a link prepared ended, once, so that it can
 * answer the POS. Only for the code the link named: a code the cashier typed instead is
 * not the link's. A report that fails is logged by the main process; the cashier is not held up.
 */
export function useLinkOutcome(state: RewardState) {
  const cashier = useCashierStore();

  return function tellLink(
    target: CheckedFor,
    outcome: LinkOutcomeNotice['outcome'],
    extra: Partial<LinkOutcomeNotice>,
  ): void {
    const link = state.fromLink.value;
    if (!link || link.code !== target.code) return;
    state.fromLink.value = null;
    const order = state.draft.value.orderReference.trim();
    void till()
      .sendLinkOutcome({
        link_id: link.id,
        outcome,
        reward_code: target.code,
        ...(order ? { order_reference: order } : {}),
        ...(cashier.current ? { cashier: cashier.current } : {}),
        ...extra,
      })
      .catch(() => undefined);
  };
}
