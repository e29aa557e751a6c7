/**
 * Which currency a till counts in. Amounts themselves are formatted by i18n/format.ts
 * (`formatMoney`), in the interface locale and digits.
 */
import countryToCurrency from 'country-to-currency';
import { t } from '../i18n';

/** The ISO 4217 currency of a country (ISO 3166-1 alpha-2), or null when none is known. */
export function currencyOfCountry(country: string): string | null {
  return (countryToCurrency as Record<string, string | undefined>)[country.toUpperCase()] ?? null;
}

/**
 * The currencies offered in Settings: every code this runtime can format, named in the
 * interface language, joined as that language's catalogue joins them.
 */
export function currencyOptions(locale: string): Array<{ code: string; label: string }> {
  const names = new Intl.DisplayNames([locale], { type: 'currency' });
  return Intl.supportedValuesOf('currency').map((code) => ({
    code,
    label: t('currencies.withName', { code, name: names.of(code) ?? code }),
  }));
}
