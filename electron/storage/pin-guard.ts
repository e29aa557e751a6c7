import { MANAGER_APPROVAL_MS } from '../../common/manager-approval';
import {
  DEFAULT_PIN_COST,
  PIN_PATTERN,
  hashPin,
  pinMatches,
  type ManagerPinStore,
  type PinCost,
  type PinTries,
} from './manager-pin';

/**
 * The manager PIN's check, with its back-off and the approval it grants. Wrong PINs slow
 * down: after each wrong one the next try waits twice as long as the last (1 s, 2 s, 4 s … at
 * most 5 minutes); a try during the wait is refused unheard (it does not count). The right
 * PIN ends the back-off and approves risky operations for a few minutes (`approved()`),
 * which the bridge checks before removing or replacing the key, turning offline redemption
 * off or on, and changing the PIN. The clock is injected, so tests need not wait.
 *
 * The back-off is kept with the PIN (`ManagerPinStore.saveTries`), written before a wrong
 * try is answered, so a restart neither forgets the wait nor starts the doubling again. While
 * the app runs its own count is what counts: a file edited by hand cannot lower it. A wait
 * read from the file is cut to the longest one, so a clock set wrong never locks the till.
 */

export const FIRST_WAIT_MS = 1000;
export const MAX_WAIT_MS = 5 * 60_000;
/** How long one right PIN approves risky operations for. */
export const APPROVAL_MS = MANAGER_APPROVAL_MS;

export type PinVerdict =
  | { accepted: true; waitSeconds: 0 }
  /** `waitSeconds`: how long before the next try is heard (0: at once). */
  | { accepted: false; waitSeconds: number; reason: 'wrong' | 'wait' | 'not_set' | 'format' };

export interface PinGuard {
  isSet(): boolean;
  /** The organisation's policy gives the PIN: it is not set, changed or removed on the till. */
  isManaged(): boolean;
  verify(pin: string): Promise<PinVerdict>;
  /** A PIN is set and was given right within the approval time; true when none is set. */
  approved(): boolean;
  /** Ends the approval (a manager leaving Settings). */
  endApproval(): void;
  /** Sets, replaces or removes (null) the PIN. The caller checks the approval first. */
  set(pin: string | null): Promise<void>;
}

export function createPinGuard(options: { store: ManagerPinStore; now?: () => number; cost?: PinCost }): PinGuard {
  const { store } = options;
  const now = options.now ?? Date.now;
  const cost = options.cost ?? DEFAULT_PIN_COST;
  const kept = store.tries();
  let wrongInARow = kept?.wrongInARow ?? 0;
  // Never later than the longest wait from now: a clock set back, or a file edited, cannot lock the till.
  let heardAgainAt = Math.min(kept?.heardAgainAt ?? 0, now() + MAX_WAIT_MS);
  let approvedUntil = 0;
  const keep = (tries: PinTries | null) => store.saveTries(tries);

  const secondsUntil = (at: number) => Math.max(0, Math.ceil((at - now()) / 1000));

  async function check(pin: string): Promise<PinVerdict> {
    const hash = store.hash();
    if (hash === null) return { accepted: false, waitSeconds: 0, reason: 'not_set' };
    if (now() < heardAgainAt) return { accepted: false, waitSeconds: secondsUntil(heardAgainAt), reason: 'wait' };
    const matches = PIN_PATTERN.test(pin) && (await pinMatches(pin, hash));
    if (matches) {
      if (wrongInARow > 0 || store.tries() !== null) await keep(null);
      wrongInARow = 0;
      heardAgainAt = 0;
      approvedUntil = now() + APPROVAL_MS;
      return { accepted: true, waitSeconds: 0 };
    }
    wrongInARow += 1;
    heardAgainAt = now() + Math.min(FIRST_WAIT_MS * 2 ** Math.min(wrongInARow - 1, 30), MAX_WAIT_MS);
    // Written before the answer: a restart right after it still knows the wait.
    await keep({ wrongInARow, heardAgainAt });
    return { accepted: false, waitSeconds: secondsUntil(heardAgainAt), reason: 'wrong' };
  }

  // One check at a time: tries sent together each meet the wait the one before them earned,
  // instead of all passing the wait check while the first is still hashing.
  let queue: Promise<unknown> = Promise.resolve();

  return {
    isSet: () => store.hash() !== null,
    isManaged: () => store.managed?.() ?? false,
    verify(pin) {
      const verdict = queue.then(() => check(pin));
      queue = verdict.catch(() => undefined);
      return verdict;
    },
    approved: () => store.hash() === null || now() < approvedUntil,
    endApproval() {
      approvedUntil = 0;
    },
    async set(pin) {
      await store.save(pin === null ? null : await hashPin(pin, cost));
      if (store.tries() !== null) await keep(null);
      wrongInARow = 0;
      heardAgainAt = 0;
      // Whoever just set it knows it: their approval stands; removing it leaves nothing to approve.
      approvedUntil = pin === null ? 0 : now() + APPROVAL_MS;
    },
  };
}
