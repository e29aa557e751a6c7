// Letters that Unicode decomposition (NFD) leaves whole, folded by hand to what a cashier types.
const UNFOLDED: Record<string, string> = {
  ø: 'o', ł: 'l', ı: 'i', æ: 'ae', œ: 'oe', ß: 'ss', đ: 'd', ð: 'd', þ: 'th',
};

/** Case- and accent-insensitive form of a name or search term. */
export function foldText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[øłıæœßđðþ]/g, (letter) => UNFOLDED[letter] ?? letter)
    .replace(/\s+/g, ' ')
    .trim();
}

/** True for a search term made only of what appears in phone numbers. */
export function isNumberFragment(term: string): boolean {
  return /^\+?[\d\s().-]+$/.test(term) && /\d/.test(term);
}
