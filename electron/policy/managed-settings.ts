import { isRecord } from '../../common/is-record';
import type { SettingsStore, SettingsUpdate } from '../storage/settings';
import { changedSettings } from '../storage/settings-change';
import { ENGLISH, describe, type Wording } from '../messages';
import { applyPolicy, type EffectiveSettings } from './policy-merge';
import type { Policy } from './policy-schema';

export interface ManagedSettingsStore extends SettingsStore {
  /** The settings the policy locks right now. */
  locked(): readonly string[];
}

/**
 * The till's settings as the rest of the main process sees them: its own with the
 * organisation's policy over them. A change to a locked setting is refused on the field,
 * whoever asks (Settings disables the field; a page calling the bridge directly is refused
 * here); a change that repeats the locked value is accepted, so Settings can save the whole
 * form. Unlocked fields of the same change are not saved either: a change is whole or nothing.
 */
export function createManagedSettings(options: {
  own: SettingsStore;
  policy: () => Policy | null;
  computerName: () => string;
}): ManagedSettingsStore {
  const { own, policy, computerName } = options;
  const effective = (): EffectiveSettings => applyPolicy(own.get(), policy(), computerName());

  return {
    get: () => ({ ...effective().settings }),
    locked: () => effective().locked,
    async update(patch, wording: Wording = ENGLISH): Promise<SettingsUpdate> {
      const { settings, locked } = effective();
      const changed = locked.length > 0 && isRecord(patch) ? changedSettings(patch, settings, locked, wording) : null;
      // Field errors of an invalid change come from the store itself, worded as always.
      if (changed) {
        if (changed.length > 0)
          return {
            ok: false,
            fields: Object.fromEntries(changed.map((key) => [key, describe(wording, 'settings.managed')])),
          };
        const unlocked = Object.fromEntries(
          Object.entries(patch as Record<string, unknown>).filter(([key]) => !locked.includes(key as never)),
        );
        const saved = await own.update(unlocked, wording);
        return saved.ok ? { ok: true, settings: effective().settings } : saved;
      }
      const saved = await own.update(patch, wording);
      return saved.ok ? { ok: true, settings: effective().settings } : saved;
    },
  };
}
