import { email } from 'zod/mini';
import { readPhone } from '../../../common/phone';
import { t } from '../../i18n';
import { countryLabel } from '../../lib/countries';

/** The register / correct form. Strings throughout so that whatever was typed survives a failure. */
export interface CustomerDraft {
  name: string;
  phone: string;
  email: string;
  birthday: string;
}

/**
 * The same rule the service applies to an email address (the main process checks it with zod's
 * `z.email()`); zod/mini's `email()` is that rule without the rest of zod in the page's bundle.
 */
const EMAIL = email();

/**
 * Every check of the form that needs no round trip, all at once, in the cashier's words, so
 * the cashier fixes the form in one go; the service has the last word, and its own field
 * messages replace these. The phone is read in the till's default country.
 */
export function formErrors(form: CustomerDraft, needsPhone: boolean, country: string): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!form.name.trim()) errors.name = t('customers.fields.nameMissing');
  if (needsPhone) {
    if (!form.phone.trim()) errors.phone = t('customers.fields.phoneMissing');
    else if (!readPhone(form.phone, country))
      errors.phone = t('customers.fields.phoneUnreadable', { country: countryLabel(country) });
  }
  const email = form.email.trim();
  if (email && !EMAIL.safeParse(email).success) errors.email = t('customers.fields.emailFormat');
  if (form.birthday) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(form.birthday) || Number.isNaN(Date.parse(form.birthday)))
      errors.birthday = t('customers.fields.birthdayFormat');
    else if (form.birthday > new Date().toISOString().slice(0, 10))
      errors.birthday = t('customers.fields.birthdayFuture');
  }
  return errors;
}
