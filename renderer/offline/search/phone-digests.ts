/**
 * A digest of each search chunk's phones: a 32-bit hash of each customer's phone digits,
 * in the chunk's lines' order. While the in-memory index loads, an exact phone (who the
 * customer is: that answer is never partial) is looked for in every customer's number;
 * reading every search chunk for it took 1.9-2.15 s at 1,000,000 customers on a two-core
 * till, most of it bytes (a line is about 30 characters, two bytes each once a name in the
 * chunk is Arabic). The digests are 4 bytes a customer: the chunks whose digest holds the
 * number's hash are the only ones read, and their lines say whether the number is really
 * there, and whose it is (two numbers share a hash about once in four thousand million).
 *
 * Kept with its chunk: every write of a search chunk writes its digest, computed from the
 * chunk as written, in the same transaction (customer-blocks.ts, search-chunks.ts).
 */
import { linesOf, phoneDigitsOfLine } from './search-chunks';
import type { PhoneDigest, SearchChunk } from '../db/schema';

/** FNV-1a, 32 bits, of a phone's digits; never 0, which marks "no phone". */
export function phoneHash(digits: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < digits.length; i++) hash = Math.imul(hash ^ digits.charCodeAt(i), 0x01000193);
  return hash >>> 0 || 1;
}

/** The digest of a chunk as stored. */
export function phoneDigestOf(chunk: SearchChunk): PhoneDigest {
  const lines = linesOf(chunk);
  const hashes = new Uint32Array(lines.length);
  lines.forEach((line, i) => {
    const digits = phoneDigitsOfLine(line);
    hashes[i] = digits === '' ? 0 : phoneHash(digits);
  });
  return { chunk: chunk.chunk, hashes };
}

/** Whether a digest holds a customer whose phone's digits may be `digits`. */
export function mayHoldPhone(digest: PhoneDigest, digits: string): boolean {
  return digest.hashes.includes(phoneHash(digits));
}
