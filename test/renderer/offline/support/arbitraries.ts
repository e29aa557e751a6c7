/** fast-check generators for people's text: names in many scripts, and the noise people type. */
import fc from 'fast-check';

// Whole graphemes (an emoji or a letter with its mark is one pick), so no surrogate is split.
const LATIN = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'];
const ACCENTED = [...'àáâãäåçèéêëìíîïñòóôõöøùúûüýÿßæœðþłŁØÆŒĐđħŧİıŞşĞğÅÉÑÜ', 'e\u0301', 'A\u030a'];
const ARABIC = [...'ابتثجحخدذرزسشصضطظعغفقكلمنهويءآأإةى', 'بَ', 'لِ', 'مُّ', 'نْ'];
const CYRILLIC = [...'абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВГДЁЖЗИЙЯ'];
const CJK = [...'王李张刘陈杨黄赵吴周山田佐藤김이박최', '𠀀', '𠮷'];
const EMOJI = ['😀', '☕', '👍🏽', '👨‍👩‍👧', '🇸🇦', '❤️'];
const DIGITS = [...'0123456789'];
const JOINERS = [' ', '-', "'", '’', '.', ',', '  ', '\u200f'];

const letter = fc.oneof(
  { arbitrary: fc.constantFrom(...LATIN), weight: 4 },
  { arbitrary: fc.constantFrom(...ACCENTED), weight: 3 },
  { arbitrary: fc.constantFrom(...ARABIC), weight: 3 },
  { arbitrary: fc.constantFrom(...CYRILLIC), weight: 3 },
  { arbitrary: fc.constantFrom(...CJK), weight: 2 },
  { arbitrary: fc.constantFrom(...EMOJI), weight: 1 },
  { arbitrary: fc.constantFrom(...DIGITS), weight: 1 },
);

/** One word of a name, 1-8 graphemes. */
export const nameWord = fc.array(letter, { minLength: 1, maxLength: 8 }).map((parts) => parts.join(''));

/** A name of 1-4 words with the separators people use. */
export const personName = fc
  .tuple(
    fc.array(nameWord, { minLength: 1, maxLength: 4 }),
    fc.array(fc.constantFrom(...JOINERS), { minLength: 3, maxLength: 3 }),
  )
  .map(([words, joiners]) => words.map((word, i) => (i === 0 ? word : joiners[(i - 1) % 3] + word)).join(''));

/** Any text a person may type into a field, every script and control-free. */
export const anyText = fc.oneof(
  personName,
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({
    unit: fc.constantFrom('=', '+', '-', '@', '\t', '\r', '\n', '"', ',', ' ', 'a', 'ب', '😀'),
    maxLength: 12,
  }),
);
