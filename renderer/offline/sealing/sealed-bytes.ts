/**
 * The layout of a value sealed under the till's data key, in one place:
 *
 *     [format: 1 byte = 1][IV: 12 bytes, fresh per value][AES-256-GCM ciphertext][tag: 16 bytes]
 *
 * The associated data the tag covers is the format byte and the value's context (a table and
 * field's name, say), so a sealed value copied into another field, or read as another format,
 * does not open. Nothing of the layout is secret; the key is.
 */
export const SEALED_FORMAT = 1;
/** 96 bits: GCM's own nonce size, random per value (NIST SP 800-38D, 8.2.2). */
export const IV_BYTES = 12;
export const TAG_BYTES = 16;
export const HEADER_BYTES = 1 + IV_BYTES;

/** `crypto.getRandomValues` fills at most 65,536 bytes a call: the IVs of a batch are drawn this many at a time. */
const IVS_PER_DRAW = Math.floor(65536 / IV_BYTES);

const encoder = new TextEncoder();

/** Why sealed bytes did not open: not this layout, or not sealed by this key for this context (or changed). */
export class SealedValueError extends Error {
  constructor(readonly reason: 'format' | 'authentication') {
    super(
      reason === 'format'
        ? 'These bytes are not a value sealed by the till.'
        : 'This sealed value does not open with this till’s key for this field: it was changed, or sealed elsewhere.',
    );
    this.name = 'SealedValueError';
  }
}

/** The associated data of a value of `context`: the format byte, then the context's UTF-8. */
export function associatedData(context: string): Uint8Array<ArrayBuffer> {
  const text = encoder.encode(context);
  const bytes = new Uint8Array(1 + text.length);
  bytes[0] = SEALED_FORMAT;
  bytes.set(text, 1);
  return bytes;
}

/** `count` fresh random IVs, drawn in as few calls as the browser allows. */
export function freshIvs(count: number): Array<Uint8Array<ArrayBuffer>> {
  const ivs: Array<Uint8Array<ArrayBuffer>> = [];
  for (let start = 0; start < count; start += IVS_PER_DRAW) {
    const drawn = crypto.getRandomValues(new Uint8Array(Math.min(IVS_PER_DRAW, count - start) * IV_BYTES));
    for (let at = 0; at < drawn.length; at += IV_BYTES) ivs.push(drawn.subarray(at, at + IV_BYTES));
  }
  return ivs;
}

/** The header and the ciphertext (tag included) as one value. */
export function frame(iv: Uint8Array, ciphertext: ArrayBuffer): Uint8Array<ArrayBuffer> {
  const sealed = new Uint8Array(HEADER_BYTES + ciphertext.byteLength);
  sealed[0] = SEALED_FORMAT;
  sealed.set(iv, 1);
  sealed.set(new Uint8Array(ciphertext), HEADER_BYTES);
  return sealed;
}

/** The IV and the ciphertext of a sealed value; `SealedValueError('format')` when it is not one. */
export function unframe(sealed: Uint8Array): { iv: Uint8Array<ArrayBuffer>; ciphertext: Uint8Array<ArrayBuffer> } {
  if (!(sealed instanceof Uint8Array) || sealed.length < HEADER_BYTES + TAG_BYTES || sealed[0] !== SEALED_FORMAT)
    throw new SealedValueError('format');
  // Copies: Web Crypto reads the whole buffer of a view it is given in some engines.
  return { iv: sealed.slice(1, HEADER_BYTES), ciphertext: sealed.slice(HEADER_BYTES) };
}
