/**
 * Folding names into search words, so that "Søren", "SOREN" and "soren" meet, as do
 * "Łukasz" and "lukasz", "Işık" and "isik", and Arabic written the way people type it:
 * "ليلى" finds "لَيلى" (tashkeel ignored), "احمد" finds "أحمد" (alef forms as bare alef),
 * "فاطمه" finds "فاطمة", "مصطفي" finds "مصطفى", and a stretched "محـــمد" is "محمد".
 *
 * The same function folds what the offline cache stores and what the cashier types, and the
 * sandbox's search folds with it too (sandbox/text-match.ts), so the two never drift apart.
 * Any change here changes the stored name words (the search chunks' lines,
 * renderer/offline/search/search-chunks.ts), so it needs a new database version that
 * re-folds existing rows, as renderer/offline/db/migrations/v3-arabic-name-words.ts did;
 * test/renderer/offline/db/old-databases.test.ts fails until it has one.
 */

// Letters that Unicode decomposition leaves alone because they are letters of their own,
// not a base letter plus a mark. Mapped after lower-casing, so capitals are covered too
// (Ø -> ø, Ł -> ł, Æ -> æ, Œ -> œ, Đ -> đ, Ð -> ð, Þ -> þ, ẞ -> ß).
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
  // Arabic. أ إ آ (and ؤ ئ) decompose to a base letter plus a hamza or madda mark, which the
  // mark removal drops; alef wasla does not decompose. Alef maqsura and ta marbuta are
  // written for ya and ha (and the reverse) so often that a search must not tell them apart.
  // Tatweel only stretches a word for looks.
  ٱ: 'ا',
  ى: 'ي',
  ة: 'ه',
  ـ: '',
};
const UNFOLDED_PATTERN = new RegExp(`[${Object.keys(UNFOLDED_LETTERS).join('')}]`, 'g');

// Combining marks (accents, Arabic tashkeel and the superscript alef, the dot of a lower-cased Turkish İ).
const COMBINING_MARKS = /\p{M}+/gu;
// Apostrophes join rather than split, so "O'Brien" is found by "obrien" and "o'brien".
const APOSTROPHES = /['’ʼ`´]/g;
// Anything that is not a letter or digit separates words ("Al-Sayed", "Anne Marie").
const SEPARATORS = /[^\p{L}\p{N}]+/u;

/** Case- and accent-insensitive form of a text, still with its separators. */
export function foldText(text: string): string {
  return text
    .normalize('NFD')
    .toLowerCase()
    .replace(COMBINING_MARKS, '')
    .replace(UNFOLDED_PATTERN, (letter) => UNFOLDED_LETTERS[letter] ?? letter)
    .replace(APOSTROPHES, '');
}

/** The folded words of a text, in order, duplicates kept (a query may repeat a word). */
export function foldWords(text: string): string[] {
  return foldText(text)
    .split(SEPARATORS)
    .filter((word) => word.length > 0);
}

/** The distinct folded words of a name, as stored in the `nameWords` index. */
export function nameWordsOf(name: string): string[] {
  return [...new Set(foldWords(name))];
}
