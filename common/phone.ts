import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';

/** How the till reads what the cashier typed or scanned as a phone number. */
export interface PhoneReading {
  /** E.164, e.g. `+966501234567`: the form the service and the cache key on. */
  e164: string;
  /** International grouped form, e.g. `+966 50 123 4567`: the form shown. */
  international: string;
  /** ISO country the number belongs to, where libphonenumber can tell. */
  country: string | undefined;
  /** True when it was read as a local number with the till's default country. */
  local: boolean;
}

// Characters people and scanners put in phone numbers; anything else means "not a phone".
const PHONE_SHAPE = /^\+?[\d\s().-]+$/;

/** The digits of a string, e.g. for digit-substring search. */
export function digitsOf(text: string): string {
  return text.replace(/\D+/g, '');
}

/**
 * Reads a complete, valid phone number, international (`+44 7700 900123`, `0044...`) or
 * local with the till's default country (`050 123 4567` in SA). Returns null for anything
 * that is not one, including partial numbers, so that callers fall back to a text search.
 */
export function readPhone(input: string, defaultCountry: string): PhoneReading | null {
  let text = input.trim();
  if (!PHONE_SHAPE.test(text) || digitsOf(text).length < 6) return null;
  if (text.startsWith('00')) text = `+${text.slice(2)}`;
  const parsed = parsePhoneNumberFromString(text, defaultCountry.toUpperCase() as CountryCode);
  if (!parsed || !parsed.isValid()) return null;
  return {
    e164: parsed.number,
    international: parsed.formatInternational(),
    country: parsed.country,
    local: !text.startsWith('+'),
  };
}

/** International grouped form of a stored number; the input unchanged if it cannot be read. */
export function formatInternational(phone: string): string {
  const parsed = parsePhoneNumberFromString(phone.startsWith('+') ? phone : `+${digitsOf(phone)}`);
  return parsed ? parsed.formatInternational() : phone;
}

/** E.164 of a number the service returned in grouped international form. */
export function toE164(phone: string): string {
  return `+${digitsOf(phone)}`;
}
