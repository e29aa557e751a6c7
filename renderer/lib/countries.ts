import { getCountries, getCountryCallingCode, type CountryCode } from 'libphonenumber-js';
import { t } from '../i18n';
import { intlLocale } from '../i18n/format';
import { ltr } from '../i18n/isolate';

export interface CountryOption {
  code: string;
  label: string;
}

const KNOWN = new Set<string>(getCountries());

/** A country's name in the interface language ("Saudi Arabia"), or its code where Intl has no name. */
export function countryName(code: string): string {
  return new Intl.DisplayNames([intlLocale()], { type: 'region' }).of(code) ?? code;
}

/**
 * A country as a person reads it, with the code they dial: "Saudi Arabia (+966)". The
 * dialling code stays in Latin digits with its `+`, the way it is dialled; the joining is
 * the catalogue's, so each language punctuates it its own way.
 */
export function countryLabel(code: string): string {
  if (!KNOWN.has(code)) return countryName(code);
  return t('countries.withCode', {
    name: countryName(code),
    code: ltr(`+${getCountryCallingCode(code as CountryCode)}`),
  });
}

/**
 * Every country libphonenumber knows, named in the interface language and sorted by that
 * language's rules, for the default-country picker.
 */
export function countryOptions(): CountryOption[] {
  const locale = intlLocale();
  return getCountries()
    .map((code: CountryCode) => ({ code, label: countryLabel(code) }))
    .sort((a, b) => a.label.localeCompare(b.label, locale));
}
