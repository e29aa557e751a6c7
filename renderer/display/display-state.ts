import type { DisplayModel, TillDisplayApi } from '../../common/display-model';
import { DISPLAY_PHONE_MAX_DIGITS } from '../../common/display-model';

/** The display's own bridge (the display preload, or the browser shell's display bridge). */
export function tillDisplay(): TillDisplayApi {
  return (window as unknown as { tillDisplay: TillDisplayApi }).tillDisplay;
}

/** What the customer typed, as the display shows it: every digit hidden but the last three. */
export function maskedPhone(digits: string): string {
  const shown = 3;
  if (digits.length <= shown) return digits;
  return '•'.repeat(digits.length - shown) + digits.slice(-shown);
}

/** One more digit, up to a phone number's length. */
export function typed(digits: string, key: string): string {
  if (!/^\d$/.test(key) || digits.length >= DISPLAY_PHONE_MAX_DIGITS) return digits;
  return digits + key;
}

/** Whether the model is one the display shows at all: anything else is ignored. */
export function isModel(value: unknown): value is DisplayModel {
  return (
    typeof value === 'object' &&
    value !== null &&
    'view' in value &&
    typeof (value as { revision?: unknown }).revision === 'number'
  );
}
