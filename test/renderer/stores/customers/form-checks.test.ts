/**
 * The register form's email check (renderer/stores/customers/form-checks.ts) is the rule the
 * main process applies to the same field (electron/validation/bridge-payloads.ts): the page
 * uses zod/mini's `email()`, the main process zod's; an address one accepts and the other
 * refuses would be refused only after the round trip, or let through only to be refused.
 */
import { expect, test } from 'vitest';
import { registerCustomerPayload } from '../../../../electron/validation/bridge-payloads';
import { formErrors } from '../../../../renderer/stores/customers/form-checks';

const ADDRESSES = [
  'layla.haddad@example.com',
  'omar+loyalty@mail.example.co.uk',
  'a@b.co',
  'first.last@sub-domain.example.org',
  'not an email',
  'missing-at.example.com',
  'two@@example.com',
  'a@b',
  '@example.com',
  'layla@.example.com',
  'layla@example..com',
  'layla haddad@example.com',
  '"quoted"@example.com',
];

test('the page accepts exactly the email addresses the main process accepts', () => {
  for (const address of ADDRESSES) {
    const page =
      formErrors({ name: 'Layla', phone: '', email: address, birthday: '' }, false, 'SA').email === undefined;
    const main = registerCustomerPayload.safeParse({ name: 'Layla', phone: '+966501234567', email: address }).success;
    expect(page, address).toBe(main);
  }
  // Both ways are tried: some pass and some fail.
  const accepted = ADDRESSES.filter(
    (address) => formErrors({ name: 'L', phone: '', email: address, birthday: '' }, false, 'SA').email === undefined,
  );
  expect(accepted.length).toBeGreaterThan(2);
  expect(accepted.length).toBeLessThan(ADDRESSES.length - 2);
});
