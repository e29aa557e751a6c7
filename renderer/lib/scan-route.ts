import { readPhone, type PhoneReading } from '../../common/phone';
import { rewardKey } from '../../common/reward-key';

/** What a scanned (or typed) text is, for the till: a reward code, a phone, or neither. */
export type ScanMeaning =
  | { kind: 'reward'; code: string }
  | { kind: 'phone'; phone: PhoneReading }
  /** A loyalty card's serial number. */
  | { kind: 'card'; serial: string }
  /** Digits that read as a phone of the till's country and could be a card's serial: phone first. */
  | { kind: 'phone-or-card'; phone: PhoneReading; serial: string }
  | { kind: 'unknown'; text: string };

// `RW-` then alphanumerics, as the service issues them; the service matches codes
// case-insensitively, so a scanner set to lower case still works.
const REWARD_CODE = /^RW-[A-Z0-9]+$/i;

export function isRewardCode(text: string): boolean {
  return REWARD_CODE.test(text.trim());
}

/** Reward codes are shown and sent upper-cased, the way they are printed: their one spelling (common/reward-key.ts). */
export const normaliseRewardCode = rewardKey;

// A card's serial as printed and encoded: letters, digits and `-`, 6 to 64 of them, at least
// four of them digits (so that a word, or a password typed by a password manager, is not one).
const SERIAL = /^(?=(?:[^\d]*\d){4})[A-Z0-9][A-Z0-9-]{5,63}$/i;
// International numbers are written with `+` (or `00`): those are never serials.
const INTERNATIONAL = /^(\+|00)/;
const HAS_LETTER = /[A-Z]/i;
const ONLY_DIGITS = /^\d+$/;

/** A loyalty card's serial as scanned: 6-64 letters, digits and `-`, four of them digits at least. */
export function isCardSerial(text: string): boolean {
  const trimmed = text.trim();
  return SERIAL.test(trimmed) && !INTERNATIONAL.test(trimmed);
}

/**
 * What a scan is (docs/screens.md, "Barcode scanners"), in this order:
 * 1. `RW-` and letters or digits: a reward code (the service issues them so; no card is).
 * 2. `+` or `00` first, reading as a phone: a phone.
 * 3. 6-64 letters, digits and `-`, with a letter and at least four digits: a card's serial.
 * 4. 6-64 digits only: reading as a phone of the till's country, a phone first and a card's serial
 *    when nobody has that phone (`phone-or-card`); otherwise a card's serial.
 * 5. Any other text reading as a phone (spaces, brackets): a phone. Anything else: nothing.
 */
export function readScan(text: string, defaultCountry: string): ScanMeaning {
  const trimmed = text.trim();
  if (isRewardCode(trimmed)) return { kind: 'reward', code: normaliseRewardCode(trimmed) };
  const phone = readPhone(trimmed, defaultCountry);
  if (INTERNATIONAL.test(trimmed)) return phone ? { kind: 'phone', phone } : { kind: 'unknown', text };
  if (isCardSerial(trimmed) && HAS_LETTER.test(trimmed)) return { kind: 'card', serial: trimmed.toUpperCase() };
  if (ONLY_DIGITS.test(trimmed) && isCardSerial(trimmed))
    return phone ? { kind: 'phone-or-card', phone, serial: trimmed } : { kind: 'card', serial: trimmed };
  if (phone) return { kind: 'phone', phone };
  return { kind: 'unknown', text };
}
