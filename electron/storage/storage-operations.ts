/**
 * The bridge operations on what the till keeps: its state, its settings (with the
 * organisation's policy over them), its API key, and its data key for the till's page. A
 * risky change is refused without the manager's approval and changes nothing.
 */
import type { Failure, TillState } from '../../common/contract';
import { isRecord } from '../../common/is-record';
import { describe, type Wording } from '../messages';
import * as payloads from '../validation/bridge-payloads';
import { handingOver, operationMaker, validationFailure, type OperationTable } from '../validation/bridge-operation';
import type { DataKey } from './data-key';
import { settingsPatchSchema, type SettingsStore } from './settings';
import type { Vault } from './vault';

export interface StorageNeeds {
  settings: SettingsStore;
  vault: Vault;
  dataKey: Pick<DataKey, 'grant' | 'secrets'>;
  /** The manager's approval of each risky change: null when it may go ahead. */
  approval: {
    forSettings(patch: unknown): Failure | null;
    forKey(): Failure | null;
    forKeyRemoval(): Failure | null;
  };
  state: () => TillState;
  /** After a new service address or key: leaves the demo once a real service is set up. */
  configured: () => Promise<void>;
  /** After anything that may change the shop (the ledger follows). */
  changed: () => void;
  wording: () => Wording;
}

export function storageOperations(
  needs: StorageNeeds,
): OperationTable<'getState' | 'updateSettings' | 'setApiKey' | 'clearApiKey' | 'dataKey'> {
  const { settings, vault, approval, state, wording } = needs;
  const op = operationMaker(wording);
  return {
    getState: op(payloads.noPayload, async () => ({ ok: true, data: state() })),
    updateSettings: op(settingsPatchSchema, async (patch) => {
      const refused = approval.forSettings(patch);
      if (refused) return refused;
      const words = wording();
      const outcome = await settings.update(patch, words);
      if (!outcome.ok) return validationFailure(outcome.fields, words);
      if (isRecord(patch) && typeof patch.baseUrl === 'string') await needs.configured();
      needs.changed();
      return { ok: true, data: state() };
    }),
    setApiKey: op(payloads.setApiKeyPayload, async ({ apiKey }) => {
      const refused = approval.forKey();
      if (refused) return refused;
      const outcome = await vault.store(apiKey);
      if (!outcome.ok) {
        const words = wording();
        return validationFailure({ apiKey: describe(words, outcome.why) }, words);
      }
      await needs.configured();
      needs.changed();
      return { ok: true, data: state() };
    }),
    clearApiKey: op(payloads.noPayload, async () => {
      const refused = approval.forKeyRemoval();
      if (refused) return refused;
      await vault.clear();
      needs.changed();
      return { ok: true, data: state() };
    }),
    // The bridge answers the app's own origin only (guarded-handlers.ts): the customer display's
    // page, on an origin of its own, is refused before this runs. This answer alone may carry
    // the key; every other is scrubbed of it.
    dataKey: handingOver(
      op(payloads.dataKeyPayload, async () => ({ ok: true, data: needs.dataKey.grant() })),
      needs.dataKey.secrets,
    ),
  };
}
