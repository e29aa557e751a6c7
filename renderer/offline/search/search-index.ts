/**
 * The slim in-memory search index that serves offline search in the hot path.
 *
 * Measured at 1,000,000 customers: scanning the table is unusable (seconds) and combining
 * IndexedDB indexes with `filter()` is slow for several words, while this structure answers
 * every query kind in a few milliseconds and takes well under 200 MB, because it keeps only:
 * - folded name words, each with a posting list of customer `pk`s (name-postings.ts);
 * - the phone digits, concatenated into a few large strings, with posting lists of 4-digit
 *   grams for four digits or more, which also find an exact phone (phone-digits.ts);
 * - per pk, whether the customer is in, and the marks a query pass sets (pk-marks.ts).
 * Full records stay in IndexedDB; what the results list shows of the page's customers comes
 * from the listings in memory (listings.ts), or from the records until those have loaded.
 *
 * Document numbers are the customers' `pk`s, so nothing maps between the two.
 */
import { digitsOf, readPhone } from '../../../common/phone';
import { foldWords } from '../../../common/fold';
import { NamePostings } from './name-postings';
import { PhoneDigits } from './phone-digits';
import { PkMarks, withRoomFor } from './pk-marks';

/** What the index needs of a customer. */
export interface IndexEntry {
  pk: number;
  phoneE164: string;
  nameWords: readonly string[];
}

/** What a cashier's search text asks for. */
export type ParsedQuery =
  | { kind: 'all' }
  /** A complete phone number; `digits` is used when no customer has exactly it. */
  | { kind: 'phone'; e164: string; digits: string }
  | { kind: 'digits'; digits: string }
  | { kind: 'name'; terms: string[] };

export interface IndexHits {
  /** Matching customers, deduplicated, in a deterministic order, at most `limit`. */
  pks: number[];
  /** True when more matched than `limit`: the cashier should type more. */
  capped: boolean;
  /** For a phone query: whether it matched exactly or fell back to a digit search. */
  matched?: 'exact_phone' | 'digits';
}

// Text made only of what people and scanners put in phone numbers.
const NUMBER_SHAPE = /^[+\d\s().-]+$/;

/**
 * Reads the cashier's text the way the online search is used: a complete phone (local
 * with the till's country, or international), digits (part of a number), or name words.
 */
export function parseQuery(text: string, defaultCountry: string): ParsedQuery {
  const trimmed = text.trim();
  if (trimmed === '') return { kind: 'all' };
  if (NUMBER_SHAPE.test(trimmed)) {
    const digits = digitsOf(trimmed);
    if (digits === '') return { kind: 'all' };
    const phone = readPhone(trimmed, defaultCountry);
    if (phone) return { kind: 'phone', e164: phone.e164, digits };
    return { kind: 'digits', digits };
  }
  const terms = [...new Set(foldWords(trimmed))];
  return terms.length === 0 ? { kind: 'all' } : { kind: 'name', terms };
}

export class SlimSearchIndex {
  private readonly names = new NamePostings();
  private readonly phones: PhoneDigits;
  /** Per pk: 1 while the customer is in the index. */
  private live = new Uint8Array(1024);
  /** Per pk: the last query pass that marked it (name searches and digit scans). */
  private readonly marks = new PkMarks();
  private count = 0;

  /** `pause` gives the page a turn between slices of long work (packing the digit grams again). */
  constructor(private readonly pause: () => Promise<void> = async () => undefined) {
    this.phones = new PhoneDigits(pause);
  }

  get size(): number {
    return this.count;
  }

  /** Adds or updates a customer. `previous` is what the index holds for it, if anything. */
  upsert(entry: IndexEntry, previous?: IndexEntry | null): void {
    const { pk } = entry;
    this.live = withRoomFor(this.live, pk);
    this.marks.makeRoomFor(pk);
    this.names.update(pk, entry.nameWords, previous ? previous.nameWords : null);
    this.phones.set(pk, entry.phoneE164);
    if (this.live[pk] === 0) {
      this.live[pk] = 1;
      this.count += 1;
    }
  }

  remove(entry: IndexEntry): void {
    const { pk } = entry;
    if (pk >= this.live.length || this.live[pk] === 0) return;
    this.names.drop(pk, entry.nameWords);
    this.phones.clear(pk);
    this.live[pk] = 0;
    this.count -= 1;
  }

  /** Bulk loading adds many new words and numbers: each half sorts or packs them once at the end. */
  beginBulkLoad(): void {
    this.names.beginBulkLoad();
    this.phones.beginBulkLoad();
  }

  /** Sorts the words, then packs the digit grams in slices, pausing between them. */
  async endBulkLoad(pause: () => Promise<void> = this.pause): Promise<void> {
    this.names.endBulkLoad();
    await this.phones.endBulkLoad(pause);
  }

  search(query: ParsedQuery, limit: number): IndexHits {
    switch (query.kind) {
      case 'all':
        return this.searchAll(limit);
      case 'phone': {
        const pks = this.phones.pksWithPhone(query.e164, this.marks);
        if (pks.length > 0) return { ...capped(pks, limit), matched: 'exact_phone' };
        return { ...capped(this.phones.search(query.digits, limit, this.marks), limit), matched: 'digits' };
      }
      case 'digits':
        return capped(this.phones.search(query.digits, limit, this.marks), limit);
      case 'name':
        return capped(this.names.search(query.terms, limit, this.marks), limit);
    }
  }

  /** Exact phone only (E.164): the first customer, in pk order, with this number. */
  findPhone(e164: string): number | undefined {
    return this.phones.pksWithPhone(e164, this.marks)[0];
  }

  private searchAll(limit: number): IndexHits {
    const pks: number[] = [];
    for (let pk = 0; pk < this.live.length && pks.length <= limit; pk++) {
      if (this.live[pk] === 1) pks.push(pk);
    }
    return capped(pks, limit);
  }

  /** Gram postings waiting unpacked (in per-gram arrays) since the last packing began. */
  get unpackedGrams(): number {
    return this.phones.unpackedGrams;
  }

  /** Resolves once no packing of the digit grams is running (for tests and measurements). */
  async settled(): Promise<void> {
    await this.phones.settled();
  }
}

function capped(pks: number[], limit: number): IndexHits {
  if (pks.length > limit) return { pks: pks.slice(0, limit), capped: true };
  return { pks, capped: false };
}
