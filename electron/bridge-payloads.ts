import { z } from 'zod';
import { plainText, replaceControlCharacters } from './control-characters';

/**
 * What each bridge channel accepts from the renderer. The renderer is not trusted: a
 * payload that does not match is refused with a `validation` failure before anything
 * reaches the service. Objects are strict, so a stray field is an error, not ignored.
 * Text never carries control characters (see control-characters.ts): they are refused
 * with a message on the field, before the service or settings.json could store them.
 */

const uuid = (what: string) => z.guid(`${what} must be a UUID.`);

// Characters people and scanners put in phone numbers (as renderer/lib/phone.ts reads them).
export const phone = plainText('Enter a phone number.')
  .trim()
  .min(1, 'Enter a phone number.')
  .max(32, 'The phone number is too long.')
  .regex(/^\+?[\d\s().-]+$/, 'A phone number may contain only digits, spaces, brackets, dots, dashes and a leading +.')
  .refine((text) => text.replace(/\D/g, '').length >= 4, 'The phone number is too short.');

/**
 * Phones are read (and normalised to E.164) once, at the edge where they are typed: the
 * renderer, which needs E.164 for its cache and outbox anyway. The bridge passes on only
 * a phone that says its own country: international (`+…`), or local with `country_code`.
 */
function phoneSaysItsCountry(body: { phone?: string | undefined; country_code?: string | undefined }, ctx: z.RefinementCtx): void {
  if (body.phone === undefined || body.phone.startsWith('+') || body.country_code !== undefined) return;
  ctx.addIssue({
    code: 'custom',
    path: ['phone'],
    message: 'Give the phone in international form (starting with +), or with its country calling code.',
  });
}

export const countryCode = plainText()
  .trim()
  .regex(/^\d{1,4}$/, 'The country calling code is 1 to 4 digits, without +.');

export const rewardCode = plainText('Enter the reward code.')
  .trim()
  .max(64, 'The reward code is too long.')
  .regex(/^RW-[A-Za-z0-9]+$/i, 'A reward code looks like RW- followed by letters and digits.')
  // Typed codes often arrive as "rw-..."; the prefix is fixed, the rest is passed on as shown.
  .transform((code) => `RW-${code.slice(3)}`);

export const name = plainText('Enter the name.')
  .trim()
  .min(1, 'Enter the name.')
  .max(200, 'The name can be at most 200 characters.');

const email = plainText().trim().max(254, 'The email address is too long.').pipe(z.email('Enter a valid email address.'));

const birthday = plainText()
  .trim()
  .pipe(z.iso.date('Enter the birthday as YYYY-MM-DD.'))
  .refine((date) => date <= new Date().toISOString().slice(0, 10), 'The birthday cannot be in the future.');

export const searchText = plainText().trim().min(1, 'Type something to search for.').max(100, 'The search is too long.');

export const orderReference = plainText()
  .trim()
  .min(1, 'The order reference is empty.')
  .max(100, 'The order reference can be at most 100 characters.');

export const searchCustomersPayload = z
  .strictObject({
    phone: phone.optional(),
    country_code: countryCode.optional(),
    search: searchText.optional(),
    page: z.int('The page must be a whole number.').min(1, 'Pages start at 1.').max(1_000_000).optional(),
    per_page: z.int('Results per page must be a whole number.').min(1, 'At least 1 per page.').max(100, 'At most 100 per page.').optional(),
  })
  .refine((query) => query.country_code === undefined || query.phone !== undefined, {
    path: ['country_code'],
    message: 'A country code is only used together with a phone number.',
  })
  .superRefine(phoneSaysItsCountry);

export const customerPagePayload = z.strictObject({
  page: z.int('The page must be a whole number.').min(1, 'Pages start at 1.').max(1_000_000),
  per_page: z.int('Results per page must be a whole number.').min(1, 'At least 1 per page.').max(100, 'At most 100 per page.'),
  // An entity tag is visible ASCII (RFC 9110 8.8.3); anything else could forge a header.
  if_none_match: z
    .string()
    .max(256, 'The entity tag is too long.')
    .regex(/^(W\/)?"[\x21\x23-\x7e]*"$/, 'Not an entity tag.')
    .optional(),
});

export const getCustomerPayload = z.strictObject({ id: uuid('The customer id') });

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
    id: uuid('The customer id'),
    name: name.optional(),
    // null removes an email or birthday the customer no longer wants kept.
    email: email.nullable().optional(),
    birthday: birthday.nullable().optional(),
  })
  .refine((body) => body.name !== undefined || body.email !== undefined || body.birthday !== undefined, {
    path: ['_'],
    message: 'Nothing to change: give a name, email or birthday.',
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
    branch_id: uuid('The branch id').optional(),
    order_reference: orderReference.optional(),
  })
  .superRefine(phoneSaysItsCountry);

export const setApiKeyPayload = z.strictObject({
  apiKey: plainText('Enter the API key.')
    .trim()
    .min(8, 'That is too short to be an API key.')
    .max(512, 'That is too long to be an API key.')
    .regex(/^[\x21-\x7e]+$/, 'An API key has no spaces or special characters; paste it exactly as issued.'),
});

/** The page's report of how a redemption a link prepared ended (see pos-callback.ts). */
export const linkOutcomePayload = z.strictObject({
  link_id: z.uuid('The link id must be a UUID.'),
  outcome: z.enum(['redeemed', 'queued', 'refused'], 'The outcome is redeemed, queued or refused.'),
  reward_code: rewardCode,
  order_reference: orderReference.optional(),
  points_balance: z.int('The balance must be a whole number.').optional(),
  card_serial_number: z.string().trim().min(1).max(100).optional(),
  message: z
    .string()
    .transform((text) => truncate(text, 500))
    .optional(),
});

/** Operations without a payload accept nothing (the preload sends `undefined`). */
export const noPayload = z.union([z.undefined(), z.null()], 'This operation takes no data.');

/**
 * Renderer error reports are truncated rather than refused, and their control characters
 * replaced (a stack keeps its line breaks): losing the report helps no one.
 */
export const reportErrorPayload = z.strictObject({
  message: z.string('The error report needs a message.').transform((text) => truncate(visible(text), 2000)),
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

/** For payloads validated by their own module (settings): anything, checked there. */
export const anyPayload = z.unknown();
