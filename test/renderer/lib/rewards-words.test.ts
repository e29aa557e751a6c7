/**
 * An offline check answers with a verdict, never words; the view layer words each verdict in
 * the interface language of the moment.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { applyInterfaceLocale } from '../../../renderer/i18n/interface-locale';
import { offlineVerdictWords } from '../../../renderer/lib/rewards-words';
import type { OfflineVerdict } from '../../../renderer/vocabulary/rewards';

const VERDICTS: OfflineVerdict[] = [
  'available',
  'pending',
  'redeemed',
  'expired',
  'no_longer_listed',
  'wrong_customer',
  'unverifiable',
  'invalid_phone',
];

describe('an offline check, in words', () => {
  afterEach(() => applyInterfaceLocale({ language: 'en', arabicDigits: 'arab' }, null));

  test('each verdict has its own words, in English and in Arabic', () => {
    const english = VERDICTS.map(offlineVerdictWords);
    expect(new Set(english).size).toBe(VERDICTS.length);
    expect(offlineVerdictWords('unverifiable')).toBe('This code cannot be verified offline: it is not in the cache.');
    expect(offlineVerdictWords('wrong_customer')).toBe('This code does not belong to this phone number.');
    applyInterfaceLocale({ language: 'ar', arabicDigits: 'arab' }, null);
    const arabic = VERDICTS.map(offlineVerdictWords);
    expect(new Set(arabic).size).toBe(VERDICTS.length);
    for (const words of arabic) expect(words).not.toMatch(/[A-Za-z]/);
  });
});
