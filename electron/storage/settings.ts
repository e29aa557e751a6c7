import { rename } from 'node:fs/promises';
import { isIPv4, isIPv6 } from 'node:net';
import { z } from 'zod';
import { isSupportedCountry } from 'libphonenumber-js';
import { ARABIC_DIGITS, INTERFACE_LANGUAGES, THEMES, type Settings, type SettingsPatch } from '../../common/contract';
import { JOURNAL_PERSONAL_DAYS } from '../../common/journal-retention';
import { readFileIfExists, writeFileAtomic } from './atomic-file';
import { describeError, type Logger } from '../log/log';
import { fieldErrors, parseOptions } from '../validation/validation-errors';
import { plainText } from '../validation/control-characters';
import { cashierName } from '../validation/bridge-payloads';
import { ENGLISH, msg, type MainMessageKey, type Wording } from '../messages';

/**
 * The shop ledger's TCP port unless Settings say otherwise (docs/shop-ledger.md): below
 * 49152, so Windows never hands it out as the local port of an outgoing connection, and
 * not a port a common service is known to use.
 */
export const DEFAULT_SHOP_LEDGER_PORT = 47231;

/** At most this many tills named in `shopPeers`. */
export const MAX_SHOP_PEERS = 16;

const HOST_NAME =
  /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

/** `host:port`, `[v6]:port`: the host (brackets removed) and the port, or null. */
export function parseShopPeer(text: string): { host: string; port: number } | null {
  const match = /^(\[[^\]]+\]|[^:[\]]+):(\d{1,5})$/.exec(text);
  if (!match) return null;
  const [, rawHost = '', rawPort = ''] = match;
  const port = Number(rawPort);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) return null;
  if (rawHost.startsWith('[')) {
    const host = rawHost.slice(1, -1);
    return isIPv6(host) ? { host, port } : null;
  }
  if (/^[\d.]+$/.test(rawHost)) return isIPv4(rawHost) ? { host: rawHost, port } : null;
  return HOST_NAME.test(rawHost) ? { host: rawHost, port } : null;
}

export const DEFAULT_SETTINGS: Settings = Object.freeze({
  baseUrl: null,
  defaultCountry: 'SA',
  branchId: null,
  tillName: 'Till 1',
  allowOfflineRedemption: true,
  programId: null,
  posCallbackUrl: null,
  theme: 'system',
  currency: null,
  language: null,
  arabicDigits: 'arab',
  cacheRefresh: Object.freeze({ everyHours: 24, windowFromHour: 2, windowToHour: 5 }),
  // On: offline redemption is on by default, and the ledger is what keeps it once per shop.
  shopLedger: true,
  shopRedeemWhenSplit: true,
  shopPeers: Object.freeze([]) as unknown as string[],
  shopLedgerPort: DEFAULT_SHOP_LEDGER_PORT,
  cashiers: Object.freeze([]) as unknown as Settings['cashiers'],
  // The customer display: no window until a screen is chosen; back to idle after 30 s.
  customerDisplayId: null,
  displayIdleSeconds: 30,
  journalPersonalDays: JOURNAL_PERSONAL_DAYS.default,
});

/** At most this many cashiers in Settings' list: a shop's staff, not a directory. */
export const MAX_CASHIERS = 50;

/** A cashier's number on the POS: letters, digits and `-`, short. */
export const cashierNumber = plainText(msg('settings.cashiers.number'))
  .trim()
  .regex(/^[A-Za-z0-9-]{1,20}$/, msg('settings.cashiers.number'));

/** The currencies this runtime can format: the same Intl data the renderer formats with. */
const KNOWN_CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** The messages that differ between the URLs the till keeps. */
interface UrlMessages {
  tooLong: MainMessageKey;
  notUrl: MainMessageKey;
  notHttps: MainMessageKey;
  credentials: MainMessageKey;
}

/**
 * A URL the till sends to: https, or plain http only to this machine (127.0.0.1, localhost,
 * [::1]), and never with a user name or password in it. `finish` checks the rest and gives
 * the stored form.
 */
function sendableUrl(words: UrlMessages, finish: (url: URL, ctx: z.RefinementCtx) => string) {
  return plainText()
    .trim()
    .max(2048, words.tooLong)
    .transform((text, ctx) => {
      let url: URL;
      try {
        url = new URL(text);
      } catch {
        ctx.addIssue({ code: 'custom', message: words.notUrl });
        return z.NEVER;
      }
      const loopback = LOOPBACK_HOSTS.has(url.hostname);
      if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
        ctx.addIssue({ code: 'custom', message: words.notHttps });
        return z.NEVER;
      }
      if (url.username || url.password) {
        ctx.addIssue({ code: 'custom', message: words.credentials });
        return z.NEVER;
      }
      return finish(url, ctx);
    });
}

/**
 * The service's base URL, normalised: no trailing slash, and no trailing `/v1` (the client
 * adds the version to every path, and people paste URLs copied from the docs).
 */
export const baseUrlSchema = sendableUrl(
  {
    tooLong: msg('settings.serviceUrl.tooLong'),
    notUrl: msg('settings.serviceUrl.notUrl'),
    notHttps: msg('settings.serviceUrl.notHttps'),
    credentials: msg('settings.serviceUrl.credentials'),
  },
  (url, ctx) => {
    if (url.search || url.hash) {
      ctx.addIssue({ code: 'custom', message: msg('settings.serviceUrl.queryOrFragment') });
      return z.NEVER;
    }
    const path = url.pathname.replace(/\/+$/, '').replace(/\/v1$/i, '');
    return `${url.protocol}//${url.host}${path}`;
  },
);

/**
 * The POS's callback for link outcomes. The same rule as the service URL (https, or http
 * to this machine only) and no user name or password; a query string is allowed, since a
 * POS may route on it. The outcome carries no secret, but it does name an order and a code.
 */
export const posCallbackUrlSchema = sendableUrl(
  {
    tooLong: msg('settings.callbackUrl.tooLong'),
    notUrl: msg('settings.callbackUrl.notUrl'),
    notHttps: msg('settings.callbackUrl.notHttps'),
    credentials: msg('settings.callbackUrl.credentials'),
  },
  (url, ctx) => {
    if (url.hash) {
      ctx.addIssue({ code: 'custom', message: msg('settings.callbackUrl.fragment') });
      return z.NEVER;
    }
    return url.href;
  },
);

/** A country the phone library knows, as a two-letter code (SA, GB). */
export const countrySchema = plainText()
  .trim()
  .transform((text) => text.toUpperCase())
  .refine((code) => /^[A-Z]{2}$/.test(code) && isSupportedCountry(code), {
    message: msg('settings.country'),
  });

/** What a change to the settings may hold; the organisation's policy checks its values with it too. */
export const settingsPatchSchema = z.strictObject({
  baseUrl: baseUrlSchema.nullable().optional(),
  defaultCountry: countrySchema.optional(),
  branchId: z.guid(msg('settings.branchId')).nullable().optional(),
  tillName: plainText()
    .trim()
    .min(1, msg('settings.tillName.missing'))
    .max(60, msg('settings.tillName.tooLong'))
    .optional(),
  allowOfflineRedemption: z.boolean(msg('settings.yesOrNo')).optional(),
  programId: z.guid(msg('settings.programId')).nullable().optional(),
  posCallbackUrl: posCallbackUrlSchema.nullable().optional(),
  theme: z.enum(THEMES, msg('settings.theme')).optional(),
  currency: z
    .string()
    .trim()
    .transform((text) => text.toUpperCase())
    .refine((code) => /^[A-Z]{3}$/.test(code) && KNOWN_CURRENCIES.has(code), {
      message: msg('settings.currency'),
    })
    .nullable()
    .optional(),
  language: z.enum(INTERFACE_LANGUAGES, msg('settings.language')).nullable().optional(),
  arabicDigits: z.enum(ARABIC_DIGITS, msg('settings.arabicDigits')).optional(),
  cacheRefresh: z
    .strictObject({
      everyHours: z
        .int(msg('settings.cacheRefresh.wholeHours'))
        .min(1, msg('settings.cacheRefresh.atMostHourly'))
        .max(168, msg('settings.cacheRefresh.atLeastWeekly')),
      windowFromHour: z
        .int(msg('settings.cacheRefresh.hour'))
        .min(0, msg('settings.cacheRefresh.hour'))
        .max(23, msg('settings.cacheRefresh.hour')),
      windowToHour: z
        .int(msg('settings.cacheRefresh.hour'))
        .min(0, msg('settings.cacheRefresh.hour'))
        .max(23, msg('settings.cacheRefresh.hour')),
    })
    .optional(),
  shopLedger: z.boolean(msg('settings.yesOrNo')).optional(),
  shopRedeemWhenSplit: z.boolean(msg('settings.yesOrNo')).optional(),
  shopPeers: z
    .array(
      plainText(msg('settings.shopPeers.address'))
        .max(300, msg('settings.shopPeers.address'))
        .refine((text) => parseShopPeer(text) !== null, msg('settings.shopPeers.address')),
      msg('settings.shopPeers.address'),
    )
    .max(MAX_SHOP_PEERS, msg('settings.shopPeers.tooMany'))
    .optional(),
  shopLedgerPort: z
    .int(msg('settings.shopLedgerPort'))
    .min(1024, msg('settings.shopLedgerPort'))
    .max(65_535, msg('settings.shopLedgerPort'))
    .optional(),
  cashiers: z
    .array(z.strictObject({ name: cashierName, number: cashierNumber.nullable() }), msg('settings.cashiers.name'))
    .max(MAX_CASHIERS, msg('settings.cashiers.tooMany'))
    .optional(),
  customerDisplayId: z
    .int(msg('settings.customerDisplayId'))
    .min(0, msg('settings.customerDisplayId'))
    .nullable()
    .optional(),
  displayIdleSeconds: z
    .int(msg('settings.displayIdleSeconds'))
    .min(10, msg('settings.displayIdleSeconds'))
    .max(600, msg('settings.displayIdleSeconds'))
    .optional(),
  journalPersonalDays: z
    .int(msg('settings.journalPersonalDays'))
    .min(JOURNAL_PERSONAL_DAYS.min, msg('settings.journalPersonalDays'))
    .max(JOURNAL_PERSONAL_DAYS.max, msg('settings.journalPersonalDays'))
    .optional(),
});

const settingsFileSchema = settingsPatchSchema.strip();

export type SettingsUpdate = { ok: true; settings: Settings } | { ok: false; fields: Record<string, string> };

export interface SettingsStore {
  get(): Settings;
  /** Validates and saves; field errors are worded in `wording` (English by default). */
  update(patch: unknown, wording?: Wording): Promise<SettingsUpdate>;
}

/** The settings a file holds (the defaults where it says nothing), or null when it cannot be read as settings. */
function settingsOf(raw: Buffer): Settings | null {
  try {
    const parsed = settingsFileSchema.safeParse(JSON.parse(raw.toString('utf8')));
    return parsed.success ? { ...DEFAULT_SETTINGS, ...stripUndefined(parsed.data) } : null;
  } catch {
    return null;
  }
}

/**
 * The settings file as it is, for a reader beside the till (the health check): the defaults
 * when there is none, null when it cannot be read; nothing is moved or written.
 */
export async function readSettingsFile(file: string): Promise<Settings | null> {
  const raw = await readFileIfExists(file);
  return raw ? settingsOf(raw) : { ...DEFAULT_SETTINGS };
}

/** Settings (nothing secret) as JSON in the user-data folder, validated on every write. */
export async function openSettings(options: { file: string; log: Logger }): Promise<SettingsStore> {
  const { file, log } = options;
  let current: Settings = { ...DEFAULT_SETTINGS };

  const raw = await readFileIfExists(file);
  if (raw) {
    const parsed = settingsOf(raw);
    if (parsed) {
      current = parsed;
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
    await writeFileAtomic(file, `${JSON.stringify(next, null, 2)}\n`, 0o600);
    current = next;
    return { ...next };
  }

  return {
    get: () => ({ ...current }),
    async update(patch, wording = ENGLISH) {
      const parsed = settingsPatchSchema.safeParse(patch ?? {}, parseOptions(wording));
      if (!parsed.success) return { ok: false, fields: fieldErrors(parsed.error, wording) };
      const saved = queue.then(() => apply(stripUndefined(parsed.data)));
      queue = saved.catch(() => undefined);
      return { ok: true, settings: await saved };
    },
  };
}

function stripUndefined(patch: z.infer<typeof settingsPatchSchema>): SettingsPatch {
  return Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as SettingsPatch;
}
