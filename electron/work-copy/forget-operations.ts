/**
 * The bridge operations of forgetting the till's data (docs/privacy.md#forgetting-a-till):
 * `forgetTill`, guarded by the manager PIN, and `confirmWaitingLoss`, the manager's second
 * word that items waiting in the outbox are to be lost. The page deletes its own database once
 * `forgetTill` answers (its state then carries `forgotten`).
 */
import type { Failure, TillState } from '../../common/contract';
import type { GuardedAction } from '../../common/guarded-actions';
import type { Wording } from '../messages';
import { noPayload } from '../validation/bridge-payloads';
import { operationMaker, type OperationTable } from '../validation/bridge-operation';
import { confirmWaitingLossPayload } from '../validation/work-copy-payloads';
import type { TillForgetting } from './forgetting';

export interface ForgetNeeds {
  forgetting: TillForgetting;
  /** The manager's approval of a guarded action: null when it may go ahead. */
  refusal: (action: GuardedAction) => Failure | null;
  state: () => TillState;
  wording: () => Wording;
}

export function forgetOperations(needs: ForgetNeeds): OperationTable<'forgetTill' | 'confirmWaitingLoss'> {
  const { forgetting } = needs;
  const op = operationMaker(needs.wording);
  return {
    forgetTill: op(noPayload, async () => {
      const refused = needs.refusal('forgetTill') ?? forgetting.refusal();
      if (refused) return refused;
      await forgetting.forget('manager');
      return { ok: true, data: needs.state() };
    }),
    confirmWaitingLoss: op(confirmWaitingLossPayload, async ({ waiting }) => {
      forgetting.confirm(waiting);
      return { ok: true, data: null };
    }),
  };
}
