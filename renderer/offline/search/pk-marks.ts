/**
 * Arrays indexed by a customer's pk, as the search index keeps them: typed (a byte or four a
 * customer, where a Map or Set would take tens), grown by doubling as pks come.
 */

/** `array`, or a copy twice as long as often as needed to index `pk`. */
export function withRoomFor<T extends Uint8Array | Int32Array>(array: T, pk: number): T {
  if (pk < array.length) return array;
  let capacity = array.length;
  while (capacity <= pk) capacity *= 2;
  const grown = new (array.constructor as new (length: number) => T)(capacity);
  grown.set(array);
  return grown;
}

/**
 * Per pk, the generation of the last query pass that marked it: a set of pks per pass
 * without allocating one. A name search chains passes (one per term), a digit scan uses one
 * to count each customer once; both read `values` straight, in their loops.
 */
export class PkMarks {
  values = new Int32Array(1024);
  private generation = 0;

  /** A mark no pk carries yet. */
  next(): number {
    if (this.generation >= 0x7fffffff) {
      this.values.fill(0);
      this.generation = 0;
    }
    this.generation += 1;
    return this.generation;
  }

  makeRoomFor(pk: number): void {
    this.values = withRoomFor(this.values, pk);
  }
}
