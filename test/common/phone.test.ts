import { describe, expect, test } from 'vitest';
import { readPhone } from '../../common/phone';

// The one place phones are read: what the cashier typed or scanned, to E.164, with the
// till's default country for local numbers. The bridge passes on only what this produces.

describe('readPhone', () => {
  test("reads a local number with the till's default country", () => {
    expect(readPhone('050 123 4567', 'SA')).toEqual({
      e164: '+966501234567',
      international: '+966 50 123 4567',
      country: 'SA',
      local: true,
    });
    expect(readPhone('07911 123456', 'gb')?.e164).toBe('+447911123456');
  });

  test('reads international numbers, with + or the 00 prefix, whatever the default country', () => {
    for (const typed of ['+966 50 123 4567', '00966501234567', ' +966-50-123-4567 ', '+966 (50) 123.4567']) {
      expect(readPhone(typed, 'GB'), typed).toMatchObject({ e164: '+966501234567', local: false });
    }
  });

  test('anything that is not a complete valid phone is null, so the caller searches text instead', () => {
    for (const typed of ['Layla', '0501', '+966 50', '050 123 4567 ext 2', '', '12345678901234567890']) {
      expect(readPhone(typed, 'SA'), typed).toBeNull();
    }
  });
});
