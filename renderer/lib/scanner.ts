/**
 * Keyboard-wedge barcode scanners "type" what they read, very fast, and end with Enter or
 * Tab. This module tells such a burst from a person typing, using only key timing, so the
 * cashier never has to focus a field before scanning.
 *
 * The detector is pure (it sees keys and times, nothing else) so it can be tested exactly;
 * `installScanListener` is the thin part that connects it to the page.
 *
 * A burst is a scan only if its text has the shape of a reward code, a phone number or a
 * loyalty card's serial (letters, digits and `-`, with a digit);
 * anything else typed at machine speed (a password manager, a paste-like roll, another
 * scanner's labels) stays ordinary typing, its Enter or Tab included.
 *
 * The keyboard layout. A wedge scanner sends key positions for the layout it was set up
 * for (US almost everywhere), and the OS turns them into characters with the layout that is
 * active: under Arabic (101) the letters of `RW-LAYLA001` arrive as Arabic letters, under
 * German Y and Z swap and `-` becomes `ß`, under French A/Q swap and digits need Shift. So
 * each burst is read twice: by `KeyboardEvent.key` (what the layout typed) and by
 * `KeyboardEvent.code` plus Shift (which keys were pressed, read as US positions). The
 * layout's reading wins when it has a scan's shape; otherwise the positions' reading is used
 * when it has one. `keyCode` is never used: it has no reliable value for `-` across layouts.
 */
import { isCardSerial, isRewardCode } from './scan-route';

export interface ScanTiming {
  /** Longest pause between two keys of one scan. Scanners send keys 1–20 ms apart; people rarely manage 50 ms six times in a row. */
  maxGapMs: number;
  /** Shortest text that counts as a scan, so a fast two-key roll plus Enter is never one. */
  minLength: number;
}

export const DEFAULT_SCAN_TIMING: ScanTiming = { maxGapMs: 50, minLength: 6 };

/** The parts of a KeyboardEvent the detector looks at. */
export interface KeyStroke {
  key: string;
  /** `KeyboardEvent.code`: the physical key, whatever the layout ('' when unknown). */
  code?: string;
  shiftKey?: boolean;
  /** Milliseconds, from any monotonic clock (`KeyboardEvent.timeStamp` in the app). */
  time: number;
  ctrlKey?: boolean;
  altKey?: boolean;
  metaKey?: boolean;
}

export type ScanStep =
  /** Not part of any text: a modifier or a non-printing key some scanners add. */
  | { kind: 'ignored' }
  /** A printable character; `startsBurst` when it is the first of a possible scan. */
  | { kind: 'char'; startsBurst: boolean }
  /** The terminator of a scan: `text` is what was scanned. */
  | { kind: 'scan'; text: string }
  /** Anything else: ends whatever was being collected. */
  | { kind: 'other' };

// Keys that carry no character and must not break a burst: scanners configured for
// upper case press Shift around letters, and some send CapsLock/NumLock toggles or an
// unidentified prefix key.
const NOISE_KEYS = new Set([
  'Shift',
  'Control',
  'Alt',
  'AltGraph',
  'Meta',
  'OS',
  'Super',
  'Hyper',
  'Fn',
  'FnLock',
  'CapsLock',
  'NumLock',
  'ScrollLock',
  'Symbol',
  'SymbolLock',
  'Unidentified',
  'Dead',
  'Process',
]);

const TERMINATORS = new Set(['Enter', 'Tab']);

export function isNoiseKey(key: string): boolean {
  return NOISE_KEYS.has(key);
}

// The characters a reward code (`RW-` and letters and digits) or a phone number can hold.
const SCAN_CHARACTER = /^[A-Za-z0-9+\-(). ]$/;

/** Phone-shaped: digits with the usual separators, at least six digits. */
function isPhoneShaped(text: string): boolean {
  return /^\+?[\d\s().-]+$/.test(text) && (text.match(/\d/g)?.length ?? 0) >= 6;
}

/** Whether a burst's text can be a scan: the shape of a reward code, a phone number or a loyalty card's serial. */
export function hasScanShape(text: string): boolean {
  return isRewardCode(text) || isPhoneShaped(text.trim()) || isCardSerial(text);
}

const US_SHIFTED_DIGITS = ')!@#$%^&*(';
const US_PUNCTUATION: Record<string, [string, string]> = {
  Minus: ['-', '_'],
  Equal: ['=', '+'],
  Period: ['.', '>'],
  Space: [' ', ' '],
  NumpadAdd: ['+', '+'],
  NumpadSubtract: ['-', '-'],
  NumpadDecimal: ['.', '.'],
};

/**
 * The character a key position types on a US layout, or null for a key that types nothing
 * a scan needs. Letters come out upper- or lower-case with Shift; reward codes are matched
 * without regard to case anyway.
 */
export function usCharacterOf(code: string | undefined, shift: boolean): string | null {
  if (!code) return null;
  const letter = /^Key([A-Z])$/.exec(code);
  if (letter) return shift ? letter[1]! : letter[1]!.toLowerCase();
  const digit = /^Digit([0-9])$/.exec(code);
  if (digit) return shift ? US_SHIFTED_DIGITS[Number(digit[1])]! : digit[1]!;
  const numpad = /^Numpad([0-9])$/.exec(code);
  if (numpad) return numpad[1]!;
  const punctuation = US_PUNCTUATION[code];
  return punctuation ? punctuation[shift ? 1 : 0] : null;
}

/** `key` values that name a key rather than type text: `Enter`, `Backspace`, `F3`, `Dead`. */
const NAMED_KEY = /^[A-Z][A-Za-z0-9]+$/;

/** A character no scan holds, standing in where a layout typed something else (or nothing). */
const FOREIGN = '\u0000';

export function isPrintable(key: string): boolean {
  // `key` is the character itself for printable keys and a name (`Enter`, `F3`) otherwise;
  // a surrogate pair (an emoji) is still one character.
  return [...key].length === 1;
}

export interface ScanDetector {
  feed(stroke: KeyStroke): ScanStep;
  /** Forget any burst in progress (e.g. when the window loses focus). */
  reset(): void;
}

export function createScanDetector(timing: ScanTiming = DEFAULT_SCAN_TIMING): ScanDetector {
  // The burst read two ways: as the layout typed it, and as US key positions.
  let buffer = '';
  let byPosition = '';
  let lastTime = Number.NEGATIVE_INFINITY;

  const reset = (): void => {
    buffer = '';
    byPosition = '';
    lastTime = Number.NEGATIVE_INFINITY;
  };

  /** The burst's text if it is a scan: the layout's reading first, else the key positions'. */
  const scanText = (): string | null => {
    if (!buffer.includes(FOREIGN) && hasScanShape(buffer)) return buffer;
    if (!byPosition.includes(FOREIGN) && hasScanShape(byPosition)) return byPosition;
    return null;
  };

  const feed = (stroke: KeyStroke): ScanStep => {
    // A dead key (German `+` is Shift and the key where US has `=`; some layouts make it a
    // dead accent) types nothing by itself, but its position may be a character of a scan.
    const positional = usCharacterOf(stroke.code, stroke.shiftKey === true);
    const deadWithPosition = (stroke.key === 'Dead' || stroke.key === 'Unidentified') && positional !== null;
    if (isNoiseKey(stroke.key) && !deadWithPosition) return { kind: 'ignored' };
    // Some layouts type two characters with one key (Arabic لا): a character key all the same.
    const typesText = isPrintable(stroke.key) || (positional !== null && !NAMED_KEY.test(stroke.key));

    // Ctrl/Alt/Meta + key is a shortcut, not text (AltGraph characters arrive without them).
    if (stroke.ctrlKey || stroke.altKey || stroke.metaKey) {
      reset();
      return { kind: 'other' };
    }

    const gap = stroke.time - lastTime;

    if (typesText || deadWithPosition) {
      const startsBurst = buffer === '' || gap > timing.maxGapMs;
      const typed = deadWithPosition ? FOREIGN : SCAN_CHARACTER.test(stroke.key) ? stroke.key : FOREIGN;
      // Without a known position (a synthetic event), the layout's character stands for it.
      const position = positional ?? typed;
      buffer = startsBurst ? typed : buffer + typed;
      byPosition = startsBurst ? position : byPosition + position;
      lastTime = stroke.time;
      return { kind: 'char', startsBurst };
    }

    if (TERMINATORS.has(stroke.key) && buffer.length >= timing.minLength && gap <= timing.maxGapMs) {
      const text = scanText();
      reset();
      // Not a code or a phone: ordinary typing, terminator included.
      return text === null ? { kind: 'other' } : { kind: 'scan', text };
    }

    reset();
    return { kind: 'other' };
  };

  return { feed, reset };
}

// ---------------------------------------------------------------------------------------
// The page side
// ---------------------------------------------------------------------------------------

type TextField = HTMLInputElement | HTMLTextAreaElement;

function asTextField(target: EventTarget | null): TextField | null {
  if (target instanceof HTMLTextAreaElement) return target;
  if (target instanceof HTMLInputElement) return target;
  return null;
}

export interface ScanContext {
  /** The field the scanner typed into, if one had focus. */
  field: TextField | null;
}

/**
 * What the app does with a scan: return the action that routes it (run once the scanned
 * characters have been removed from the field they landed in, so the action may fill that
 * field itself), or null to leave the whole scan, terminator included, as ordinary typing.
 */
export type ScanHandler = (text: string, context: ScanContext) => (() => void) | null;

/** A field with this attribute keeps whatever is scanned into it and never routes it (order references). */
export const KEEP_SCAN_ATTRIBUTE = 'data-scan-keep';

/** Only some input types have a selection (email and number do not, and throw). */
function restoreSelection(field: TextField, start: number | null, end: number | null): void {
  if (start === null || end === null) return;
  try {
    field.setSelectionRange(start, end);
  } catch {
    // No selection to restore on this kind of field.
  }
}

function swallow(event: KeyboardEvent): void {
  event.preventDefault();
  event.stopPropagation();
}

/**
 * Listens on `window` in the capture phase, before any field or shortcut sees the keys.
 * Characters are never blocked (we cannot know the first key of a scan is one); instead the
 * field's value is remembered when a burst starts and put back when the burst turns out to
 * be a routed scan. The terminating Enter/Tab of a routed scan, or of any scan into a field
 * marked `data-scan-keep`, is swallowed, so such a scan never submits a form by itself.
 * Returns the uninstaller.
 */
export function installScanListener(
  target: Window,
  onScan: ScanHandler,
  timing: ScanTiming = DEFAULT_SCAN_TIMING,
): () => void {
  const detector = createScanDetector(timing);
  let snapshot: { field: TextField; value: string; start: number | null; end: number | null } | null = null;

  const onKeyDown = (event: KeyboardEvent): void => {
    if (event.isComposing) return;
    const step = detector.feed({
      key: event.key,
      code: event.code,
      shiftKey: event.shiftKey,
      time: event.timeStamp,
      ctrlKey: event.ctrlKey,
      altKey: event.altKey,
      metaKey: event.metaKey,
    });

    if (step.kind === 'char' && step.startsBurst) {
      // keydown comes before the character is inserted: this is the value to go back to.
      const field = asTextField(event.target);
      snapshot = field ? { field, value: field.value, start: field.selectionStart, end: field.selectionEnd } : null;
      return;
    }
    if (step.kind !== 'scan') {
      if (step.kind === 'other') snapshot = null;
      return;
    }

    const field = asTextField(event.target);
    const burstField = snapshot && snapshot.field === field ? snapshot : null;
    snapshot = null;
    if (field?.hasAttribute(KEEP_SCAN_ATTRIBUTE)) {
      // The field owns what is scanned into it; the terminator must not submit its form.
      swallow(event);
      return;
    }
    const route = onScan(step.text, { field });
    if (!route) return; // not ours: it stays ordinary typing, Enter included

    swallow(event);
    if (burstField) {
      burstField.field.value = burstField.value;
      restoreSelection(burstField.field, burstField.start, burstField.end);
      // v-model listens for `input`: tell it the value went back.
      burstField.field.dispatchEvent(new Event('input', { bubbles: true }));
    }
    route();
  };

  const onBlur = (): void => {
    detector.reset();
    snapshot = null;
  };

  target.addEventListener('keydown', onKeyDown, { capture: true });
  target.addEventListener('blur', onBlur);
  return () => {
    target.removeEventListener('keydown', onKeyDown, { capture: true });
    target.removeEventListener('blur', onBlur);
  };
}
