import countryToCurrency from 'country-to-currency';

/** The ISO 4217 currency of a country (ISO 3166-1 alpha-2), or null when none is known. */
export function currencyOfCountry(country: string): string | null {
  return (countryToCurrency as Record<string, string | undefined>)[country.toUpperCase()] ?? null;
}

const formatters = new Map<string, Intl.NumberFormat>();

/**
 * An amount the service gives as a plain number ("spent"), in the till's currency. The
 * service does not say in which unit `spent` is counted; it is shown as whole amounts of
 * the currency. Without a currency the number is shown grouped and nothing is made up.
 */
export function formatMoney(amount: number, currency: string | null, locale = 'en-GB'): string {
  if (!currency) return amount.toLocaleString(locale);
  const key = `${locale}|${currency}`;
  let format = formatters.get(key);
  if (!format) {
    try {
      format = new Intl.NumberFormat(locale, { style: 'currency', currency });
    } catch {
      return amount.toLocaleString(locale);
    }
    formatters.set(key, format);
  }
  return format.format(amount);
}

/** The currencies offered in Settings: every code this runtime can format, named in English. */
export function currencyOptions(locale = 'en'): Array<{ code: string; label: string }> {
  const names = new Intl.DisplayNames([locale], { type: 'currency' });
  return Intl.supportedValuesOf('currency').map((code) => ({ code, label: `${code} — ${names.of(code) ?? code}` }));
}
