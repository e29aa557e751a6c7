/**
 * Name folding as version 3 re-folded the stored name words (copied from search/fold.ts at
 * commit feaa1bd; never edited, see README.md). A later change of folding is a new version
 * with its own copy.
 */

const UNFOLDED_LETTERS: Record<string, string> = {
  ø: 'o',
  ł: 'l',
  ı: 'i',
  æ: 'ae',
  œ: 'oe',
  ß: 'ss',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ħ: 'h',
  ŧ: 't',
  ٱ: 'ا',
  ى: 'ي',
  ة: 'ه',
  ـ: '',
};
const UNFOLDED_PATTERN = new RegExp(`[${Object.keys(UNFOLDED_LETTERS).join('')}]`, 'g');
const COMBINING_MARKS = /\p{M}+/gu;
const APOSTROPHES = /['’ʼ`´]/g;
const SEPARATORS = /[^\p{L}\p{N}]+/u;

/** The distinct folded words of a name, as stored. */
export function nameWordsOf(name: string): string[] {
  const folded = name
    .normalize('NFD')
    .toLowerCase()
    .replace(COMBINING_MARKS, '')
    .replace(UNFOLDED_PATTERN, (letter) => UNFOLDED_LETTERS[letter] ?? letter)
    .replace(APOSTROPHES, '');
  return [...new Set(folded.split(SEPARATORS).filter((word) => word.length > 0))];
}
