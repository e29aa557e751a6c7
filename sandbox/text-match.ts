// Letters that Unicode decomposition (NFD) leaves whole, folded by hand to what a cashier types.
// Arabic: alef wasla as alef, alef maqsura as ya, ta marbuta as ha, tatweel dropped (أ إ آ
// lose their hamza or madda as combining marks, with the tashkeel).
const UNFOLDED: Record<string, string> = {
  ø: 'o',
  ł: 'l',
  ı: 'i',
  æ: 'ae',
  œ: 'oe',
  ß: 'ss',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ٱ: 'ا',
  ى: 'ي',
  ة: 'ه',
  ـ: '',
};
const UNFOLDED_PATTERN = new RegExp(`[${Object.keys(UNFOLDED).join('')}]`, 'g');

/** Case- and accent-insensitive form of a name or search term. */
export function foldText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(UNFOLDED_PATTERN, (letter) => UNFOLDED[letter] ?? letter)
    .replace(/\s+/g, ' ')
    .trim();
}

/** True for a search term made only of what appears in phone numbers. */
export function isNumberFragment(term: string): boolean {
  return /^\+?[\d\s().-]+$/.test(term) && /\d/.test(term);
}
