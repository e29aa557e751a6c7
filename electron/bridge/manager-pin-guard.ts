import { join } from 'node:path';
import { policyManagerPinHash, type PolicyReading } from '../policy/policy-reading';
import type { Logger } from '../log/log';
import { openManagerPinStore, withPolicyPin, type PinCost } from '../storage/manager-pin';
import { createPinGuard, type PinGuard } from '../storage/pin-guard';

/**
 * The manager PIN's guard over its store in the user-data folder: the organisation's policy
 * may give the PIN (docs/operations.md), the till's own otherwise.
 */
export async function openManagerPinGuard(options: {
  userDataDir: string;
  policy: () => PolicyReading;
  log: Logger;
  /** The clock of the PIN's back-off (tests move it on); `Date.now` by default. */
  pinNow?: () => number;
  /** scrypt's cost for a new PIN; the app's default otherwise (tests use a cheaper one). */
  pinCost?: PinCost;
}): Promise<PinGuard> {
  const own = await openManagerPinStore({ file: join(options.userDataDir, 'manager-pin.json'), log: options.log });
  return createPinGuard({
    store: withPolicyPin(own, () => policyManagerPinHash(options.policy())),
    ...(options.pinNow ? { now: options.pinNow } : {}),
    ...(options.pinCost ? { cost: options.pinCost } : {}),
  });
}
