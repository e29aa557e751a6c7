import { z } from 'zod';
import { settingsPatchSchema } from '../storage/settings';
import { plainText } from '../validation/control-characters';
import { msg } from '../messages';
import { isPolicyPinHash } from '../storage/manager-pin';

/**
 * The organisation's policy, version 1 (docs/operations.md#the-policy). One JSON object:
 *
 * - `settings`: values the organisation sets and locks; Settings shows them as set by the
 *   organisation and the bridge refuses any other value.
 * - `defaults`: values a till takes while it still has the built-in value; a cashier may
 *   change them (Slack's "defaults", as against enforced values).
 * - `updates`: whether, from where and when the till updates itself.
 * - `managerPinHash`: the manager PIN as a PHC scrypt string, for the PIN's guard.
 * - `health`: what makes the till's health check say "needs attention" (electron/health/).
 *
 * Every value is checked with the schema Settings uses, so a policy cannot set what a
 * cashier could not; unknown keys are errors, not ignored, so a misspelt key is not a
 * setting that silently never applies.
 */
export const POLICY_SCHEMA_VERSION = 1;

/** A policy file larger than this is refused unread: a real one is a few hundred bytes. */
export const MAX_POLICY_BYTES = 64 * 1024;

/** The settings a policy may set (and lock): the till's connection, identity, looks and behaviour. */
export const MANAGED_SETTING_KEYS = [
  'baseUrl',
  'branchId',
  'tillName',
  'defaultCountry',
  'language',
  'arabicDigits',
  'theme',
  'allowOfflineRedemption',
  'posCallbackUrl',
  'cacheRefresh',
  'shopLedger',
  'shopRedeemWhenSplit',
  'shopPeers',
  'shopLedgerPort',
  'journalPersonalDays',
] as const;

export type ManagedSettingKey = (typeof MANAGED_SETTING_KEYS)[number];

/** The placeholder a policy's till name may hold: the computer's own name, e.g. `Till {computerName}`. */
export const COMPUTER_NAME_PLACEHOLDER = '{computerName}';

const managedSettingsSchema = settingsPatchSchema.pick(
  Object.fromEntries(MANAGED_SETTING_KEYS.map((key) => [key, true])) as Record<ManagedSettingKey, true>,
);

/** A semantic version without a leading `v`: `1.4.2`, `2.0.0-beta.1`. */
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

/** An update feed: https, or http to this machine only (a local mirror while testing). */
const feedUrl = plainText()
  .trim()
  .max(2048, msg('policy.updates.feedUrl'))
  .refine((text) => {
    try {
      const url = new URL(text);
      const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
      return (url.protocol === 'https:' || (url.protocol === 'http:' && loopback)) && !url.username && !url.password;
    } catch {
      return false;
    }
  }, msg('policy.updates.feedUrl'));

const hour = z
  .int(msg('settings.cacheRefresh.hour'))
  .min(0, msg('settings.cacheRefresh.hour'))
  .max(23, msg('settings.cacheRefresh.hour'));

export const updatesPolicySchema = z.strictObject({
  /** false: the till never checks, downloads or installs an update. */
  enabled: z.boolean(msg('settings.yesOrNo')).optional(),
  /** The generic feed's folder (where `latest.yml` lies); the build's own when absent. */
  feedUrl: feedUrl.optional(),
  /** `latest` unless told: the feed file read is `<channel>.yml` (`<channel>-mac.yml` on macOS). */
  channel: z
    .string(msg('policy.updates.channel'))
    .regex(/^[a-z][a-z0-9-]{0,31}$/, msg('policy.updates.channel'))
    .optional(),
  /** Install this version and no other: the chain moves every till to it when it is ready. */
  pinVersion: z.string(msg('policy.updates.version')).regex(SEMVER, msg('policy.updates.version')).optional(),
  /** When an idle till installs a downloaded update: local hours, past midnight when `toHour` < `fromHour`. */
  installWindow: z.strictObject({ fromHour: hour, toHour: hour }).optional(),
  /** Hours between two looks at the feed. */
  checkEveryHours: z
    .int(msg('settings.cacheRefresh.wholeHours'))
    .min(1, msg('settings.cacheRefresh.atMostHourly'))
    .max(168, msg('settings.cacheRefresh.atLeastWeekly'))
    .optional(),
});

export type UpdatesPolicy = z.output<typeof updatesPolicySchema>;

const wholeFrom = (min: number, max: number) =>
  z.int(msg('policy.health.whole')).min(min, msg('policy.health.whole')).max(max, msg('policy.health.whole'));

/** The health check's thresholds (docs/operations.md, "Watching the tills"); each absent one keeps its default. */
export const healthPolicySchema = z.strictObject({
  /** Hours a queued item may wait before the till needs attention. */
  waitingHours: wholeFrom(1, 720).optional(),
  /** Hours a failed or conflicting item may stay unacknowledged (0: it needs attention at once). */
  unacknowledgedHours: wholeFrom(0, 720).optional(),
  /** Days without a complete refresh of the offline cache. */
  refreshDays: wholeFrom(1, 90).optional(),
  /** Hours the service may stay unreachable. */
  offlineHours: wholeFrom(1, 720).optional(),
});

export type HealthPolicy = z.output<typeof healthPolicySchema>;

/**
 * A PHC-format scrypt hash (`$scrypt$ln=15,r=8,p=1$<salt>$<hash>`, base64 without padding), as
 * the manager PIN is kept in the main process: the PIN itself is never in a policy.
 */
export const MANAGER_PIN_HASH =
  /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,3}),p=(\d{1,3})\$[A-Za-z0-9+/]{16,88}\$[A-Za-z0-9+/]{32,172}$/;

export const policySchema = z.strictObject({
  schemaVersion: z.literal(POLICY_SCHEMA_VERSION, msg('policy.version')),
  settings: managedSettingsSchema.optional(),
  defaults: managedSettingsSchema.optional(),
  updates: updatesPolicySchema.optional(),
  health: healthPolicySchema.optional(),
  managerPinHash: z
    .string(msg('policy.managerPinHash'))
    .regex(MANAGER_PIN_HASH, msg('policy.managerPinHash'))
    // Checked as the till's own are, with OWASP's floor: never weak, never costly, never unopenable.
    .refine(isPolicyPinHash, msg('policy.managerPinHashCost'))
    .optional(),
});

export type Policy = z.output<typeof policySchema>;
