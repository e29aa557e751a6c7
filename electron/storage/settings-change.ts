import { isDeepStrictEqual } from 'node:util';
import type { Settings } from '../../common/contract';
import { ENGLISH, type Wording } from '../messages';
import { parseOptions } from '../validation/validation-errors';
import { settingsPatchSchema } from './settings';

/**
 * Which of `keys` a change to the settings would really change: each value is compared as
 * it would be saved (a service URL pasted with `/v1/` is the same URL), so Settings can send
 * the whole form and only what differs counts. Null for a change that is not valid at all:
 * the settings store refuses it with its field errors and saves nothing.
 */
export function changedSettings(
  patch: unknown,
  current: Settings,
  keys: readonly string[],
  wording: Wording = ENGLISH,
): Array<keyof Settings> | null {
  const parsed = settingsPatchSchema.safeParse(patch ?? {}, parseOptions(wording));
  if (!parsed.success) return null;
  const values = parsed.data as Record<string, unknown>;
  return keys.filter(
    (key) => values[key] !== undefined && !isDeepStrictEqual(values[key], current[key as keyof Settings]),
  ) as Array<keyof Settings>;
}
