import { isDeepStrictEqual } from 'node:util';
import type { Settings } from '../../common/contract';
import { DEFAULT_SETTINGS } from '../storage/settings';
import { COMPUTER_NAME_PLACEHOLDER, MANAGED_SETTING_KEYS, type ManagedSettingKey, type Policy } from './policy-schema';

/** The most a till name may be (as Settings checks it). */
const TILL_NAME_MAX = 60;

export interface EffectiveSettings {
  settings: Settings;
  /** The settings the policy locks, in the order Settings lists them. */
  locked: ManagedSettingKey[];
}

/**
 * The settings the till works with: its own, with the policy's `defaults` where it still has
 * the built-in value, and the policy's `settings` over everything. The till's own file is
 * never written with the policy's values, so a policy withdrawn leaves the till as it was.
 */
export function applyPolicy(own: Settings, policy: Policy | null, computerName: string): EffectiveSettings {
  if (!policy) return { settings: own, locked: [] };
  const settings: Settings = { ...own };
  const set = (key: ManagedSettingKey, value: unknown) => {
    const resolved = key === 'tillName' && typeof value === 'string' ? expandTillName(value, computerName) : value;
    (settings as unknown as Record<string, unknown>)[key] = resolved;
  };
  for (const key of MANAGED_SETTING_KEYS) {
    const fallback = policy.defaults?.[key];
    if (fallback !== undefined && isDeepStrictEqual(own[key], DEFAULT_SETTINGS[key])) set(key, fallback);
  }
  const locked: ManagedSettingKey[] = [];
  for (const key of MANAGED_SETTING_KEYS) {
    const enforced = policy.settings?.[key];
    if (enforced === undefined) continue;
    set(key, enforced);
    locked.push(key);
  }
  return { settings, locked };
}

/**
 * `Till {computerName}` on the computer `SHOP12-TILL3` is `Till SHOP12-TILL3`: one policy
 * names 300 tills. The name is cut to the length Settings allows, never refused.
 */
export function expandTillName(pattern: string, computerName: string): string {
  const name = computerName.trim() || 'till';
  const expanded = pattern.split(COMPUTER_NAME_PLACEHOLDER).join(name).trim();
  return [...expanded].slice(0, TILL_NAME_MAX).join('');
}
