/**
 * The page's reports of the till's work (whether a sale or a queue is under way), which the
 * updater waits on before it installs; the answer tells the page whether the policy changed.
 */
import type { Wording } from '../messages';
import * as payloads from '../validation/bridge-payloads';
import { operationMaker, type OperationTable } from '../validation/bridge-operation';
import type { ActivityBoard } from './till-activity';

export interface ActivityNeeds {
  activity: ActivityBoard;
  /** The clock reports are stamped with (ms). */
  now: () => number;
  /** How many times the policy has changed since the start. */
  policyRevision: () => number;
  wording: () => Wording;
}

export function activityOperations(needs: ActivityNeeds): OperationTable<'noteActivity'> {
  const op = operationMaker(needs.wording);
  return {
    noteActivity: op(payloads.tillActivityPayload, async (report) => {
      needs.activity.report(report, needs.now());
      return { ok: true, data: { policyRevision: needs.policyRevision() } };
    }),
  };
}
