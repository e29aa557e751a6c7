/**
 * The bridge's way into the demo, and out of it: `startDemo`, and leaving the demo once a
 * real service has just been fully configured (a new address or key, storage-operations.ts).
 */
import type { GuardedAction } from '../../common/guarded-actions';
import type { ConnectionMode, Failure, TillState } from '../../common/contract';
import type { Logger } from '../log/log';
import { describe, type Wording } from '../messages';
import type { SettingsStore } from '../storage/settings';
import * as payloads from '../validation/bridge-payloads';
import { failure, operationMaker, type OperationTable } from '../validation/bridge-operation';
import { describeFieldErrors } from '../validation/validation-errors';
import type { DemoMode } from './demo-mode';
import { startDemo } from './service-target';

export interface DemoNeeds {
  demo: DemoMode;
  settings: SettingsStore;
  mode: () => ConnectionMode;
  /** The refusal of a risky operation without the manager's approval; null when it may go ahead. */
  refusal: (action: GuardedAction) => Failure | null;
  state: () => TillState;
  /** After anything that may change the shop (the ledger follows). */
  changed: () => void;
  log: Logger;
  wording: () => Wording;
}

export function demoOperations(needs: DemoNeeds): OperationTable<'startDemo'> {
  const { demo, settings, log, wording } = needs;
  const op = operationMaker(wording);
  return {
    startDemo: op(payloads.noPayload, async () => {
      // A till already set up does not go (back) to the demo's practice data without a manager.
      const refused = needs.mode() === 'unconfigured' ? null : needs.refusal('switchToDemo');
      if (refused) return refused;
      if (!(await startDemo(demo, log))) {
        return failure({
          kind: 'server',
          code: 'demo_unavailable',
          message: describe(wording(), 'bridge.demoNotStarted'),
        });
      }
      // The demo knows which programme its key earns on; a programme the person chose stays.
      if (settings.get().programId === null) {
        const chosen = await settings.update({ programId: await demo.programId() });
        if (!chosen.ok)
          log.warn(`The demo's programme could not be saved as this till's: ${describeFieldErrors(chosen.fields)}`);
      }
      needs.changed();
      return { ok: true, data: needs.state() };
    }),
  };
}

/** Leaves the demo when a real service has just been fully configured; `left` runs if it did. */
export function demoLeaver(needs: {
  demo: DemoMode;
  configured: () => boolean;
  left: () => void;
  log: Logger;
}): () => Promise<void> {
  return async () => {
    if (needs.demo.isOn() && needs.configured()) {
      await needs.demo.turnOff();
      needs.left();
      needs.log.info('Switched from the demo to the configured loyalty service.');
    }
  };
}
