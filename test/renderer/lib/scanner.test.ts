import { afterEach, describe, expect, it, vi } from 'vitest';
import { LAYOUTS, usStroke } from '../../support/keyboard-layouts';
import {
  createScanDetector,
  installScanListener,
  KEEP_SCAN_ATTRIBUTE,
  usCharacterOf,
  type ScanStep,
} from '../../../renderer/lib/scanner';

/** Feeds keys at the given gaps (ms) and returns the last step. */
function feedAll(keys: string[], gapMs: number | number[], start = 1000): ScanStep[] {
  const detector = createScanDetector();
  let time = start;
  return keys.map((key, index) => {
    const gap = Array.isArray(gapMs) ? (gapMs[index % gapMs.length] ?? 10) : gapMs;
    time += gap;
    return detector.feed({ key, time });
  });
}

const keysOf = (text: string) => [...text];

describe('scan detection', () => {
  it('reads a fast burst ending in Enter as a scan, keeping the dash of a reward code', () => {
    const steps = feedAll([...keysOf('RW-LAYLA001'), 'Enter'], [5, 9, 13, 15]);
    expect(steps.at(-1)).toEqual({ kind: 'scan', text: 'RW-LAYLA001' });
  });

  it('accepts Tab as the terminator too', () => {
    expect(feedAll([...keysOf('+966501234567'), 'Tab'], 8).at(-1)).toEqual({ kind: 'scan', text: '+966501234567' });
  });

  it('never reads human typing as a scan', () => {
    const steps = feedAll([...keysOf('RW-LAYLA001'), 'Enter'], [120, 180, 95, 140]);
    expect(steps.at(-1)).toEqual({ kind: 'other' });
    expect(steps.filter((step) => step.kind === 'char' && step.startsBurst)).toHaveLength(11);
  });

  it('does not take a fast roll of a few keys for a scan', () => {
    expect(feedAll([...keysOf('abc'), 'Enter'], 10).at(-1)).toEqual({ kind: 'other' });
  });

  it('starts afresh after a pause, so typing before a scan is not part of it', () => {
    const detector = createScanDetector();
    detector.feed({ key: 'x', time: 0 });
    detector.feed({ key: 'y', time: 200 });
    let time = 1000;
    for (const key of 'RW-OMAR0001') detector.feed({ key, time: (time += 10) });
    expect(detector.feed({ key: 'Enter', time: time + 10 })).toEqual({ kind: 'scan', text: 'RW-OMAR0001' });
  });

  it('refuses a burst whose Enter comes late (a person pressing Enter after a paste-like roll)', () => {
    const detector = createScanDetector();
    let time = 0;
    for (const key of 'RW-OMAR0001') detector.feed({ key, time: (time += 10) });
    expect(detector.feed({ key: 'Enter', time: time + 400 })).toEqual({ kind: 'other' });
  });

  it('ignores modifier and non-printing noise that some scanners add', () => {
    const keys = [
      'Shift',
      'R',
      'Shift',
      'W',
      '-',
      'CapsLock',
      'L',
      'A',
      'Unidentified',
      'Y',
      'L',
      'A',
      '0',
      '0',
      '1',
      'NumLock',
      'Enter',
    ];
    const steps = feedAll(keys, 4);
    expect(steps.filter((step) => step.kind === 'ignored')).toHaveLength(5);
    expect(steps.at(-1)).toEqual({ kind: 'scan', text: 'RW-LAYLA001' });
  });

  it('treats Ctrl/Alt/Meta combinations as shortcuts that end a burst', () => {
    const detector = createScanDetector();
    let time = 0;
    for (const key of 'RW-LAY') detector.feed({ key, time: (time += 5) });
    expect(detector.feed({ key: 'v', time: (time += 5), ctrlKey: true })).toEqual({ kind: 'other' });
    for (const key of 'LA001') detector.feed({ key, time: (time += 5) });
    expect(detector.feed({ key: 'Enter', time: time + 5 })).toEqual({ kind: 'other' });
  });

  it('breaks a burst on other named keys (arrows, Backspace)', () => {
    expect(feedAll([...keysOf('RW-LA'), 'Backspace', ...keysOf('YLA'), 'Enter'], 5).at(-1)).toEqual({ kind: 'other' });
  });
});

describe('the page listener', () => {
  let uninstall: (() => void) | null = null;
  afterEach(() => {
    uninstall?.();
    uninstall = null;
    document.body.innerHTML = '';
  });

  /** Dispatches keydowns with chosen timestamps, inserting printable characters into a focused field as a browser would. */
  function type(keys: string[], gapMs: number, target: EventTarget = document.body): KeyboardEvent[] {
    let time = 10_000;
    return keys.map((key) => {
      time += gapMs;
      const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true });
      Object.defineProperty(event, 'timeStamp', { value: time });
      target.dispatchEvent(event);
      if (!event.defaultPrevented && key.length === 1 && target instanceof HTMLInputElement) target.value += key;
      return event;
    });
  }

  it('routes a scan, removes its characters from the focused field and swallows the Enter', () => {
    const input = document.createElement('input');
    document.body.append(input);
    input.value = 'Lay';
    const seen: string[] = [];
    const route = vi.fn();
    input.addEventListener('input', () => seen.push(input.value));
    uninstall = installScanListener(window, (text) => (text.startsWith('RW-') ? () => route(text, input.value) : null));

    const events = type([...'RW-LAYLA001', 'Enter'], 8, input);
    expect(route).toHaveBeenCalledWith('RW-LAYLA001', 'Lay'); // the field is clean before the route runs
    expect(input.value).toBe('Lay');
    expect(seen.at(-1)).toBe('Lay'); // v-model hears about it
    expect(events.at(-1)?.defaultPrevented).toBe(true);
  });

  it('leaves an unrouted scan as ordinary typing, Enter included', () => {
    const input = document.createElement('input');
    document.body.append(input);
    uninstall = installScanListener(window, () => null);
    const events = type([...'CC-00000001', 'Enter'], 8, input);
    expect(input.value).toBe('CC-00000001');
    expect(events.at(-1)?.defaultPrevented).toBe(false);
  });

  it('keeps scans in fields that own them, without routing, and without submitting', () => {
    const input = document.createElement('input');
    input.setAttribute(KEEP_SCAN_ATTRIBUTE, '');
    document.body.append(input);
    const handler = vi.fn(() => () => undefined);
    uninstall = installScanListener(window, handler);
    const events = type([...'0501234567', 'Enter'], 8, input);
    expect(handler).not.toHaveBeenCalled();
    expect(input.value).toBe('0501234567');
    expect(events.at(-1)?.defaultPrevented).toBe(true);
  });

  it('does nothing to a person typing into a field', () => {
    const input = document.createElement('input');
    document.body.append(input);
    const handler = vi.fn(() => () => undefined);
    uninstall = installScanListener(window, handler);
    const events = type([...'RW-LAYLA001', 'Enter'], 150, input);
    expect(handler).not.toHaveBeenCalled();
    expect(input.value).toBe('RW-LAYLA001');
    expect(events.at(-1)?.defaultPrevented).toBe(false);
  });

  it('works with no field focused', () => {
    const route = vi.fn();
    uninstall = installScanListener(window, (text) => () => route(text));
    type([...'+966501234567', 'Enter'], 6);
    expect(route).toHaveBeenCalledWith('+966501234567');
  });
});

describe('only a code, a phone or a loyalty card is a scan', () => {
  it('leaves a machine-speed burst that is none of them as typing, Tab and Enter included', () => {
    for (const terminator of ['Tab', 'Enter']) {
      expect(feedAll([...keysOf('hunter2secret'), terminator], 5).at(-1)).toEqual({ kind: 'other' });
      expect(feedAll([...keysOf('ORDER-447'), terminator], 5).at(-1)).toEqual({ kind: 'other' });
    }
    // Four digits and more with letters and `-` have a card serial's shape (lib/scan-route.ts).
    expect(feedAll([...keysOf('ORDER-4471'), 'Enter'], 5).at(-1)).toEqual({ kind: 'scan', text: 'ORDER-4471' });
    expect(feedAll([...keysOf('cc-00000023'), 'Enter'], 5).at(-1)).toEqual({ kind: 'scan', text: 'cc-00000023' });
    expect(feedAll([...keysOf('rw-layla001'), 'Tab'], 5).at(-1)).toEqual({ kind: 'scan', text: 'rw-layla001' });
    expect(feedAll([...keysOf('050 123 4567'), 'Tab'], 5).at(-1)).toEqual({ kind: 'scan', text: '050 123 4567' });
  });

  it('lets the Tab of such a burst move on from the field, even one that keeps scans', () => {
    document.body.innerHTML = '';
    const input = document.createElement('input');
    input.setAttribute(KEEP_SCAN_ATTRIBUTE, '');
    document.body.append(input);
    const handler = vi.fn(() => () => undefined);
    const uninstall = installScanListener(window, handler);
    try {
      let time = 5000;
      const events = [...'Password1!', 'Tab'].map((key) => {
        const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true });
        Object.defineProperty(event, 'timeStamp', { value: (time += 5) });
        input.dispatchEvent(event);
        return event;
      });
      expect(handler).not.toHaveBeenCalled();
      expect(events.some((event) => event.defaultPrevented)).toBe(false);
    } finally {
      uninstall();
    }
  });
});

describe('scanning under another keyboard layout', () => {
  const scanned = ['RW-LAYLA001', 'RW-OMAR0001', '+966501234567', '0501234567'];

  for (const [layout, keyOf] of Object.entries(LAYOUTS)) {
    it(`reads the same scans under the ${layout} layout`, () => {
      for (const text of scanned) {
        const detector = createScanDetector();
        let time = 100;
        let last: ScanStep;
        for (const char of text) {
          const { code, shift } = usStroke(char);
          if (shift) detector.feed({ key: 'Shift', code: 'ShiftLeft', shiftKey: true, time: (time += 2) });
          last = detector.feed({ key: keyOf(code, shift), code, shiftKey: shift, time: (time += 4) });
          expect(last.kind, `${layout} ${text} ${char}`).toBe('char');
        }
        const end = detector.feed({ key: 'Enter', code: 'Enter', time: time + 4 });
        expect(end.kind === 'scan' && end.text.toUpperCase(), `${layout} ${text}`).toBe(text.toUpperCase());
      }
    });
  }

  it('trusts the layout where it typed a scan (a scanner set up for that layout)', () => {
    // A French-set-up scanner sends Shift for digits: the layout's own reading is right.
    const detector = createScanDetector();
    let time = 0;
    for (const char of '0501234567')
      detector.feed({ key: char, code: `Digit${char}`, shiftKey: true, time: (time += 4) });
    expect(detector.feed({ key: 'Enter', code: 'Enter', time: time + 4 })).toEqual({
      kind: 'scan',
      text: '0501234567',
    });
  });

  it('reads the US positions of the digit keys', () => {
    expect(usCharacterOf('Digit7', false)).toBe('7');
    expect(usCharacterOf('Numpad7', false)).toBe('7');
    expect(usCharacterOf('KeyQ', true)).toBe('Q');
    expect(usCharacterOf('Equal', true)).toBe('+');
    expect(usCharacterOf('Backquote', false)).toBeNull();
    expect(usCharacterOf('', false)).toBeNull();
  });
});
