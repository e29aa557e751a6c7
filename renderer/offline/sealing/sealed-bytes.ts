/**
 * The layout of a value sealed under the till's storage key, in one place:
 *
 *     [format: 1 byte = 1][IV: 12 bytes, fresh per value][AES-256-GCM ciphertext][tag: 16 bytes]
 *
 * The associated data the tag covers is the format byte and the value's context (its table and
 * record, say), so a sealed value copied into another record, or read as another format, does
 * not open. Nothing of the layout is secret; the key is. It is standard AES-GCM with a 96-bit
 * IV and a 128-bit tag: Web Crypto opens what `@noble/ciphers` sealed, and the other way round.
 */
export const SEALED_FORMAT = 1;
/** 96 bits: GCM's own nonce size, random per value (NIST SP 800-38D, 8.2.2). */
export const IV_BYTES = 12;
export const TAG_BYTES = 16;
export const HEADER_BYTES = 1 + IV_BYTES;

/** `crypto.getRandomValues` fills at most 65,536 bytes a call: the IVs are drawn this many at a time. */
const IVS_PER_DRAW = Math.floor(65536 / IV_BYTES);

const encoder = new TextEncoder();

/** Why sealed bytes did not open: not this layout, or not sealed by this key for this context (or changed). */
export class SealedValueError extends Error {
  constructor(readonly reason: 'format' | 'authentication') {
    super(
      reason === 'format'
        ? 'These bytes are not a value sealed by the till.'
        : 'This sealed value does not open with this till’s key for this record: it was changed, or sealed elsewhere.',
    );
    this.name = 'SealedValueError';
  }
}

/** The associated data of a value of `context`: the format byte, then the context's UTF-8. */
export function associatedData(context: string): Uint8Array {
  const text = encoder.encode(context);
  const bytes = new Uint8Array(1 + text.length);
  bytes[0] = SEALED_FORMAT;
  bytes.set(text, 1);
  return bytes;
}

/**
 * Fresh random IVs, one per call of `next`, drawn from the browser's generator a few thousand
 * at a time (one `getRandomValues` costs about as much as a few hundred bytes of sealing).
 * Every IV is handed out once.
 */
export class IvSource {
  private pool = new Uint8Array(0);
  private at = 0;

  next(): Uint8Array {
    if (this.at + IV_BYTES > this.pool.length) {
      this.pool = crypto.getRandomValues(new Uint8Array(IVS_PER_DRAW * IV_BYTES));
      this.at = 0;
    }
    const iv = this.pool.subarray(this.at, this.at + IV_BYTES);
    this.at += IV_BYTES;
    return iv;
  }
}

/** The header and the ciphertext (tag included) as one value. */
export function frame(iv: Uint8Array, ciphertext: Uint8Array): Uint8Array {
  const sealed = new Uint8Array(HEADER_BYTES + ciphertext.length);
  sealed[0] = SEALED_FORMAT;
  sealed.set(iv, 1);
  sealed.set(ciphertext, HEADER_BYTES);
  return sealed;
}

/** The IV and the ciphertext of a sealed value; `SealedValueError('format')` when it is not one. */
export function unframe(sealed: Uint8Array): { iv: Uint8Array; ciphertext: Uint8Array } {
  if (!isBytes(sealed) || sealed.length < HEADER_BYTES + TAG_BYTES || sealed[0] !== SEALED_FORMAT)
    throw new SealedValueError('format');
  return { iv: sealed.subarray(1, HEADER_BYTES), ciphertext: sealed.subarray(HEADER_BYTES) };
}

/** Bytes, whichever realm made them (a value read back from IndexedDB, a test's fake). */
export function isBytes(value: unknown): value is Uint8Array {
  return value instanceof Uint8Array || (ArrayBuffer.isView(value) && value.constructor.name === 'Uint8Array');
}
