/**
 * What a manager is asked to approve with the PIN, and the shape of the function that asks:
 * shared by the PIN's store and the stores whose calls the main process guards, which take an
 * `Approver` from the screen rather than import the PIN's store (no import circle).
 */
import type { Result } from '../../common/contract';
import type { GuardedAction } from '../../common/guarded-actions';

/** A guarded action (common/guarded-actions.ts, the one list), or `approve` when none is named. */
export type ApprovalReason = GuardedAction | 'approve';

/**
 * Runs a guarded call; refused for want of approval, asks the PIN and makes the call once more.
 * The PIN is asked for the action the main process names in its refusal; `reason` is the one
 * asked for when it names none.
 */
export type Approver = <T>(reason: ApprovalReason, call: () => Promise<Result<T>>) => Promise<Result<T>>;

/** Where no PIN can be asked (tests, first run): the call's own answer. */
export const noApprover: Approver = (_reason, call) => call();
