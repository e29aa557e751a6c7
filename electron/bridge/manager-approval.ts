import type { Failure, Result, Settings, TillState } from '../../common/contract';
import type { GuardedAction } from '../../common/guarded-actions';
import type { PinGuard } from '../storage/pin-guard';
import type { Logger } from '../log/log';
import { describe, type Wording } from '../messages';
import { ACTION_LOG_WORDS, actionOfSettingsChange } from './guarded-actions';

/**
 * The manager's approval behind the bridge: the PIN's three operations, and the check the
 * guarded actions make first (common/guarded-actions.ts lists them). Once a PIN is set, each
 * action the list marks `main` needs a right PIN given within the last few minutes
 * (storage/pin-guard.ts); without one it is refused with `unauthorized`, code
 * `manager_pin_required` and the action's name, and changes nothing. The page asks the same
 * PIN for the actions marked `page`; it learns only yes, no, or how long to wait.
 */

export interface ManagerApprovalOptions {
  guard: PinGuard;
  log: Logger;
  wording: () => Wording;
  state: () => TillState;
  /** Whether a key is stored now (replacing one needs approval; a first one does not). */
  keySet: () => boolean;
  /** The settings now, to tell a change of a guarded setting from the same value sent again. */
  settings: () => Settings;
}

export function createManagerApproval(options: ManagerApprovalOptions) {
  const { guard, log, wording } = options;

  /** The refusal of a guarded action without approval; null when it may go ahead. */
  function refusal(action: GuardedAction): Failure | null {
    if (guard.approved()) return null;
    log.warn(`Refused ${ACTION_LOG_WORDS[action]}: the manager PIN was not given.`);
    return {
      ok: false,
      error: {
        kind: 'unauthorized',
        code: 'manager_pin_required',
        message: describe(wording(), 'pin.required'),
        action,
      },
    };
  }

  return {
    refusal,
    /** Replacing a stored key needs approval; the first key of a till being set up does not. */
    forKey: (): Failure | null => (options.keySet() ? refusal('changeKey') : null),
    forKeyRemoval: (): Failure | null => refusal('changeKey'),
    /**
     * A change to a guarded setting needs approval, and is then refused whole: its unguarded
     * fields are not saved either. The rest of Settings does not need it.
     */
    forSettings(patch: unknown): Failure | null {
      const action = actionOfSettingsChange(patch, options.settings());
      return action === null ? null : refusal(action);
    },

    async verify({ pin }: { pin: string }): Promise<Result<{ accepted: boolean; waitSeconds: number }>> {
      const verdict = await guard.verify(pin);
      // An audit line for the approval; never what was typed.
      if (verdict.accepted) log.info('The manager PIN was given: risky operations are approved for a few minutes.');
      else {
        // The log says that a try failed and how long the wait is; never what was typed.
        if (verdict.reason === 'wrong')
          log.warn(`A wrong manager PIN was given; the next try waits ${verdict.waitSeconds} s.`);
        if (verdict.reason === 'not_set') log.warn('A manager PIN was given, but none is set.');
      }
      return { ok: true, data: { accepted: verdict.accepted, waitSeconds: verdict.waitSeconds } };
    },

    async set({ pin }: { pin: string | null }): Promise<Result<TillState> | Failure> {
      if (guard.isManaged()) {
        return {
          ok: false,
          error: {
            kind: 'validation',
            message: describe(wording(), 'settings.managed'),
            fields: { pin: describe(wording(), 'settings.managed') },
          },
        };
      }
      const refused = guard.isSet() ? refusal('changePin') : null;
      if (refused) return refused;
      await guard.set(pin);
      log.info(pin === null ? 'The manager PIN was removed.' : 'The manager PIN was set.');
      return { ok: true, data: options.state() };
    },

    async end(): Promise<Result<null>> {
      guard.endApproval();
      return { ok: true, data: null };
    },
  };
}
