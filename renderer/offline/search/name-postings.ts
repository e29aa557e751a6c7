/**
 * The name half of the search index: every folded name word with its posting list of pks
 * (kept sorted), plus the words themselves sorted, so that the words a term is a prefix of
 * are one range found by binary search.
 */
import { insertSorted, lowerBound, removeSorted } from './sorted-lists';
import type { PkMarks } from './pk-marks';

// Past the last character a folded word can hold: `prefix + WORD_END` bounds a prefix range.
const WORD_END = '\uffff';

export class NamePostings {
  private readonly postings = new Map<string, number[]>();
  /** The words of `postings`, sorted; null while a bulk load adds words (sorted once at the end). */
  private sortedWords: string[] | null = [];

  /** Bulk loading adds many new words; sorting them once at the end beats inserting each. */
  beginBulkLoad(): void {
    this.sortedWords = null;
  }

  endBulkLoad(): void {
    this.words();
  }

  /** A customer's words are `words` now, and were `previous` (null for a new one). */
  update(pk: number, words: readonly string[], previous: readonly string[] | null): void {
    if (previous) {
      for (const word of previous) {
        if (!words.includes(word)) this.remove(word, pk);
      }
    }
    for (const word of words) this.add(word, pk);
  }

  /** The customer's words leave the index. */
  drop(pk: number, words: readonly string[]): void {
    for (const word of words) this.remove(word, pk);
  }

  /**
   * Customers each of whose terms is a prefix of some word of their name: at most
   * `limit + 1` (one more says there were more). The rarest term drives (its words in
   * alphabetical order, then pk), the others are marked first in a chain of passes over
   * one reused array, so no sets are allocated per query.
   */
  search(terms: readonly string[], limit: number, pkMarks: PkMarks): number[] {
    const words = this.words();
    const ranges = terms.map((term) => {
      const from = lowerBound(words, term);
      const to = lowerBound(words, term + WORD_END);
      let postings = 0;
      for (let i = from; i < to; i++) postings += this.postings.get(words[i]!)!.length;
      return { from, to, postings };
    });
    if (ranges.some((range) => range.postings === 0)) return [];
    let driverIndex = 0;
    ranges.forEach((range, i) => {
      if (range.postings < ranges[driverIndex]!.postings) driverIndex = i;
    });

    const marks = pkMarks.values;
    // A pk that passed every term so far carries `required`; a term's pass upgrades it.
    let required = -1;
    for (let t = 0; t < ranges.length; t++) {
      if (t === driverIndex) continue;
      const pass = pkMarks.next();
      const { from, to } = ranges[t]!;
      for (let i = from; i < to; i++) {
        for (const pk of this.postings.get(words[i]!)!) {
          if (required === -1 ? marks[pk] !== pass : marks[pk] === required) marks[pk] = pass;
        }
      }
      required = pass;
    }

    const taken = pkMarks.next();
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
    return pks;
  }

  private words(): string[] {
    if (this.sortedWords === null) this.sortedWords = [...this.postings.keys()].sort();
    return this.sortedWords;
  }

  private add(word: string, pk: number): void {
    let list = this.postings.get(word);
    if (!list) {
      list = [];
      this.postings.set(word, list);
      if (this.sortedWords !== null) this.sortedWords.splice(lowerBound(this.sortedWords, word), 0, word);
    }
    insertSorted(list, pk);
  }

  private remove(word: string, pk: number): void {
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
}
