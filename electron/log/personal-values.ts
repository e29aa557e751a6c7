import { isRecord } from '../../common/is-record';
import { foldValue, type PersonalValues } from './redaction';

/**
 * The personal values the till holds, for the redaction (redaction.ts) to find in free text:
 * every name, phone, email, birthday, reward code, order reference, customer id and cashier of
 * its outbox and journal as the main process keeps them (common/work-copy-contract.ts: the
 * page's records, whole), and the names of its cashiers. A name counts whole and by each of
 * its words of three letters or more, so "Layla" alone is found as well as "Layla Haddad".
 */

/** The fields of the page's outbox items and journal entries that hold a person's data (renderer/offline/db/schema.ts). */
export const PERSONAL_FIELDS = [
  'customerName',
  'name',
  'email',
  'phoneE164',
  'birthday',
  'orderReference',
  'code',
  'customerId',
  'localCustomerId',
  'cashier',
] as const;
/** Of those, the ones that are a person's name: their words count one by one too. */
const NAME_FIELDS = new Set<string>(['customerName', 'name', 'cashier']);
/** Words of a value looked at together: a name of more words is still found by each word. */
const MOST_WORDS = 6;

/** The values of `records` (outbox items, journal entries) and `names` (cashiers), ready to be matched. */
export function personalValuesOf(records: Iterable<unknown>, names: Iterable<string> = []): PersonalValues {
  const known = new Set<string>();
  let longestWords = 1;
  const add = (value: string, isName: boolean) => {
    const folded = foldValue(value);
    if (folded.length < 3) return;
    const words = folded.split(' ');
    if (words.length <= MOST_WORDS) {
      known.add(folded);
      longestWords = Math.max(longestWords, words.length);
    }
    if (isName || words.length > MOST_WORDS) for (const word of words) if (word.length >= 3) known.add(word);
  };
  for (const record of records) {
    if (!isRecord(record)) continue;
    for (const field of PERSONAL_FIELDS) {
      const value = record[field];
      if (typeof value === 'string') add(value, NAME_FIELDS.has(field));
    }
  }
  for (const name of names) add(name, true);
  return { has: (folded) => known.has(folded), longestWords };
}

/**
 * The values, built again only when what holds them changed (`version`: the work copy's
 * revision, the cashiers): reading the whole journal for every log line would cost more than
 * the line, and a value queued a moment ago must be known to the very next line.
 */
export function followPersonalValues(
  read: () => { records: Iterable<unknown>; names: Iterable<string> },
  version: () => string,
): () => PersonalValues {
  let built: { version: string; values: PersonalValues } | null = null;
  return () => {
    const now = version();
    if (built?.version !== now) {
      const { records, names } = read();
      built = { version: now, values: personalValuesOf(records, names) };
    }
    return built.values;
  };
}

/**
 * The personal values for a logger made before what holds them is open (bridge/app-core.ts):
 * none until `follow` names their source.
 */
export function latePersonalValues(): { now: () => PersonalValues | null; follow(source: () => PersonalValues): void } {
  let source: (() => PersonalValues) | null = null;
  return {
    now: () => source?.() ?? null,
    follow(next) {
      source = next;
    },
  };
}
