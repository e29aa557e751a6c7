import { describe, expect, it } from 'vitest';
import { describeExpiry, formatBirthday } from '../../../renderer/lib/dates';

describe('expiry in plain words', () => {
  const now = new Date(2026, 10, 22, 9, 0); // 22 Nov 2026, 09:00 local

  it('says "No expiry", "Expires today", "Expired on …" and "Expires on …"', () => {
    expect(describeExpiry(null, now)).toEqual({ state: 'none', text: 'No expiry' });
    expect(describeExpiry(new Date(2026, 10, 22, 18, 0).toISOString(), now)).toEqual({
      state: 'today',
      text: 'Expires today',
    });
    expect(describeExpiry(new Date(2026, 10, 21, 18, 0).toISOString(), now)).toEqual({
      state: 'expired',
      text: 'Expired on 21 Nov 2026',
    });
    expect(describeExpiry(new Date(2026, 11, 9, 12, 0).toISOString(), now)).toEqual({
      state: 'later',
      text: 'Expires on 9 Dec 2026',
    });
  });

  it('counts a reward that expired earlier today as expired, not "expires today"', () => {
    expect(describeExpiry(new Date(2026, 10, 22, 8, 0).toISOString(), now).state).toBe('expired');
  });

  it('reads a birthday as a calendar date, whatever the time zone', () => {
    expect(formatBirthday('1990-04-12')).toBe('12 April 1990');
    expect(formatBirthday(null)).toBe('—');
  });
});
