import { isDeepStrictEqual } from 'node:util';
import type { Settings } from '../../common/contract';
import { isRecord } from '../../common/is-record';
import { settingsPatchSchema, type SettingsStore, type SettingsUpdate } from '../storage/settings';
import { ENGLISH, describe, type Wording } from '../messages';
import { parseOptions } from '../validation/validation-errors';
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
      if (locked.length > 0 && isRecord(patch)) {
        const parsed = settingsPatchSchema.safeParse(patch, parseOptions(wording));
        // Field errors of an invalid change come from the store itself, worded as always.
        if (parsed.success) {
          const refusedFields: Record<string, string> = {};
          for (const key of locked) {
            const value = (parsed.data as Record<string, unknown>)[key];
            if (value !== undefined && !isDeepStrictEqual(value, settings[key as keyof Settings])) {
              refusedFields[key] = describe(wording, 'settings.managed');
            }
          }
          if (Object.keys(refusedFields).length > 0) return { ok: false, fields: refusedFields };
          const unlocked = Object.fromEntries(Object.entries(patch).filter(([key]) => !locked.includes(key as never)));
          const saved = await own.update(unlocked, wording);
          return saved.ok ? { ok: true, settings: effective().settings } : saved;
        }
      }
      const saved = await own.update(patch, wording);
      return saved.ok ? { ok: true, settings: effective().settings } : saved;
    },
  };
}
