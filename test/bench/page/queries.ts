/**
 * The cashier's queries, by kind, drawn from the generated customers so that each kind
 * asks what a cashier would: a number someone has, the start of a name, a first name and
 * the start of a surname, four digits from a phone, and something nobody is called.
 */
import { FIRST_NAMES, LAST_NAMES, nameOf, phoneOf } from './generate';

export const QUERY_KINDS = ['exact_phone', 'name_prefix', 'two_words', 'digits4', 'no_match'] as const;
export type QueryKind = (typeof QUERY_KINDS)[number];

/** `count` distinct queries of each kind over customers 0..size-1, deterministic. */
export function queriesFor(size: number, count: number): Record<QueryKind, string[]> {
  const pick = (j: number, salt: number) => (j * 2_654_435_761 + salt * 97_003) % size;
  const queries: Record<QueryKind, string[]> = {
    exact_phone: [],
    name_prefix: [],
    two_words: [],
    digits4: [],
    no_match: [],
  };
  for (let j = 0; j < count; j++) {
    const phone = phoneOf(pick(j, 1));
    // Half international, half as typed locally in the till's country (SA): 05X XXX XXXX.
    queries.exact_phone.push(j % 2 === 0 ? phone : `0${phone.slice(4, 6)} ${phone.slice(6, 9)} ${phone.slice(9)}`);

    const words = [...FIRST_NAMES, ...LAST_NAMES];
    const word = words[j % words.length]!.replace(/^Al-/, '');
    queries.name_prefix.push(word.slice(0, 2 + (j % 3)).toLowerCase());

    const [first, last] = nameOf(pick(j, 2)).split(' ') as [string, string];
    queries.two_words.push(`${first.toLowerCase()} ${last.replace(/^Al-/, '').slice(0, 3).toLowerCase()}`);

    const digits = phoneOf(pick(j, 3)).slice(4);
    const at = j % (digits.length - 4);
    queries.digits4.push(digits.slice(at, at + 4));

    queries.no_match.push(`qx${'bcdfghjklmnpstvwz'[j % 17]}v`);
  }
  return queries;
}

/** Keeps the two lists in the table in one place. */
export const KIND_LABELS: Record<QueryKind, string> = {
  exact_phone: 'exact phone',
  name_prefix: 'name prefix (2-4 letters)',
  two_words: 'two words',
  digits4: '4-digit fragment',
  no_match: 'matches nothing',
};
