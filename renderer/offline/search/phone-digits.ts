/**
 * The phone half of the search index: every customer's digits, concatenated into a few large
 * strings, for "part of the number". One to three digits are found with `indexOf` (they match
 * so many numbers that the first page fills at once), four or more through posting lists of
 * 4-digit grams (digit-grams.ts): a full scan of 13 MB of digits took 20-40 ms at 1,000,000,
 * and a suffix index would cost far more memory and build time. An exact phone is found the
 * same way, its candidates checked whole: a Map from every phone to its pk took 41 MB at
 * 1,000,000, more than half of the index, to answer in 0.01 ms what the grams answer in a
 * few hundredths more.
 *
 * A customer whose number changes gets a new entry; the old one stays in its string, stale,
 * and every search checks an entry against the customer's current one.
 */
import { digitsOf } from '../../../common/phone';
import { DigitGramIndex, GRAM } from './digit-grams';
import { withRoomFor, type PkMarks } from './pk-marks';

// Phone digits are stored in segments so that appending a customer re-joins only the
// last, small segment, not one string of the whole base.
const SEGMENT_ENTRIES = 65_536;
const SEPARATOR = '|';

/**
 * Gram postings added since the digit grams were last packed (about nine a number: 500,000
 * is some 55,000 numbers) beyond which they are packed again, once they are also half as
 * many as are packed: a fill adds every number one by one, and as per-gram arrays a million
 * numbers' grams took twice the memory of the packed lists.
 */
const GRAM_TAIL_LIMIT = 500_000;

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

export class PhoneDigits {
  private readonly segments: DigitSegment[] = [];
  private readonly grams = new DigitGramIndex();
  /** While a bulk load runs, grams wait for one packed rebuild at its end. */
  private bulkLoading = false;
  /** False until the gram postings cover every number; digit searches scan meanwhile. */
  private gramsReady = true;
  /** The digit grams are being packed again while the index serves searches (see GRAM_TAIL_LIMIT). */
  private packing: Promise<void> | null = null;
  private maxPk = 0;
  /** Per pk: 1 + the global number of its current entry (segment * SEGMENT_ENTRIES + entry); 0 for none. */
  private entryOfPk = new Int32Array(1024);

  /** `pause` gives the page a turn between slices of long work (packing the digit grams again). */
  constructor(private readonly pause: () => Promise<void>) {}

  /** The customer's number is `e164` now (an empty one has no entry). */
  set(pk: number, e164: string): void {
    this.entryOfPk = withRoomFor(this.entryOfPk, pk);
    if (pk > this.maxPk) this.maxPk = pk;
    const digits = phoneDigitsOf(e164);
    if (digits === '') this.entryOfPk[pk] = 0;
    // A new number gets a new entry; the old one is stale from then on (see `scan`).
    else if (this.currentDigitsOf(pk) !== digits) this.append(pk, digits);
  }

  /** The customer left: its entry is stale from now on. */
  clear(pk: number): void {
    if (pk < this.entryOfPk.length) this.entryOfPk[pk] = 0;
  }

  beginBulkLoad(): void {
    this.bulkLoading = true;
    this.gramsReady = false;
  }

  /** Packs the digit grams in slices, pausing between them. */
  async endBulkLoad(pause: () => Promise<void>): Promise<void> {
    // From here numbers added go to the gram tail; the rebuild covers everything up to maxPk.
    this.bulkLoading = false;
    await this.packGrams(pause);
    this.gramsReady = true;
  }

  /** The customers whose number is exactly this E.164 (one, unless a stale cache holds two), in pk order. */
  pksWithPhone(e164: string, marks: PkMarks): number[] {
    const digits = phoneDigitsOf(e164);
    if (digits === '') return [];
    const candidates =
      digits.length >= GRAM && this.gramsReady
        ? this.grams.candidates(digits)
        : this.scan(digits, Number.POSITIVE_INFINITY, marks);
    const pks: number[] = [];
    for (let i = 0; i < candidates.length; i++) {
      if (this.currentDigitsOf(candidates[i]!) === digits) pks.push(candidates[i]!);
    }
    return pks;
  }

  /** Customers whose number holds `digits`, in pk order: at most `limit + 1` (one more says there were more). */
  search(digits: string, limit: number, marks: PkMarks): number[] {
    return digits.length < GRAM || !this.gramsReady ? this.scan(digits, limit, marks) : this.searchGrams(digits, limit);
  }

  /** Gram postings waiting unpacked (in per-gram arrays) since the last packing began. */
  get unpackedGrams(): number {
    return this.grams.tailSize;
  }

  /** Resolves once no packing of the digit grams is running. */
  async settled(): Promise<void> {
    while (this.packing) await this.packing;
  }

  /** The digits of a pk's current number, or null. */
  private currentDigitsOf(pk: number): string | null {
    if (pk >= this.entryOfPk.length) return null;
    const entry = this.entryOfPk[pk]! - 1;
    if (entry < 0) return null;
    return this.segments[Math.floor(entry / SEGMENT_ENTRIES)]!.digitsOf(entry % SEGMENT_ENTRIES);
  }

  /**
   * The rarest 4-digit gram of the query gives the candidates (in pk order); each is
   * checked against its current number, which also drops stale entries.
   */
  private searchGrams(digits: string, limit: number): number[] {
    const candidates = this.grams.candidates(digits);
    const pks: number[] = [];
    for (let i = 0; i < candidates.length; i++) {
      const pk = candidates[i]!;
      const phoneDigits = this.currentDigitsOf(pk);
      if (phoneDigits === null || !phoneDigits.includes(digits)) continue;
      pks.push(pk);
      if (pks.length > limit) break;
    }
    return pks;
  }

  /** Segments in pk order, so results come in pk order. */
  private scan(digits: string, limit: number, pkMarks: PkMarks): number[] {
    const pks: number[] = [];
    const marks = pkMarks.values;
    const taken = pkMarks.next();
    for (let s = 0; s < this.segments.length; s++) {
      const segment = this.segments[s]!;
      const text = segment.text();
      let offset = text.indexOf(digits);
      while (offset !== -1) {
        const entry = segment.entryAt(offset);
        const pk = segment.pks[entry]!;
        // An entry is stale when its customer left or its phone changed since it was appended.
        const current = marks[pk] !== taken && this.entryOfPk[pk] === s * SEGMENT_ENTRIES + entry + 1;
        if (current) {
          marks[pk] = taken;
          pks.push(pk);
          if (pks.length > limit) return pks;
        }
        // Skip the rest of this entry: one phone counts once.
        const next = entry + 1 < segment.starts.length ? segment.starts[entry + 1]! : text.length;
        offset = text.indexOf(digits, next);
      }
    }
    return pks;
  }

  private append(pk: number, digits: string): void {
    let last = this.segments[this.segments.length - 1];
    if (!last || last.size >= SEGMENT_ENTRIES) {
      // The full one is read as one string from now on: its parts would double its memory.
      last?.text();
      last = new DigitSegment();
      this.segments.push(last);
    }
    this.entryOfPk[pk] = (this.segments.length - 1) * SEGMENT_ENTRIES + last.size + 1;
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
}

/** The digits of an E.164 number (`+` and digits: slicing spares a regular expression per customer at load). */
function phoneDigitsOf(e164: string): string {
  return e164.startsWith('+') ? e164.slice(1) : digitsOf(e164);
}
