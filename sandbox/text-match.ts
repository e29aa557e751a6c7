// Names are folded as the till folds them (common/fold.ts: case, accents, letters of their own,
// Arabic alef forms, alef maqsura, ta marbuta, tatweel, apostrophes), so that a name the till
// finds offline is found by the sandbox too.
export { foldText, foldWords } from '../common/fold';

/** True for a search term made only of what appears in phone numbers. */
export function isNumberFragment(term: string): boolean {
  return /^\+?[\d\s().-]+$/.test(term) && /\d/.test(term);
}
