import { rename } from 'node:fs/promises';
import { z } from 'zod';
import { isSupportedCountry } from 'libphonenumber-js';
import type { Settings, SettingsPatch } from './contract';
import { readFileIfExists, writeFileAtomic } from './atomic-file';
import { describeError, type Logger } from './log';
import { fieldErrors } from './validation-errors';

export const DEFAULT_SETTINGS: Settings = Object.freeze({
  baseUrl: null,
  defaultCountry: 'SA',
  branchId: null,
  tillName: 'Till 1',
  allowOfflineRedemption: true,
  programId: null,
  cacheRefresh: Object.freeze({ everyHours: 24, windowFromHour: 2, windowToHour: 5 }),
});

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * The service's base URL, normalised: no trailing slash, and no trailing `/v1` (the client
 * adds the version to every path, and people paste URLs copied from the docs).
 */
export const baseUrlSchema = z
  .string()
  .trim()
  .max(2048, 'The service URL is too long.')
  .transform((text, ctx) => {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'Enter the full service URL, starting with https://.' });
      return z.NEVER;
    }
    const loopback = LOOPBACK_HOSTS.has(url.hostname);
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
      ctx.addIssue({
        code: 'custom',
        message: 'The service URL must start with https:// (plain http is allowed only for 127.0.0.1 or localhost).',
      });
      return z.NEVER;
    }
    if (url.username || url.password) {
      ctx.addIssue({ code: 'custom', message: 'Do not put a user name or password in the URL: set the API key instead.' });
      return z.NEVER;
    }
    if (url.search || url.hash) {
      ctx.addIssue({ code: 'custom', message: 'The service URL must not contain ? or #.' });
      return z.NEVER;
    }
    const path = url.pathname.replace(/\/+$/, '').replace(/\/v1$/i, '');
    return `${url.protocol}//${url.host}${path}`;
  });

const settingsPatchSchema = z.strictObject({
  baseUrl: baseUrlSchema.nullable().optional(),
  defaultCountry: z
    .string()
    .trim()
    .transform((text) => text.toUpperCase())
    .refine((code) => /^[A-Z]{2}$/.test(code) && isSupportedCountry(code), {
      message: 'Choose a two-letter country code, such as SA or GB.',
    })
    .optional(),
  branchId: z.guid('The branch id must be a UUID, as issued by the loyalty service.').nullable().optional(),
  tillName: z
    .string()
    .trim()
    .min(1, 'Give the till a name.')
    .max(60, 'The till name can be at most 60 characters.')
    .optional(),
  allowOfflineRedemption: z.boolean('Choose yes or no.').optional(),
  programId: z.guid('The programme id must be a UUID, as the loyalty service shows it on cards.').nullable().optional(),
  cacheRefresh: z
    .strictObject({
      everyHours: z.int('Choose a whole number of hours.').min(1, 'At most once an hour.').max(168, 'At least once a week.'),
      windowFromHour: z.int('Choose an hour from 0 to 23.').min(0, 'Choose an hour from 0 to 23.').max(23, 'Choose an hour from 0 to 23.'),
      windowToHour: z.int('Choose an hour from 0 to 23.').min(0, 'Choose an hour from 0 to 23.').max(23, 'Choose an hour from 0 to 23.'),
    })
    .optional(),
});

const settingsFileSchema = settingsPatchSchema.strip();

export type SettingsUpdate = { ok: true; settings: Settings } | { ok: false; fields: Record<string, string> };

export interface SettingsStore {
  get(): Settings;
  update(patch: unknown): Promise<SettingsUpdate>;
}

/** Settings (nothing secret) as JSON in the user-data folder, validated on every write. */
export async function openSettings(options: { file: string; log: Logger }): Promise<SettingsStore> {
  const { file, log } = options;
  let current: Settings = { ...DEFAULT_SETTINGS };

  const raw = await readFileIfExists(file);
  if (raw) {
    const parsed = (() => {
      try {
        return settingsFileSchema.safeParse(JSON.parse(raw.toString('utf8')));
      } catch {
        return null;
      }
    })();
    if (parsed?.success) {
      current = { ...DEFAULT_SETTINGS, ...stripUndefined(parsed.data) };
    } else {
      // Keep the unreadable file for inspection rather than overwriting it on the next save.
      const aside = `${file}.unreadable-${Date.now()}`;
      await rename(file, aside).catch((error) => log.warn(`Could not move ${file} aside: ${describeError(error)}`));
      log.warn(`The settings file could not be read; defaults are in use and the old file was kept as ${aside}.`);
    }
  }

  // Updates run one at a time: two overlapping saves must not lose either change, nor
  // leave the file older than what the app believes.
  let queue: Promise<unknown> = Promise.resolve();
  async function apply(patch: SettingsPatch): Promise<Settings> {
    const next: Settings = { ...current, ...patch };
    await writeFileAtomic(file, `${JSON.stringify(next, null, 2)}\n`, 0o644);
    current = next;
    return { ...next };
  }

  return {
    get: () => ({ ...current }),
    async update(patch) {
      const parsed = settingsPatchSchema.safeParse(patch ?? {});
      if (!parsed.success) return { ok: false, fields: fieldErrors(parsed.error) };
      const saved = queue.then(() => apply(stripUndefined(parsed.data)));
      queue = saved.catch(() => undefined);
      return { ok: true, settings: await saved };
    },
  };
}

function stripUndefined(patch: z.infer<typeof settingsPatchSchema>): SettingsPatch {
  return Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as SettingsPatch;
}
