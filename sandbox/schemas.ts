/**
 * Request schemas. Every body is a strict object: an unknown field is refused rather than
 * ignored, so a caller never believes a change was made that was not.
 */
import { z } from 'zod';
import { FIELD_REQUIRED, invalid, type FieldErrors } from './errors';
import { isKnownCallingCode } from './phones';

const uuid = z.guid('Must be a UUID.');
const digitsString = (field: string) => z.string().regex(/^\d+$/, `${field} must be a whole number.`);

const name = z.string().trim().min(1, 'The name is required.').max(200, 'At most 200 characters.');
const email = z.string().trim().max(254, 'At most 254 characters.').pipe(z.email('Not a valid email address.'));
// Each check stops the ones after it, so a wrong birthday gets the one message that fits
// ("z" is not called a future date, 2023-02-30 is called not a real date).
const birthday = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'Use the form YYYY-MM-DD.', abort: true })
  .refine(isCalendarDate, { message: 'Not a real date.', abort: true })
  .refine((value) => value <= new Date().toISOString().slice(0, 10), 'The birthday cannot be in the future.');
const phone = z.string().trim().min(1, 'The phone number is required.').max(32, 'At most 32 characters.');
const countryCode = z
  .string()
  .regex(/^\d{1,4}$/, 'A dialling code without +, e.g. 966.')
  .refine(isKnownCallingCode, 'No country has this dialling code.');
const rewardCode = z
  .string()
  .trim()
  .max(64, 'At most 64 characters.')
  // Codes match case-insensitively, the prefix too: a cashier may type "rw-layla001".
  .regex(/^RW-[A-Za-z0-9]+$/i, 'A reward code is RW- followed by letters and digits.');

function isCalendarDate(value: string): boolean {
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

// UUIDs are case-insensitive on input (RFC 4122); ids are stored in lower case.
export const customerIdParams = z.strictObject({ id: uuid.transform((id) => id.toLowerCase()) });

export const searchQuery = z.strictObject({
  phone: phone.optional(),
  country_code: countryCode.optional(),
  search: z.string().trim().min(1, 'Say what to search for.').max(100, 'At most 100 characters.').optional(),
  page: digitsString('page')
    .transform(Number)
    .pipe(z.number().int().min(1, 'Pages start at 1.').max(1_000_000))
    .optional(),
  per_page: digitsString('per_page')
    .transform(Number)
    .pipe(z.number().int().min(1, 'At least 1.').max(100, 'At most 100.'))
    .optional(),
});

export const registerBody = z.strictObject({
  name,
  phone,
  country_code: countryCode.optional(),
  email: email.optional(),
  birthday: birthday.optional(),
});

export const updateBody = z.strictObject({
  name: name.optional(),
  email: email.nullable().optional(),
  birthday: birthday.nullable().optional(),
});

export const checkBody = z.strictObject({
  reward_code: rewardCode,
  phone,
  country_code: countryCode.optional(),
});

export const redeemBody = z.strictObject({
  reward_code: rewardCode,
  phone,
  country_code: countryCode.optional(),
  branch_id: uuid.optional(),
  order_reference: z
    .string()
    .trim()
    .min(1, 'Leave it out rather than empty.')
    .max(100, 'At most 100 characters.')
    .optional(),
});

/** Parses input or throws a 422 naming each field that is wrong. */
export function parseOrReject<T extends z.ZodType>(schema: T, input: unknown, extra?: FieldErrors): z.output<T> {
  const result = schema.safeParse(input ?? {});
  if (result.success && !extra) return result.data;
  // Without a prototype: field names come from the caller, and one called "constructor" or
  // "__proto__" must be reported as a field, not collide with Object.prototype (a 500).
  const fields: FieldErrors = Object.assign(Object.create(null) as FieldErrors, extra);
  const add = (field: string, message: string) => (fields[field] ??= []).push(message);
  if (!result.success) {
    for (const issue of result.error.issues) {
      if (issue.code === 'unrecognized_keys') {
        for (const key of issue.keys) add(key, 'This field is not accepted here.');
      } else if (issue.code === 'invalid_type' && issue.path.length === 0) {
        add('body', 'The body must be a JSON object.');
      } else if (issue.code === 'invalid_type') {
        const missing = valueAt(input, issue.path) === undefined;
        add(issue.path.join('.'), missing ? FIELD_REQUIRED : `Must be of type ${issue.expected}.`);
      } else {
        add(issue.path.join('.') || 'body', issue.message);
      }
    }
  }
  throw invalid(fields);
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}
