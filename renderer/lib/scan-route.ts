import { readPhone, type PhoneReading } from '../../common/phone';

/** What a scanned (or typed) text is, for the till: a reward code, a phone, or neither. */
export type ScanMeaning =
  { kind: 'reward'; code: string } | { kind: 'phone'; phone: PhoneReading } | { kind: 'unknown'; text: string };

// `RW-` then alphanumerics, as the service issues them; the service matches codes
// case-insensitively, so a scanner set to lower case still works.
const REWARD_CODE = /^RW-[A-Z0-9]+$/i;

export function isRewardCode(text: string): boolean {
  return REWARD_CODE.test(text.trim());
}

/** Reward codes are shown and sent upper-cased, the way they are printed. */
export function normaliseRewardCode(text: string): string {
  return text.trim().toUpperCase();
}

export function readScan(text: string, defaultCountry: string): ScanMeaning {
  if (isRewardCode(text)) return { kind: 'reward', code: normaliseRewardCode(text) };
  const phone = readPhone(text, defaultCountry);
  if (phone) return { kind: 'phone', phone };
  return { kind: 'unknown', text };
}
