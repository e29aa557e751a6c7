import { getCountries, getCountryCallingCode, parsePhoneNumberFromString } from 'libphonenumber-js';

/** Every dialling code libphonenumber knows, e.g. `966`. */
const CALLING_CODES = new Set(getCountries().map((country) => String(getCountryCallingCode(country))));

export function isKnownCallingCode(code: string): boolean {
  return CALLING_CODES.has(code);
}

/**
 * Reads a phone as the service accepts it: international (`+...`), or local together with
 * a dialling code (`country_code`, digits without `+`). Returns E.164, or null when the
 * number is not a valid phone number for its country.
 */
export function normalisePhone(phone: string, countryCode?: string): string | null {
  const text = phone.trim();
  if (!/^\+?[\d\s().-]{4,32}$/.test(text)) return null;
  if (countryCode !== undefined && !isKnownCallingCode(countryCode)) return null;
  const parsed = text.startsWith('+')
    ? parsePhoneNumberFromString(text)
    : countryCode
      ? parsePhoneNumberFromString(text, { defaultCallingCode: countryCode })
      : undefined;
  return parsed?.isValid() ? parsed.number : null;
}
