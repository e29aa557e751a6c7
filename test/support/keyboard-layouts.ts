/**
 * Keyboard layouts for scanner tests: what a wedge scanner set up for a US layout sends for
 * each character (key position and Shift), and what `KeyboardEvent.key` each OS layout
 * (Windows US, Arabic (101), German, French) makes of those positions.
 */
/**
 * What a wedge scanner set up for a US layout sends for a character: the key position and
 * whether it holds Shift (for capitals and for `+`).
 */
export function usStroke(char: string): { code: string; shift: boolean } {
  if (/[A-Z]/.test(char)) return { code: `Key${char}`, shift: true };
  if (/[0-9]/.test(char)) return { code: `Digit${char}`, shift: false };
  const table: Record<string, { code: string; shift: boolean }> = {
    '-': { code: 'Minus', shift: false },
    '+': { code: 'Equal', shift: true },
    ' ': { code: 'Space', shift: false },
  };
  const stroke = table[char];
  if (!stroke) throw new Error(`no US position for ${char}`);
  return stroke;
}

/** What each layout's `key` is for the positions a scan uses (Windows layouts). */
export const LAYOUTS: Record<string, (code: string, shift: boolean) => string> = {
  US: (code, shift) => {
    if (code.startsWith('Key')) return shift ? code.slice(3) : code.slice(3).toLowerCase();
    if (code.startsWith('Digit')) return shift ? ')!@#$%^&*('[Number(code.slice(5))]! : code.slice(5);
    return { Minus: shift ? '_' : '-', Equal: shift ? '+' : '=', Space: ' ' }[code] ?? 'Unidentified';
  },
  // Arabic (101): Arabic letters (Shift gives harakat and other signs), Latin digits.
  Arabic: (code, shift) => {
    const plain: Record<string, string> = {
      KeyR: 'ق',
      KeyW: 'ص',
      KeyL: 'م',
      KeyA: 'ش',
      KeyY: 'غ',
      KeyB: 'لا',
      KeyO: 'خ',
      KeyM: 'ة',
    };
    const shifted: Record<string, string> = {
      KeyR: 'ٌ',
      KeyW: 'ً',
      KeyL: '/',
      KeyA: 'ِ',
      KeyY: 'إ',
      KeyB: 'لآ',
      KeyO: '×',
      KeyM: '’',
    };
    if (code.startsWith('Key')) return (shift ? shifted : plain)[code] ?? 'ض';
    if (code.startsWith('Digit')) return shift ? ')!@#$%^&*('[Number(code.slice(5))]! : code.slice(5);
    return { Minus: shift ? '_' : '-', Equal: shift ? '+' : '=', Space: ' ' }[code] ?? 'Unidentified';
  },
  // German (QWERTZ): Y and Z swap, `-` is ß there, Shift and `=` is a dead accent.
  German: (code, shift) => {
    const swapped: Record<string, string> = { KeyY: 'Z', KeyZ: 'Y' };
    if (code.startsWith('Key')) {
      const letter = swapped[code] ?? code.slice(3);
      return shift ? letter : letter.toLowerCase();
    }
    if (code.startsWith('Digit')) return shift ? '=!"§$%&/()'[Number(code.slice(5))]! : code.slice(5);
    return { Minus: shift ? '?' : 'ß', Equal: 'Dead', Space: ' ' }[code] ?? 'Unidentified';
  },
  // French (AZERTY): A/Q and Z/W swap, digits need Shift, `-` is `)` there.
  French: (code, shift) => {
    const swapped: Record<string, string> = { KeyA: 'Q', KeyQ: 'A', KeyZ: 'W', KeyW: 'Z', KeyM: ',' };
    if (code.startsWith('Key')) {
      const letter = swapped[code] ?? code.slice(3);
      return shift ? letter : letter.toLowerCase();
    }
    if (code.startsWith('Digit')) return shift ? code.slice(5) : 'à&é"\'(-è_ç'[Number(code.slice(5))]!;
    return { Minus: shift ? '°' : ')', Equal: shift ? '+' : '=', Space: ' ' }[code] ?? 'Unidentified';
  },
};
