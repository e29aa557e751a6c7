/**
 * What the page may know of the till (`getState`): its settings with the policy over them,
 * whether a key is stored (never the key), how the data key is kept (never the key), the
 * mode, the OS's languages, what the policy locks or why it was refused, and whether a
 * manager PIN is set and whose it is.
 */
import type { ConnectionMode, TillForgotten, TillState } from '../../common/contract';
import type { Wording } from '../messages';
import type { ManagedSettingsStore } from '../policy/managed-settings';
import type { PolicyFollower } from '../policy/policy-follower';
import { describePolicyProblem } from '../policy/policy-reading';
import type { DataKey } from '../storage/data-key';
import type { PinGuard } from '../storage/pin-guard';
import type { Vault } from '../storage/vault';

export interface TillStateNeeds {
  settings: ManagedSettingsStore;
  vault: Vault;
  dataKey: Pick<DataKey, 'status'>;
  pinGuard: PinGuard;
  mode: () => ConnectionMode;
  systemLanguages: () => string[];
  policy: Pick<PolicyFollower, 'reading' | 'revision'>;
  wording: () => Wording;
  /** The till's data forgotten this run (`last`: null when it was not). */
  forgetting: { last(): TillForgotten | null };
}

export function tillStateOf(needs: TillStateNeeds): () => TillState {
  const { settings, vault, pinGuard } = needs;
  return () => ({
    settings: settings.get(),
    key: vault.status(),
    dataKey: needs.dataKey.status(),
    mode: needs.mode(),
    systemLanguages: needs.systemLanguages(),
    managed: {
      locked: [...settings.locked()] as TillState['managed']['locked'],
      problem: (() => {
        const reading = needs.policy.reading();
        return reading.state === 'refused' ? describePolicyProblem(reading.problem, needs.wording()) : null;
      })(),
      revision: needs.policy.revision(),
    },
    pinSet: pinGuard.isSet(),
    pinManaged: pinGuard.isManaged(),
    ...(() => {
      const forgotten = needs.forgetting.last();
      return forgotten ? { forgotten } : {};
    })(),
  });
}
