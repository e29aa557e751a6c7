/**
 * Operations on sorted arrays, shared by the search index's posting lists (customer keys)
 * and its sorted word list. Posting lists hold each key once.
 */

/** The first position whose value is not below `value` (where it is, or would be inserted). */
export function lowerBound<T extends number | string>(sorted: ArrayLike<T>, value: T): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Inserts unless present. Loading appends keys in order, so the common case is a push. */
export function insertSorted(list: number[], value: number): void {
  if (list.length === 0 || list[list.length - 1]! < value) {
    list.push(value);
    return;
  }
  const at = lowerBound(list, value);
  if (list[at] !== value) list.splice(at, 0, value);
}

export function removeSorted(list: number[], value: number): void {
  const at = lowerBound(list, value);
  if (list[at] === value) list.splice(at, 1);
}

/** The sorted union of two sorted lists, each value once. */
export function mergeSorted(a: ArrayLike<number>, b: ArrayLike<number>): number[] {
  const merged: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const next = j >= b.length || (i < a.length && a[i]! <= b[j]!) ? a[i++]! : b[j++]!;
    if (merged.length === 0 || merged[merged.length - 1] !== next) merged.push(next);
  }
  return merged;
}
