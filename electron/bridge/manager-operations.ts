/** The manager PIN's three bridge operations (manager-approval.ts says what they guard). */
import type { Wording } from '../messages';
import * as payloads from '../validation/bridge-payloads';
import { operationMaker, type OperationTable } from '../validation/bridge-operation';
import type { createManagerApproval } from './manager-approval';

export interface ManagerNeeds {
  approval: ReturnType<typeof createManagerApproval>;
  wording: () => Wording;
}

export function managerOperations(
  needs: ManagerNeeds,
): OperationTable<'verifyManagerPin' | 'setManagerPin' | 'endManagerApproval'> {
  const { approval } = needs;
  const op = operationMaker(needs.wording);
  return {
    verifyManagerPin: op(payloads.verifyPinPayload, (payload) => approval.verify(payload)),
    setManagerPin: op(payloads.setPinPayload, (payload) => approval.set(payload)),
    endManagerApproval: op(payloads.noPayload, () => approval.end()),
  };
}
