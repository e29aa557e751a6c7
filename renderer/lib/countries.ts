import { getCountries, getCountryCallingCode, type CountryCode } from 'libphonenumber-js';
import { intlLocale } from '../i18n/format';
import { ltr } from '../i18n/isolate';

export interface CountryOption {
  code: string;
  label: string;
}

/**
 * Every country libphonenumber knows, named in the interface language and sorted by that
 * language's rules, for the default-country picker. The dialling code stays in Latin digits
 * with its `+`, the way it is dialled.
 */
export function countryOptions(): CountryOption[] {
  const locale = intlLocale();
  const names = new Intl.DisplayNames([locale], { type: 'region' });
  return getCountries()
    .map((code: CountryCode) => ({
      code,
      label: `${names.of(code) ?? code} (${ltr(`+${getCountryCallingCode(code)}`)})`,
    }))
    .sort((a, b) => a.label.localeCompare(b.label, locale));
}
