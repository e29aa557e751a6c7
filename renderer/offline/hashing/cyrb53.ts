/**
 * cyrb53 (public domain, by bryc): a fast 53-bit string hash, two 32-bit lanes mixed, as a
 * safe integer. Not for security: the page hashes (page-hash.ts) and the stored ids
 * (stored-ids.ts) only need collisions to be rare, and both say what one would cost.
 */
export function cyrb53(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  return finish(h1, h2);
}

/**
 * cyrb53 of `parts.join(separator)`, without making the joined string: a page's hash is of its
 * customers' stored forms, about 46 KB a page, and a fill made that string for every page only
 * to hash it, garbage the page's thread then stopped to collect. One loop with the two lanes in
 * local variables, not a helper closing over them: lanes a closure shares live in its context,
 * where V8 boxes every value past 31 bits, a heap number for each character hashed.
 */
export function cyrb53Joined(parts: readonly string[], separator: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let p = 0; p < parts.length; p++) {
    // The separator before every part but the first, then the part: each read where it is.
    for (let k = p === 0 ? 1 : 0; k < 2; k++) {
      const text = k === 0 ? separator : parts[p]!;
      for (let i = 0; i < text.length; i++) {
        const ch = text.charCodeAt(i);
        h1 = Math.imul(h1 ^ ch, 2654435761);
        h2 = Math.imul(h2 ^ ch, 1597334677);
      }
    }
  }
  return finish(h1, h2);
}

function finish(h1: number, h2: number): number {
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
