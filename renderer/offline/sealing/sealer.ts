import { associatedData, freshIvs, frame, SealedValueError, TAG_BYTES, unframe } from './sealed-bytes';

/**
 * Sealing what the offline core keeps, under the till's data key (docs/security.md#the-data-key):
 * plain TypeScript over Web Crypto, nothing of Dexie or the rest of the core.
 *
 * The key comes from the main process (`window.till.dataKey()`) as 32 bytes. It is imported
 * twice, both times non-extractable, and the bytes are zeroed: as the AES-256-GCM key values
 * are sealed with, and as the HKDF secret a separate HMAC-SHA-256 key is derived from, for the
 * lookups that need an exact value (a phone's digits, a reward code) without storing the value
 * or an unkeyed hash of it, which anyone could compute for every phone number.
 *
 * Every call is asynchronous (Web Crypto is), and the batch calls (`sealMany`, `openMany`,
 * `keyedDigests`) draw their IVs together and keep a bounded number of operations in flight,
 * for a fill of 100,000 customers.
 */
export interface Sealer {
  /** Seals bytes or text with a fresh random IV; `context` (a table and field) must be given again to open it. */
  seal(value: Sealable, context?: string): Promise<Uint8Array>;
  /** The bytes sealed; rejects with `SealedValueError` when changed, sealed by another key, or for another context. */
  open(sealed: Uint8Array, context?: string): Promise<Uint8Array>;
  /** `open`, as the text that was sealed (UTF-8). */
  openText(sealed: Uint8Array, context?: string): Promise<string>;
  /** Seals a value as JSON. */
  sealJson(value: unknown, context?: string): Promise<Uint8Array>;
  /** Opens a value `sealJson` sealed; what it is, the caller checks. */
  openJson(sealed: Uint8Array, context?: string): Promise<unknown>;
  /** `seal` for many values of one context, in their order. */
  sealMany(values: readonly Sealable[], context?: string): Promise<Uint8Array[]>;
  /** `open` for many values of one context, in their order; rejects when any does not open. */
  openMany(sealed: readonly Uint8Array[], context?: string): Promise<Uint8Array[]>;
  /**
   * A keyed digest of `text` for exact lookups (an IndexedDB index): HMAC-SHA-256 under the
   * derived key, over `purpose` and the text, the first 128 bits as base64url (22 characters).
   * Stable for one key, different under another; distinct lookups pass distinct purposes.
   */
  keyedDigest(text: string, purpose?: string): Promise<string>;
  /** `keyedDigest` for many texts of one purpose, in their order. */
  keyedDigests(texts: readonly string[], purpose?: string): Promise<string[]>;
  /**
   * A value that tells this key from any other and says nothing of it: the page keeps it beside
   * what it sealed, and a database whose check differs was written under another key.
   */
  keyCheck(): Promise<string>;
}

export type Sealable = Uint8Array | string;

/** The info HKDF derives the lookup key with: another info, another key. */
const LOOKUP_KEY_INFO = 'loyalty-till lookup digests v1';
const KEY_CHECK_PURPOSE = 'loyalty-till key check';
const DEFAULT_PURPOSE = 'lookup';
const DIGEST_BYTES = 16;
/** Operations in flight at once in a batch: enough to keep Web Crypto's threads busy, not 100,000 promises. */
const BATCH = 512;

const encoder = new TextEncoder();
const strictDecoder = new TextDecoder('utf-8', { fatal: true });

/**
 * The sealer of the data key `raw` (32 bytes), which it zeroes once imported: from then on the
 * key exists only inside Web Crypto, where `exportKey` refuses it.
 */
export async function openSealer(raw: Uint8Array): Promise<Sealer> {
  if (raw.length !== 32) throw new Error('The data key must be 32 bytes (AES-256).');
  let sealing: CryptoKey;
  let lookup: CryptoKey;
  try {
    const bytes = new Uint8Array(raw);
    try {
      sealing = await crypto.subtle.importKey('raw', bytes, 'AES-GCM', false, ['encrypt', 'decrypt']);
      const secret = await crypto.subtle.importKey('raw', bytes, 'HKDF', false, ['deriveKey']);
      lookup = await crypto.subtle.deriveKey(
        // A zero salt of the hash's length, as RFC 5869 takes a missing one: the key is uniform already.
        { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(32), info: encoder.encode(LOOKUP_KEY_INFO) },
        secret,
        { name: 'HMAC', hash: 'SHA-256', length: 256 },
        false,
        ['sign'],
      );
    } finally {
      bytes.fill(0);
    }
  } finally {
    raw.fill(0);
  }
  return sealerOver(sealing, lookup);
}

/** The sealer of the key as the bridge hands it over (`DataKeyGrant.key`, base64). */
export async function openSealerFromBase64(base64: string): Promise<Sealer> {
  const text = atob(base64);
  const raw = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) raw[i] = text.charCodeAt(i);
  return openSealer(raw);
}

function sealerOver(sealing: CryptoKey, lookup: CryptoKey): Sealer {
  const sealAll = async (values: readonly Sealable[], context: string): Promise<Uint8Array[]> => {
    const ivs = freshIvs(values.length);
    const additionalData = associatedData(context);
    return inBatches(values, async (value, index) => {
      const iv = ivs[index]!;
      const plain = typeof value === 'string' ? encoder.encode(value) : copyOf(value);
      return frame(
        iv,
        await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData, tagLength: TAG_BYTES * 8 }, sealing, plain),
      );
    });
  };
  const openAll = async (sealed: readonly Uint8Array[], context: string): Promise<Uint8Array[]> => {
    const additionalData = associatedData(context);
    return inBatches(sealed, async (value) => {
      const { iv, ciphertext } = unframe(value);
      try {
        const plain = await crypto.subtle.decrypt(
          { name: 'AES-GCM', iv, additionalData, tagLength: TAG_BYTES * 8 },
          sealing,
          ciphertext,
        );
        return new Uint8Array(plain);
      } catch {
        throw new SealedValueError('authentication');
      }
    });
  };
  const digestAll = (texts: readonly string[], purpose: string): Promise<string[]> =>
    inBatches(texts, async (text) => {
      // The purpose, a NUL it cannot hold, then the text: no purpose's digest is another's.
      const mac = await crypto.subtle.sign('HMAC', lookup, encoder.encode(`${purpose}\u0000${text}`));
      return base64url(new Uint8Array(mac, 0, DIGEST_BYTES));
    });

  const one = async <T>(all: Promise<T[]>): Promise<T> => (await all)[0]!;
  return {
    seal: (value, context = '') => one(sealAll([value], context)),
    open: (sealed, context = '') => one(openAll([sealed], context)),
    openText: async (sealed, context = '') => textOf(await one(openAll([sealed], context))),
    sealJson: (value, context = '') => one(sealAll([JSON.stringify(value)], context)),
    openJson: async (sealed, context = '') => JSON.parse(textOf(await one(openAll([sealed], context)))) as unknown,
    sealMany: (values, context = '') => sealAll(values, context),
    openMany: (sealed, context = '') => openAll(sealed, context),
    keyedDigest: (text, purpose = DEFAULT_PURPOSE) => one(digestAll([text], purpose)),
    keyedDigests: (texts, purpose = DEFAULT_PURPOSE) => digestAll(texts, purpose),
    keyCheck: () => one(digestAll([''], KEY_CHECK_PURPOSE)),
  };
}

/** Runs `work` over every item, at most `BATCH` at once, answers in the items' order. */
async function inBatches<T, R>(items: readonly T[], work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  for (let start = 0; start < items.length; start += BATCH) {
    const end = Math.min(start + BATCH, items.length);
    const done = await Promise.all(items.slice(start, end).map((item, offset) => work(item, start + offset)));
    for (let i = 0; i < done.length; i++) results[start + i] = done[i]!;
  }
  return results;
}

/** A copy on its own buffer: Web Crypto is given exactly these bytes, whatever view the caller had. */
function copyOf(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(bytes);
}

function textOf(bytes: Uint8Array): string {
  try {
    return strictDecoder.decode(bytes);
  } catch {
    throw new SealedValueError('format');
  }
}

function base64url(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
