import type { Failure, Result, SettingsPatch, TillState } from '../../common/contract';
import { isRecord } from '../../common/is-record';
import type { PinGuard } from '../storage/pin-guard';
import type { Logger } from '../log/log';
import { describe, type Wording } from '../messages';

/**
 * The manager's approval behind the bridge: the PIN's three operations, and the check the
 * risky ones make first. Once a PIN is set, removing or replacing the API key, turning
 * offline redemption off or on, switching a till already set up to the demo, and changing or
 * removing the PIN need a right PIN given
 * within the last few minutes (storage/pin-guard.ts); without one they are refused with
 * `unauthorized`, code `manager_pin_required`, and change nothing. The renderer asks the
 * same PIN before opening Settings, acknowledging a conflict or failure and exporting the
 * journal; it learns only yes, no, or how long to wait.
 */

export interface ManagerApprovalOptions {
  guard: PinGuard;
  log: Logger;
  wording: () => Wording;
  state: () => TillState;
  /** Whether a key is stored now (replacing one needs approval; a first one does not). */
  keySet: () => boolean;
  /** The offline-redemption setting now. */
  allowsOfflineRedemption: () => boolean;
}

export function createManagerApproval(options: ManagerApprovalOptions) {
  const { guard, log, wording } = options;

  /** The refusal of a risky operation without approval; null when it may go ahead. */
  function refusal(what: string): Failure | null {
    if (guard.approved()) return null;
    log.warn(`Refused ${what}: the manager PIN was not given.`);
    return {
      ok: false,
      error: { kind: 'unauthorized', code: 'manager_pin_required', message: describe(wording(), 'pin.required') },
    };
  }

  return {
    refusal,
    /** Replacing a stored key needs approval; the first key of a till being set up does not. */
    forKey: (): Failure | null => (options.keySet() ? refusal('replacing the API key') : null),
    forKeyRemoval: (): Failure | null => refusal('removing the API key'),
    /** Only a change of the offline-redemption setting needs approval; the rest of Settings does not. */
    forSettings(patch: unknown): Failure | null {
      const wanted = isRecord(patch) ? (patch as SettingsPatch).allowOfflineRedemption : undefined;
      if (typeof wanted !== 'boolean' || wanted === options.allowsOfflineRedemption()) return null;
      return refusal('changing offline redemption');
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
      const refused = guard.isSet()
        ? refusal(pin === null ? 'removing the manager PIN' : 'changing the manager PIN')
        : null;
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
