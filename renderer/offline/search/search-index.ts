/**
 * The slim in-memory search index that serves offline search in the hot path.
 *
 * Measured at 1,000,000 customers: scanning the table is unusable (seconds) and combining
 * IndexedDB indexes with `filter()` is slow for several words, while this structure answers
 * every query kind in a few milliseconds and takes well under 200 MB, because it keeps only:
 * - folded name words, each with a posting list of customer `pk`s (kept sorted), plus a
 *   sorted array of the words for prefix ranges by binary search;
 * - the phone digits, concatenated into a few large strings, for "part of the number":
 *   searched with `indexOf` for one to three digits (they match so many numbers that the
 *   first page fills at once), and through posting lists of 4-digit grams for four or more
 *   (a full scan of 13 MB of digits took 20-40 ms at 1,000,000; a suffix index would cost far
 *   more memory and build time). An exact phone is found the same way, its candidates
 *   checked whole: a Map from every phone to its pk took 41 MB at 1,000,000, more than half
 *   of the index, to answer in 0.01 ms what the grams answer in a few hundredths more.
 * Full records stay in IndexedDB; what the results list shows of the page's customers comes
 * from the listings in memory (listings.ts), or from the records until those have loaded.
 *
 * Document numbers are the customers' `pk`s, so nothing maps between the two.
 */
import { digitsOf, readPhone } from '../../../common/phone';
import { DigitGramIndex, GRAM } from './digit-grams';
import { foldWords } from '../../../common/fold';
import { insertSorted, lowerBound, removeSorted } from './sorted-lists';

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

// Phone digits are stored in segments so that appending a customer re-joins only the
// last, small segment, not one string of the whole base.
const SEGMENT_ENTRIES = 65_536;
const SEPARATOR = '|';

class DigitSegment {
  private parts: string[] = [];
  private joined: string | null = '';
  /** Offset in the joined text where each entry starts. */
  readonly starts: number[] = [];
  readonly pks: number[] = [];
  private length = 0;

  get size(): number {
    return this.pks.length;
  }

  append(pk: number, digits: string): void {
    this.starts.push(this.length);
    this.pks.push(pk);
    this.parts.push(digits + SEPARATOR);
    this.length += digits.length + 1;
    this.joined = null;
  }

  text(): string {
    if (this.joined === null) {
      this.joined = this.parts.join('');
      // One string is all that is needed from here on; the parts would double the memory.
      this.parts = [this.joined];
    }
    return this.joined;
  }

  /** The entry index whose digits contain the text offset. */
  entryAt(offset: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  digitsOf(entry: number): string {
    const text = this.text();
    const start = this.starts[entry]!;
    const end = entry + 1 < this.starts.length ? this.starts[entry + 1]! - 1 : text.length - 1;
    return text.slice(start, end);
  }
}

// Past the last character a folded word can hold: `prefix + WORD_END` bounds a prefix range.
const WORD_END = '\uffff';

/**
 * Gram postings added since the digit grams were last packed (about nine a number: 500,000
 * is some 55,000 numbers) beyond which they are packed again, once they are also half as
 * many as are packed: a fill adds every number one by one, and as per-gram arrays a million
 * numbers' grams took twice the memory of the packed lists.
 */
const GRAM_TAIL_LIMIT = 500_000;

export class SlimSearchIndex {
  private readonly postings = new Map<string, number[]>();
  /** The words of `postings`, sorted; null while a bulk load adds words (sorted once at the end). */
  private sortedWords: string[] | null = [];
  private readonly segments: DigitSegment[] = [];
  private readonly grams = new DigitGramIndex();
  /** While a bulk load runs, grams wait for one packed rebuild at its end. */
  private bulkLoading = false;
  /** False until the gram postings cover every number; digit searches scan meanwhile. */
  private gramsReady = true;
  /** The digit grams are being packed again while the index serves searches (see GRAM_TAIL_LIMIT). */
  private packing: Promise<void> | null = null;
  private maxPk = 0;
  /** Per pk: 1 + the global number of its current digit entry (segment * SEGMENT_ENTRIES + entry); 0 for none. */
  private digitEntryOfPk = new Int32Array(1024);
  /** Per pk: 1 while the customer is in the index. */
  private live = new Uint8Array(1024);
  /** Per pk: the generation of the last query pass that marked it (see `searchNames`). */
  private marks = new Int32Array(1024);
  private generation = 0;
  private count = 0;

  /** `pause` gives the page a turn between slices of long work (packing the digit grams again). */
  constructor(private readonly pause: () => Promise<void> = async () => undefined) {}

  get size(): number {
    return this.count;
  }

  /** Adds or updates a customer. `previous` is what the index holds for it, if anything. */
  upsert(entry: IndexEntry, previous?: IndexEntry | null): void {
    const { pk } = entry;
    this.ensureCapacity(pk);
    if (pk > this.maxPk) this.maxPk = pk;
    if (previous) {
      for (const word of previous.nameWords) {
        if (!entry.nameWords.includes(word)) this.removePosting(word, pk);
      }
    }
    for (const word of entry.nameWords) this.addPosting(word, pk);
    const digits = phoneDigitsOf(entry.phoneE164);
    if (digits === '') this.digitEntryOfPk[pk] = 0;
    // A new number gets a new entry; the old one is stale from then on (see `scanDigits`).
    else if (this.live[pk] === 0 || this.currentDigitsOf(pk) !== digits) this.appendDigits(pk, digits);
    if (this.live[pk] === 0) {
      this.live[pk] = 1;
      this.count += 1;
    }
  }

  remove(entry: IndexEntry): void {
    const { pk } = entry;
    if (pk >= this.live.length || this.live[pk] === 0) return;
    for (const word of entry.nameWords) this.removePosting(word, pk);
    this.live[pk] = 0;
    this.count -= 1;
  }

  /** Bulk loading adds many new words; sorting them once at the end beats inserting each. */
  beginBulkLoad(): void {
    this.sortedWords = null;
    this.bulkLoading = true;
    this.gramsReady = false;
  }

  /** Sorts the words, then packs the digit grams in slices, pausing between them. */
  async endBulkLoad(pause: () => Promise<void> = this.pause): Promise<void> {
    this.words();
    // From here numbers added go to the gram tail; the rebuild covers everything up to maxPk.
    this.bulkLoading = false;
    await this.packGrams(pause);
    this.gramsReady = true;
  }

  /** The digits of a pk's current number, or null. */
  private currentDigitsOf(pk: number): string | null {
    if (pk >= this.live.length || this.live[pk] !== 1) return null;
    const entry = this.digitEntryOfPk[pk]! - 1;
    if (entry < 0) return null;
    return this.segments[Math.floor(entry / SEGMENT_ENTRIES)]!.digitsOf(entry % SEGMENT_ENTRIES);
  }

  search(query: ParsedQuery, limit: number): IndexHits {
    switch (query.kind) {
      case 'all':
        return this.searchAll(limit);
      case 'phone': {
        const pks = this.pksWithPhone(query.e164);
        if (pks.length > 0) return { ...this.capped(pks, limit), matched: 'exact_phone' };
        return { ...this.searchDigits(query.digits, limit), matched: 'digits' };
      }
      case 'digits':
        return this.searchDigits(query.digits, limit);
      case 'name':
        return this.searchNames(query.terms, limit);
    }
  }

  /** Exact phone only (E.164): the first customer, in pk order, with this number. */
  findPhone(e164: string): number | undefined {
    return this.pksWithPhone(e164)[0];
  }

  /** The customers whose number is exactly this E.164 (one, unless a stale cache holds two), in pk order. */
  private pksWithPhone(e164: string): number[] {
    const digits = phoneDigitsOf(e164);
    if (digits === '') return [];
    const candidates =
      digits.length >= GRAM && this.gramsReady
        ? this.grams.candidates(digits)
        : this.scanDigits(digits, Number.POSITIVE_INFINITY).pks;
    const pks: number[] = [];
    for (let i = 0; i < candidates.length; i++) {
      if (this.currentDigitsOf(candidates[i]!) === digits) pks.push(candidates[i]!);
    }
    return pks;
  }

  private searchAll(limit: number): IndexHits {
    const pks: number[] = [];
    for (let pk = 0; pk < this.live.length && pks.length <= limit; pk++) {
      if (this.live[pk] === 1) pks.push(pk);
    }
    return this.capped(pks, limit);
  }

  /**
   * Every term must be a prefix of some word of the name. The rarest term drives (its
   * words in alphabetical order, then pk), the others are marked first in a chain of
   * passes over one reused array, so no sets are allocated per query.
   */
  private searchNames(terms: readonly string[], limit: number): IndexHits {
    const words = this.words();
    const ranges = terms.map((term) => {
      const from = lowerBound(words, term);
      const to = lowerBound(words, term + WORD_END);
      let postings = 0;
      for (let i = from; i < to; i++) postings += this.postings.get(words[i]!)!.length;
      return { from, to, postings };
    });
    if (ranges.some((range) => range.postings === 0)) return { pks: [], capped: false };
    let driverIndex = 0;
    ranges.forEach((range, i) => {
      if (range.postings < ranges[driverIndex]!.postings) driverIndex = i;
    });

    const marks = this.marks;
    // A pk that passed every term so far carries `required`; a term's pass upgrades it.
    let required = -1;
    for (let t = 0; t < ranges.length; t++) {
      if (t === driverIndex) continue;
      const pass = this.nextGeneration();
      const { from, to } = ranges[t]!;
      for (let i = from; i < to; i++) {
        for (const pk of this.postings.get(words[i]!)!) {
          if (required === -1 ? marks[pk] !== pass : marks[pk] === required) marks[pk] = pass;
        }
      }
      required = pass;
    }

    const taken = this.nextGeneration();
    const pks: number[] = [];
    const { from, to } = ranges[driverIndex]!;
    outer: for (let i = from; i < to; i++) {
      for (const pk of this.postings.get(words[i]!)!) {
        if (marks[pk] === taken || (required !== -1 && marks[pk] !== required)) continue;
        marks[pk] = taken;
        pks.push(pk);
        if (pks.length > limit) break outer;
      }
    }
    return this.capped(pks, limit);
  }

  /** Part of a number, in pk order. */
  private searchDigits(digits: string, limit: number): IndexHits {
    return digits.length < GRAM || !this.gramsReady
      ? this.scanDigits(digits, limit)
      : this.searchDigitGrams(digits, limit);
  }

  /**
   * The rarest 4-digit gram of the query gives the candidates (in pk order); each is
   * checked against its current number, which also drops stale entries.
   */
  private searchDigitGrams(digits: string, limit: number): IndexHits {
    const candidates = this.grams.candidates(digits);
    const pks: number[] = [];
    for (let i = 0; i < candidates.length; i++) {
      const pk = candidates[i]!;
      const phoneDigits = this.currentDigitsOf(pk);
      if (phoneDigits === null || !phoneDigits.includes(digits)) continue;
      pks.push(pk);
      if (pks.length > limit) break;
    }
    return this.capped(pks, limit);
  }

  /** Segments in pk order, so results come in pk order. */
  private scanDigits(digits: string, limit: number): IndexHits {
    const pks: number[] = [];
    const taken = this.nextGeneration();
    for (let s = 0; s < this.segments.length; s++) {
      const segment = this.segments[s]!;
      const text = segment.text();
      let offset = text.indexOf(digits);
      while (offset !== -1) {
        const entry = segment.entryAt(offset);
        const pk = segment.pks[entry]!;
        // An entry is stale when its customer left or its phone changed since it was appended.
        const current =
          this.live[pk] === 1 &&
          this.marks[pk] !== taken &&
          this.digitEntryOfPk[pk] === s * SEGMENT_ENTRIES + entry + 1;
        if (current) {
          this.marks[pk] = taken;
          pks.push(pk);
          if (pks.length > limit) return this.capped(pks, limit);
        }
        // Skip the rest of this entry: one phone counts once.
        const next = entry + 1 < segment.starts.length ? segment.starts[entry + 1]! : text.length;
        offset = text.indexOf(digits, next);
      }
    }
    return this.capped(pks, limit);
  }

  private capped(pks: number[], limit: number): IndexHits {
    if (pks.length > limit) return { pks: pks.slice(0, limit), capped: true };
    return { pks, capped: false };
  }

  private words(): string[] {
    if (this.sortedWords === null) this.sortedWords = [...this.postings.keys()].sort();
    return this.sortedWords;
  }

  private addPosting(word: string, pk: number): void {
    let list = this.postings.get(word);
    if (!list) {
      list = [];
      this.postings.set(word, list);
      if (this.sortedWords !== null) this.sortedWords.splice(lowerBound(this.sortedWords, word), 0, word);
    }
    insertSorted(list, pk);
  }

  private removePosting(word: string, pk: number): void {
    const list = this.postings.get(word);
    if (!list) return;
    removeSorted(list, pk);
    if (list.length === 0) {
      this.postings.delete(word);
      if (this.sortedWords !== null) {
        const at = lowerBound(this.sortedWords, word);
        if (this.sortedWords[at] === word) this.sortedWords.splice(at, 1);
      }
    }
  }

  private appendDigits(pk: number, digits: string): void {
    let last = this.segments[this.segments.length - 1];
    if (!last || last.size >= SEGMENT_ENTRIES) {
      // The full one is read as one string from now on: its parts would double its memory.
      last?.text();
      last = new DigitSegment();
      this.segments.push(last);
    }
    this.digitEntryOfPk[pk] = (this.segments.length - 1) * SEGMENT_ENTRIES + last.size + 1;
    last.append(pk, digits);
    if (this.bulkLoading) return;
    this.grams.add(pk, digits);
    if (this.grams.tailSize > Math.max(GRAM_TAIL_LIMIT, this.grams.packedSize / 2)) void this.packGrams();
  }

  /** Packs the digit grams again, every current number in, while the old lists go on answering. */
  private packGrams(pause: () => Promise<void> = this.pause): Promise<void> {
    this.packing ??= this.grams
      .rebuild(this.maxPk, (pk) => this.currentDigitsOf(pk), pause)
      .finally(() => (this.packing = null));
    return this.packing;
  }

  /** Gram postings waiting unpacked (in per-gram arrays) since the last packing began. */
  get unpackedGrams(): number {
    return this.grams.tailSize;
  }

  /** Resolves once no packing of the digit grams is running (for tests and measurements). */
  async settled(): Promise<void> {
    while (this.packing) await this.packing;
  }

  private nextGeneration(): number {
    if (this.generation >= 0x7fffffff) {
      this.marks.fill(0);
      this.generation = 0;
    }
    this.generation += 1;
    return this.generation;
  }

  private ensureCapacity(pk: number): void {
    if (pk < this.live.length) return;
    let capacity = this.live.length;
    while (capacity <= pk) capacity *= 2;
    const live = new Uint8Array(capacity);
    live.set(this.live);
    this.live = live;
    const marks = new Int32Array(capacity);
    marks.set(this.marks);
    this.marks = marks;
    const digitEntries = new Int32Array(capacity);
    digitEntries.set(this.digitEntryOfPk);
    this.digitEntryOfPk = digitEntries;
  }
}

/** The digits of an E.164 number (`+` and digits: slicing spares a regular expression per customer at load). */
function phoneDigitsOf(e164: string): string {
  return e164.startsWith('+') ? e164.slice(1) : digitsOf(e164);
}
