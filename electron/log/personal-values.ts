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

/** The values known so far: a record's personal fields and names are added, never taken back. */
class KnownValues {
  private readonly known = new Set<string>();
  /** What the redaction matches against: a view of the set, so what is added later is matched too. */
  readonly values: PersonalValues = { has: (folded) => this.known.has(folded), longestWords: 1 };

  add(value: string, isName: boolean): void {
    const folded = foldValue(value);
    if (folded.length < 3) return;
    const words = folded.split(' ');
    if (words.length <= MOST_WORDS) {
      this.known.add(folded);
      this.values.longestWords = Math.max(this.values.longestWords, words.length);
    }
    if (isName || words.length > MOST_WORDS) for (const word of words) if (word.length >= 3) this.known.add(word);
  }

  addRecord(record: Record<string, unknown>): void {
    for (const field of PERSONAL_FIELDS) {
      const value = record[field];
      if (typeof value === 'string') this.add(value, NAME_FIELDS.has(field));
    }
  }
}

/** The values of `records` (outbox items, journal entries) and `names` (cashiers), ready to be matched. */
export function personalValuesOf(records: Iterable<unknown>, names: Iterable<string> = []): PersonalValues {
  const known = new KnownValues();
  for (const record of records) if (isRecord(record)) known.addRecord(record);
  for (const name of names) known.add(name, true);
  return known.values;
}

/**
 * The values, kept up with what holds them (`version`: the work copy's revision, the
 * cashiers): a value queued a moment ago must be known to the very next line. Each record is
 * folded once: the work copy holds the records the page handed over and replaces, never
 * changes, one that changed, so a record already seen is passed over by its identity, and a
 * log line after a change costs a walk of the records, not the folding of the whole journal
 * again. Values are only added during a run: one whose record has left is still redacted,
 * which costs nothing.
 */
export function followPersonalValues(
  read: () => { records: Iterable<unknown>; names: Iterable<string> },
  version: () => string,
): () => PersonalValues {
  const known = new KnownValues();
  const folded = new WeakSet<object>();
  const names = new Set<string>();
  let seen: string | null = null;
  return () => {
    const now = version();
    if (now !== seen) {
      seen = now;
      const current = read();
      for (const record of current.records) {
        if (!isRecord(record) || folded.has(record)) continue;
        folded.add(record);
        known.addRecord(record);
      }
      for (const name of current.names) {
        if (names.has(name)) continue;
        names.add(name);
        known.add(name, true);
      }
    }
    return known.values;
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
