/**
 * Posting lists of 4-digit grams of the phone numbers: the candidates for a "part of the
 * number" search of four digits or more, so it never scans every number.
 *
 * After a bulk load the lists are packed in two typed arrays (offsets and pks, 36 MB at
 * 1,000,000 customers), built in two linear passes; numbers added later go to small
 * per-gram arrays (the tail) until the next rebuild. Candidates still need checking
 * against the number itself: a gram only says the number might contain the query.
 *
 * A rebuild keeps answering from the lists it replaces until it swaps the new ones in, so
 * the index may rebuild while it serves searches (phone-digits.ts packs a tail grown by a
 * fill: as plain arrays, a million numbers' grams took twice the memory of the packed form).
 */
import { insertSorted, mergeSorted } from './sorted-lists';

export const GRAM = 4;
const GRAM_COUNT = 10 ** GRAM;
/**
 * A rebuild pauses once a slice has run this long (checked every SLICE_CHECK pks): it may
 * run while the cashier searches, whose search would otherwise wait for the whole slice.
 */
const SLICE_MS = 4;
const SLICE_CHECK = 512;

/** Calls back with each gram of a string of digits (a gram as a number, 0..9999). */
function forEachGram(digits: string, callback: (gram: number) => void): void {
  let gram = 0;
  for (let i = 0; i < digits.length; i++) {
    gram = (gram * 10 + (digits.charCodeAt(i) - 48)) % GRAM_COUNT;
    if (i >= GRAM - 1) callback(gram);
  }
}

export class DigitGramIndex {
  private offsets = new Int32Array(GRAM_COUNT + 1);
  private packed = new Int32Array(0);
  private tail = new Map<number, number[]>();
  /** While a rebuild runs: the tail that comes with its lists (numbers added since it began). */
  private nextTail: Map<number, number[]> | null = null;
  private tailPostings = 0;

  /** Postings in the packed lists. */
  get packedSize(): number {
    return this.packed.length;
  }

  /** Postings added since the last rebuild, waiting in per-gram arrays. */
  get tailSize(): number {
    return this.tailPostings;
  }

  /**
   * Packs the postings of every current number up to `maxPk`, in pk order, in slices of
   * pks with `pause()` between them so a million numbers never freeze the page. Numbers
   * added meanwhile go to the tail and stay there. `digitsOf` gives a pk's current digits,
   * or null when it has none.
   */
  async rebuild(maxPk: number, digitsOf: (pk: number) => string | null, pause: () => Promise<void>): Promise<void> {
    const nextTail = new Map<number, number[]>();
    this.nextTail = nextTail;
    // The last pk seen per gram: a number holding a gram twice is listed once.
    const lastPk = new Int32Array(GRAM_COUNT);
    const eachPosting = async (visit: (gram: number, pk: number) => void) => {
      lastPk.fill(-1);
      let sliceStarted = performance.now();
      for (let pk = 0; pk <= maxPk; pk++) {
        if (pk % SLICE_CHECK === SLICE_CHECK - 1 && performance.now() - sliceStarted > SLICE_MS) {
          await pause();
          sliceStarted = performance.now();
        }
        const digits = digitsOf(pk);
        if (digits === null) continue;
        forEachGram(digits, (gram) => {
          if (lastPk[gram] === pk) return;
          lastPk[gram] = pk;
          visit(gram, pk);
        });
      }
    };
    // Pass 1 counts each gram's postings; their running sums become the offsets.
    const offsets = new Int32Array(GRAM_COUNT + 1);
    await eachPosting((gram) => {
      offsets[gram + 1]! += 1;
    });
    for (let gram = 0; gram < GRAM_COUNT; gram++) offsets[gram + 1]! += offsets[gram]!;
    // Pass 2 fills the slices in pk order.
    const packed = new Int32Array(offsets[GRAM_COUNT]!);
    const next = offsets.slice(0, GRAM_COUNT);
    await eachPosting((gram, pk) => {
      // A number changed between the passes could overrun its slice; its new grams are in the tail.
      if (next[gram]! < offsets[gram + 1]!) packed[next[gram]!++] = pk;
    });
    this.offsets = offsets;
    this.packed = packed;
    this.tail = nextTail;
    this.nextTail = null;
    this.tailPostings = 0;
    for (const list of nextTail.values()) this.tailPostings += list.length;
  }

  /** A number added after the last rebuild began. */
  add(pk: number, digits: string): void {
    forEachGram(digits, (gram) => {
      this.tailPostings += addTo(this.tail, gram, pk);
      if (this.nextTail) addTo(this.nextTail, gram, pk);
    });
  }

  /** pks whose number may hold the query: those holding its rarest gram, ascending, without repeats. Query: at least GRAM digits. */
  candidates(digits: string): ArrayLike<number> {
    let best = -1;
    let bestSize = Infinity;
    forEachGram(digits, (gram) => {
      const size = this.offsets[gram + 1]! - this.offsets[gram]! + (this.tail.get(gram)?.length ?? 0);
      if (size < bestSize) {
        best = gram;
        bestSize = size;
      }
    });
    if (best === -1) return [];
    const packed = this.packed.subarray(this.offsets[best]!, this.offsets[best + 1]!);
    const tail = this.tail.get(best);
    return tail ? mergeSorted(packed, tail) : packed;
  }
}

/** Adds `pk` to the gram's list; 1 if it was not there. */
function addTo(lists: Map<number, number[]>, gram: number, pk: number): number {
  let list = lists.get(gram);
  if (!list) lists.set(gram, (list = []));
  const before = list.length;
  insertSorted(list, pk);
  return list.length - before;
}
