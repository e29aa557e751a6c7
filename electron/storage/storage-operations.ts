/**
 * The bridge operations on what the till keeps: its state, its settings (with the
 * organisation's policy over them), its API key, and its data key for the till's page. A
 * risky change is refused without the manager's approval and changes nothing.
 *
 * Switching to another service or programme forgets the old one's customers
 * (docs/privacy.md#forgetting-a-till): refused while items wait in the outbox unless the
 * manager confirmed losing them, and once saved, the work copy and the data key go; the page,
 * told by the state's `forgotten`, deletes its database. A first one (a till being set up), or
 * the same one again, forgets nothing. A new API key is not a switch: a refused key replaced by
 * the right one, for the same service, must let the queue go on.
 */
import type { Failure, Settings, TillState } from '../../common/contract';
import { isRecord } from '../../common/is-record';
import { describe, type Wording } from '../messages';
import * as payloads from '../validation/bridge-payloads';
import { handingOver, operationMaker, validationFailure, type OperationTable } from '../validation/bridge-operation';
import type { DataKey } from './data-key';
import { baseUrlSchema, settingsPatchSchema, type SettingsStore } from './settings';
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
  /** Forgetting the till's data when it switches to another service, programme or key. */
  forgetting: {
    /** Refused while items wait in the outbox, unless the manager confirmed losing them. */
    refusal(): Failure | null;
    forget(reason: 'switch'): Promise<unknown>;
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
  const { settings, vault, approval, state, wording, forgetting: switching } = needs;
  const op = operationMaker(wording);
  return {
    getState: op(payloads.noPayload, async () => ({ ok: true, data: state() })),
    updateSettings: op(settingsPatchSchema, async (patch) => {
      const refused = approval.forSettings(patch);
      if (refused) return refused;
      const switches = switchesService(patch, settings.get());
      const waiting = switches ? switching.refusal() : null;
      if (waiting) return waiting;
      const words = wording();
      const outcome = await settings.update(patch, words);
      if (!outcome.ok) return validationFailure(outcome.fields, words);
      if (switches) await switching.forget('switch');
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

/**
 * Whether the change moves the till from a service address or programme that was set to
 * another (or to none): the old one's customers are then forgotten. The address is compared as
 * the settings keep it (normalised: `/v1/` or a trailing slash is the same service).
 */
function switchesService(patch: unknown, current: Settings): boolean {
  if (!isRecord(patch)) return false;
  if (current.baseUrl !== null && Object.hasOwn(patch, 'baseUrl')) {
    const next =
      patch.baseUrl === null ? { success: true as const, data: null } : baseUrlSchema.safeParse(patch.baseUrl);
    if (next.success && next.data !== current.baseUrl) return true;
  }
  if (current.programId !== null && Object.hasOwn(patch, 'programId')) {
    const next = patch.programId;
    if (next === null || (typeof next === 'string' && next.toLowerCase() !== current.programId.toLowerCase()))
      return true;
  }
  return false;
}
