/**
 * A digest of each search chunk's phones: a keyed 32-bit digest of each customer's phone
 * digits, in the chunk's lines' order. While the in-memory index loads, an exact phone (who the
 * customer is: that answer is never partial) is looked for in every customer's number;
 * reading every search chunk for it took 1.9-2.15 s at 1,000,000 customers on a two-core
 * till, most of it bytes (a line is about 30 characters, two bytes each once a name in the
 * chunk is Arabic). The digests are 4 bytes a customer: the chunks whose digest holds the
 * number's digest are the only ones read, and their lines say whether the number is really
 * there, and whose it is (two numbers share a digest about once in four thousand million).
 *
 * Keyed: an HMAC under the lookup key of the till's data key (sealing/keyring.ts), truncated to
 * 32 bits. An unkeyed hash of a phone number is no secret at all: every Saudi mobile number can
 * be hashed in seconds and matched. Digests written before sealing (no `keyed` mark) are still
 * read, with the unkeyed hash, until the sealing pass has rewritten them.
 *
 * Kept with its chunk: every write of a search chunk writes its digest, computed from the
 * chunk as written, in the same transaction (customer-blocks.ts, search-chunks.ts).
 */
import { digitsOf } from '../../../common/phone';
import { linesOf, phoneDigitsOfLine } from './search-chunks';
import { keyringOf } from '../db/sealed-tables';
import type { CachedCustomer, OfflineDb, PhoneDigest, SearchChunk } from '../db/schema';

/** What the phone digests are keyed for: no other lookup's digest is one of these. */
export const PHONE_PURPOSE = 'phone digits';

/** The keyed digest of a phone's digits under `db`'s keyring; never 0, which marks "no phone". */
export function phoneDigest(db: OfflineDb, digits: string): number {
  return keyringOf(db, 'phoneDigests').digest32(digits, PHONE_PURPOSE);
}

/** FNV-1a, 32 bits, of a phone's digits, as digests written before sealing hold it; never 0. */
export function legacyPhoneHash(digits: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < digits.length; i++) hash = Math.imul(hash ^ digits.charCodeAt(i), 0x01000193);
  return hash >>> 0 || 1;
}

/**
 * Computes the digests of these customers' phones before the write that stores them opens its
 * transaction: the keyring keeps what it computed, so `phoneDigestOf` inside the transaction
 * only looks them up. A fill's transaction is what a cashier's "Queued" waits for, and the
 * digests were a third of the work it did on the page's thread.
 */
export function digestPhonesAhead(db: OfflineDb, rows: readonly Pick<CachedCustomer, 'phoneE164'>[]): void {
  for (const row of rows) {
    const digits = digitsOf(row.phoneE164);
    if (digits !== '') phoneDigest(db, digits);
  }
}

/** The digest of a chunk as stored. */
export function phoneDigestOf(db: OfflineDb, chunk: SearchChunk): PhoneDigest {
  const lines = linesOf(chunk);
  const hashes = new Uint32Array(lines.length);
  lines.forEach((line, i) => {
    const digits = phoneDigitsOfLine(line);
    hashes[i] = digits === '' ? 0 : phoneDigest(db, digits);
  });
  return { chunk: chunk.chunk, hashes, keyed: true };
}

/** Whether a digest holds a customer whose phone's digits may be `digits`. */
export function mayHoldPhone(db: OfflineDb, digest: PhoneDigest, digits: string): boolean {
  return digest.hashes.includes(digest.keyed ? phoneDigest(db, digits) : legacyPhoneHash(digits));
}
