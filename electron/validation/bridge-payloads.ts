import { z } from 'zod';
import { plainText, replaceControlCharacters } from './control-characters';
import { msg } from '../messages';

/**
 * What each bridge channel accepts from the renderer. The renderer is not trusted: a
 * payload that does not match is refused with a `validation` failure before anything
 * reaches the service. Objects are strict, so a stray field is an error, not ignored.
 * Text never carries control characters (see control-characters.ts): they are refused
 * with a message on the field, before the service or settings.json could store them.
 */

// Characters people and scanners put in phone numbers (as common/phone.ts reads them).
export const phone = plainText(msg('payload.phone.missing'))
  .trim()
  .min(1, msg('payload.phone.missing'))
  .max(32, msg('payload.phone.tooLong'))
  .regex(/^\+?[\d\s().-]+$/, msg('payload.phone.characters'))
  .refine((text) => text.replace(/\D/g, '').length >= 4, msg('payload.phone.tooShort'));

/**
 * Phones are read (and normalised to E.164) once, at the edge where they are typed: the
 * renderer, which needs E.164 for its cache and outbox anyway. The bridge passes on only
 * a phone that says its own country: international (`+…`), or local with `country_code`.
 */
function phoneSaysItsCountry(
  body: { phone?: string | undefined; country_code?: string | undefined },
  ctx: z.RefinementCtx,
): void {
  if (body.phone === undefined || body.phone.startsWith('+') || body.country_code !== undefined) return;
  ctx.addIssue({
    code: 'custom',
    path: ['phone'],
    message: msg('payload.phone.country'),
  });
}

export const countryCode = plainText()
  .trim()
  .regex(/^\d{1,4}$/, msg('payload.countryCode.digits'));

export const rewardCode = plainText(msg('payload.rewardCode.missing'))
  .trim()
  .max(64, msg('payload.rewardCode.tooLong'))
  .regex(/^RW-[A-Za-z0-9]+$/i, msg('payload.rewardCode.shape'))
  // Typed codes often arrive as "rw-..."; the prefix is fixed, the rest is passed on as shown.
  .transform((code) => `RW-${code.slice(3)}`);

export const name = plainText(msg('payload.name.missing'))
  .trim()
  .min(1, msg('payload.name.missing'))
  .max(200, msg('payload.name.tooLong'));

const email = plainText()
  .trim()
  .max(254, msg('payload.email.tooLong'))
  .pipe(z.email(msg('payload.email.invalid')));

const birthday = plainText()
  .trim()
  .pipe(z.iso.date(msg('payload.birthday.format')))
  .refine((date) => date <= new Date().toISOString().slice(0, 10), msg('payload.birthday.future'));

export const searchText = plainText()
  .trim()
  .min(1, msg('payload.search.empty'))
  .max(100, msg('payload.search.tooLong'));

/** A cashier's name (or POS number), as Settings lists it, a link names it and the page reports it. */
export const cashierName = plainText(msg('settings.cashiers.name'))
  .trim()
  .min(1, msg('settings.cashiers.name'))
  .max(60, msg('settings.cashiers.name'));

export const orderReference = plainText()
  .trim()
  .min(1, msg('payload.orderReference.empty'))
  .max(100, msg('payload.orderReference.tooLong'));

export const searchCustomersPayload = z
  .strictObject({
    phone: phone.optional(),
    country_code: countryCode.optional(),
    search: searchText.optional(),
    page: z.int(msg('payload.page.whole')).min(1, msg('payload.page.fromOne')).max(1_000_000).optional(),
    per_page: z
      .int(msg('payload.perPage.whole'))
      .min(1, msg('payload.perPage.atLeastOne'))
      .max(100, msg('payload.perPage.atMost'))
      .optional(),
  })
  .refine((query) => query.country_code === undefined || query.phone !== undefined, {
    path: ['country_code'],
    message: msg('payload.countryCode.needsPhone'),
  })
  .superRefine(phoneSaysItsCountry);

export const customerPagePayload = z.strictObject({
  page: z.int(msg('payload.page.whole')).min(1, msg('payload.page.fromOne')).max(1_000_000),
  per_page: z
    .int(msg('payload.perPage.whole'))
    .min(1, msg('payload.perPage.atLeastOne'))
    .max(100, msg('payload.perPage.atMost')),
  // An entity tag is visible ASCII (RFC 9110 8.8.3); anything else could forge a header.
  if_none_match: z
    .string()
    .max(256, msg('payload.entityTag.tooLong'))
    .regex(/^(W\/)?"[\x21\x23-\x7e]*"$/, msg('payload.entityTag.invalid'))
    .optional(),
});

export const getCustomerPayload = z.strictObject({ id: z.guid(msg('payload.customerId.uuid')) });

export const registerCustomerPayload = z
  .strictObject({
    name,
    phone,
    country_code: countryCode.optional(),
    email: email.optional(),
    birthday: birthday.optional(),
  })
  .superRefine(phoneSaysItsCountry);

export const updateCustomerPayload = z
  .strictObject({
    id: z.guid(msg('payload.customerId.uuid')),
    name: name.optional(),
    // null removes an email or birthday the customer no longer wants kept.
    email: email.nullable().optional(),
    birthday: birthday.nullable().optional(),
  })
  .refine((body) => body.name !== undefined || body.email !== undefined || body.birthday !== undefined, {
    path: ['_'],
    message: msg('payload.update.nothing'),
  });

export const checkRewardPayload = z
  .strictObject({
    reward_code: rewardCode,
    phone,
    country_code: countryCode.optional(),
  })
  .superRefine(phoneSaysItsCountry);

export const redeemRewardPayload = z
  .strictObject({
    reward_code: rewardCode,
    phone,
    country_code: countryCode.optional(),
    branch_id: z.guid(msg('payload.branchId.uuid')).optional(),
    order_reference: orderReference.optional(),
  })
  .superRefine(phoneSaysItsCountry);

export const setApiKeyPayload = z.strictObject({
  apiKey: plainText(msg('payload.apiKey.missing'))
    .trim()
    .min(8, msg('payload.apiKey.tooShort'))
    .max(512, msg('payload.apiKey.tooLong'))
    .regex(/^[\x21-\x7e]+$/, msg('payload.apiKey.characters')),
});

/**
 * A PIN to check: any short text (a PIN of the wrong shape is a wrong PIN, counted as one);
 * its value never appears in a message.
 */
export const verifyPinPayload = z.strictObject({ pin: z.string(msg('pin.format')).max(64, msg('pin.format')) });

/** A new manager PIN: 4 to 12 digits; null removes it. */
export const setPinPayload = z.strictObject({
  pin: z
    .string(msg('pin.format'))
    .regex(/^\d{4,12}$/, msg('pin.format'))
    .nullable(),
});

/** The report's file name: a plain name ending in .pdf, no folder (the manager picks the folder). */
export const reportPdfPayload = z.strictObject({
  fileName: z.string().regex(/^[\w.-]{1,80}\.pdf$/, msg('payload.fileName')),
});

/** A CSV export is at most this many characters: years of a till's journal, far below what fits in memory. */
export const MAX_EXPORT_CHARS = 4 * 1024 * 1024;

/** A CSV export: a plain name ending in .csv, no folder (the manager picks it), and its text. */
export const exportPayload = z.strictObject({
  fileName: z.string().regex(/^[\w.-]{1,80}\.csv$/, msg('payload.csvFileName')),
  csv: z.string(msg('payload.exportTooLarge')).max(MAX_EXPORT_CHARS, msg('payload.exportTooLarge')),
});

/** A reward the shop ledger is asked about or told of: the code only, never the customer. */
export const shopRewardPayload = z.strictObject({ reward_code: rewardCode });

/** The page's word on whether the till is idle, for the updater (electron/updates). */
export const tillActivityPayload = z.strictObject({
  customerOpen: z.boolean(msg('settings.yesOrNo')),
  inFlight: z
    .int(msg('payload.activity.inFlight'))
    .min(0, msg('payload.activity.inFlight'))
    .max(1000, msg('payload.activity.inFlight')),
  outboxDurable: z.boolean(msg('settings.yesOrNo')),
});

/** The page's report of how a redemption a link prepared ended (see pos-callback.ts). */
export const linkOutcomePayload = z.strictObject({
  link_id: z.uuid(msg('payload.linkId.uuid')),
  outcome: z.enum(['redeemed', 'queued', 'refused'], msg('payload.outcome')),
  reward_code: rewardCode,
  order_reference: orderReference.optional(),
  points_balance: z.int(msg('payload.balance.whole')).optional(),
  card_serial_number: z.string().trim().min(1).max(100).optional(),
  message: z
    .string()
    .transform((text) => truncate(text, 500))
    .optional(),
  cashier: cashierName.optional(),
});

/** Operations without a payload accept nothing (the preload sends `undefined`). */
export const noPayload = z.union([z.undefined(), z.null()], msg('payload.none'));

/** `dataKey` takes nothing: the page cannot choose a key, nor ask for one made to its liking. */
export const dataKeyPayload = noPayload;

/**
 * Renderer error reports are truncated rather than refused, and their control characters
 * replaced (a stack keeps its line breaks): losing the report helps no one.
 */
export const logErrorPayload = z.strictObject({
  message: z.string(msg('payload.errorReport.message')).transform((text) => truncate(visible(text), 2000)),
  source: z
    .string()
    .transform((text) => truncate(visible(text), 100))
    .optional(),
  stack: z
    .string()
    .transform((text) => truncate(text.split('\n').map(visible).join('\n'), 8000))
    .optional(),
});

function visible(text: string): string {
  return replaceControlCharacters(text.replace(/\t/g, ' '), '\ufffd');
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… [${text.length - max} more characters]` : text;
}
