/**
 * A hash of a page of customers as the till stores them, kept with the page (db.ts
 * `PageTag.contentHash`): when the service sends no entity tags, a page that hashes the same
 * as last time is known unchanged without reading its stored customers back.
 *
 * cyrb53 (public domain, by bryc): two 32-bit lanes mixed into 53 bits, fast on the
 * ~46 KB of JSON a page of 100 customers makes. Not for security: a collision only leaves
 * a page as it was until its next change; the string's length is kept beside it as well.
 */
export function pageHash(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  const hash = 4294967296 * (2097151 & h2) + (h1 >>> 0);
  return `${hash.toString(36)}-${text.length.toString(36)}`;
}
