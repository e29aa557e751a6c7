import { gcm } from '@noble/ciphers/aes.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { associatedData, frame, IvSource, SealedValueError, TAG_BYTES, unframe } from './sealed-bytes';

/**
 * The keys the offline core seals with, derived from the till's data key
 * (docs/security.md#what-the-page-keeps-sealed): plain TypeScript, nothing of Dexie or the rest
 * of the core.
 *
 * Why synchronous: an IndexedDB transaction commits by itself as soon as the page awaits
 * anything that is not one of its requests, and the core's writers plan and send customers,
 * rewards and outbox items inside transactions (customers/customer-blocks.ts, the outbox's
 * strict transactions). Web Crypto answers with promises, so sealing with it inside a
 * transaction would end the transaction. The keyring seals and opens synchronously with
 * `@noble/ciphers` (AES-256-GCM) and makes keyed digests with `@noble/hashes` (HMAC-SHA-256):
 * audited libraries, in plain JavaScript.
 *
 * The data key (32 bytes, from the main process) is imported into Web Crypto as a
 * non-extractable HKDF key, two sub-keys are derived from it with distinct infos, and the
 * bytes given are zeroed: the data key itself never stays in the page. The sub-keys do, in
 * this object's memory, as synchronous sealing needs: one seals (AES-256-GCM), the other
 * makes the lookup digests (HMAC-SHA-256). Neither opens the other's work, and neither is the
 * data key the main process holds.
 *
 * A seal costs about 35-45 µs a call plus 25-45 MB/s in this JavaScript AES, so callers seal
 * coarse records (a block of 16 customers, a whole chunk), never one field at a time.
 */
export interface Keyring {
  /** `plain` sealed with a fresh random IV, for `context` (its table and record): the layout of sealed-bytes.ts. */
  seal(plain: Uint8Array, context: string): Uint8Array;
  /**
   * `seal` by Web Crypto: the same layout, asynchronous, so never inside a transaction. A fill
   * seals its planned blocks with it before their transaction opens (db/sealed-tables.ts
   * `sealAhead`), off the page's thread, where a cashier's work would otherwise wait behind it.
   */
  sealAsync(plain: Uint8Array, context: string): Promise<Uint8Array>;
  /** What `seal` sealed for `context`; throws `SealedValueError` when changed, sealed under another key or for another context. */
  open(sealed: Uint8Array, context: string): Uint8Array;
  /**
   * `open` by Web Crypto: asynchronous, so never inside a transaction, and many times faster on
   * large values (the browser's own AES). The bulk loads use it (the search index, the listings,
   * the card serials, read a page of records at a time outside any transaction).
   */
  openAsync(sealed: Uint8Array, context: string): Promise<Uint8Array>;
  /**
   * A keyed digest of `text` for an exact lookup, 32 bits and never 0: HMAC-SHA-256 under the
   * lookup key over `purpose`, a NUL and the text. Distinct lookups pass distinct purposes.
   */
  digest32(text: string, purpose: string): number;
  /** The same digest, 128 bits: for a key that must not collide (a reward code's). */
  digest128(text: string, purpose: string): Uint8Array;
  /**
   * A value that tells this key from any other and says nothing of it (a keyed digest of a
   * fixed label, base64url): kept in the database in clear, so a database sealed under
   * another key is recognised before anything is read.
   */
  readonly check: string;
}

/** HKDF infos: another info, another key. */
const STORAGE_KEY_INFO = 'loyalty-till storage key v1';
const LOOKUP_KEY_INFO = 'loyalty-till lookup key v1';
const CHECK_PURPOSE = 'loyalty-till key check v1';
const KEY_BYTES = 32;
/** Digests of short texts are asked again and again (a growing search chunk's phones): kept, this many at most. */
const DIGESTS_KEPT = 1 << 16;

const encoder = new TextEncoder();

/**
 * The keyring of the data key as the bridge hands it over (`DataKeyGrant.key`, base64). The
 * decoded bytes are zeroed once imported.
 */
export async function openKeyring(base64Key: string): Promise<Keyring> {
  const text = atob(base64Key);
  const raw = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) raw[i] = text.charCodeAt(i);
  return openKeyringFromBytes(raw);
}

/** The keyring of the data key `raw` (32 bytes), which it zeroes. */
export async function openKeyringFromBytes(raw: Uint8Array): Promise<Keyring> {
  try {
    if (raw.length !== KEY_BYTES) throw new Error('The data key must be 32 bytes (AES-256).');
    const secret = await crypto.subtle.importKey('raw', new Uint8Array(raw), 'HKDF', false, ['deriveBits']);
    const derive = async (info: string) =>
      new Uint8Array(
        await crypto.subtle.deriveBits(
          // A zero salt of the hash's length, as RFC 5869 takes a missing one: the key is uniform already.
          { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(32), info: encoder.encode(info) },
          secret,
          KEY_BYTES * 8,
        ),
      );
    const storage = await derive(STORAGE_KEY_INFO);
    // The same storage key for Web Crypto's asynchronous sealing and opening, non-extractable.
    const native = await crypto.subtle.importKey('raw', new Uint8Array(storage), 'AES-GCM', false, [
      'encrypt',
      'decrypt',
    ]);
    return new NobleKeyring(storage, native, await derive(LOOKUP_KEY_INFO));
  } finally {
    raw.fill(0);
  }
}

class NobleKeyring implements Keyring {
  private readonly ivs = new IvSource();
  /** The lookup key's HMAC with its key already mixed in: each digest clones it (half the work). */
  private readonly keyed: ReturnType<typeof hmac.create>;
  /**
   * What each digest is computed in: `keyed` cloned into it (`_cloneInto` reuses its state), so
   * a digest allocates no hash of its own. A fill computes one for every phone it stores, and
   * what it allocates is what the garbage collector pauses the page for.
   */
  private readonly scratch: ReturnType<typeof hmac.create>;
  private readonly scratchOut = new Uint8Array(32);
  private readonly kept = new Map<string, Uint8Array>();
  readonly check: string;

  constructor(
    private readonly storageKey: Uint8Array,
    private readonly nativeKey: CryptoKey,
    lookupKey: Uint8Array,
  ) {
    this.keyed = hmac.create(sha256, lookupKey);
    // Any HMAC state will do: each digest overwrites all of it with `keyed`'s.
    this.scratch = hmac.create(sha256, lookupKey);
    lookupKey.fill(0);
    this.check = base64url(this.digest128('', CHECK_PURPOSE));
  }

  seal(plain: Uint8Array, context: string): Uint8Array {
    const iv = this.ivs.next();
    return frame(iv, gcm(this.storageKey, iv, associatedData(context)).encrypt(plain));
  }

  open(sealed: Uint8Array, context: string): Uint8Array {
    const { iv, ciphertext } = unframe(sealed);
    try {
      return gcm(this.storageKey, iv, associatedData(context)).decrypt(ciphertext);
    } catch {
      throw new SealedValueError('authentication');
    }
  }

  async sealAsync(plain: Uint8Array, context: string): Promise<Uint8Array> {
    // Copied: the pool the IV comes from is reused once drawn through.
    const iv = new Uint8Array(this.ivs.next());
    const ciphertext = await crypto.subtle.encrypt(
      { name: 'AES-GCM', iv, additionalData: new Uint8Array(associatedData(context)), tagLength: TAG_BYTES * 8 },
      this.nativeKey,
      new Uint8Array(plain),
    );
    return frame(iv, new Uint8Array(ciphertext));
  }

  async openAsync(sealed: Uint8Array, context: string): Promise<Uint8Array> {
    const { iv, ciphertext } = unframe(sealed);
    try {
      const additionalData = new Uint8Array(associatedData(context));
      const plain = await crypto.subtle.decrypt(
        { name: 'AES-GCM', iv: new Uint8Array(iv), additionalData, tagLength: TAG_BYTES * 8 },
        this.nativeKey,
        new Uint8Array(ciphertext),
      );
      return new Uint8Array(plain);
    } catch {
      throw new SealedValueError('authentication');
    }
  }

  digest32(text: string, purpose: string): number {
    const mac = this.mac(text, purpose);
    const value = ((mac[0]! << 24) | (mac[1]! << 16) | (mac[2]! << 8) | mac[3]!) >>> 0;
    return value || 1;
  }

  digest128(text: string, purpose: string): Uint8Array {
    return this.mac(text, purpose).slice();
  }

  /** The first 128 bits of the HMAC (NIST SP 800-107 allows truncation), kept for the next ask. */
  private mac(text: string, purpose: string): Uint8Array {
    // The purpose, a NUL it cannot hold, then the text: no purpose's digest is another's.
    const message = `${purpose}\u0000${text}`;
    let mac = this.kept.get(message);
    if (!mac) {
      const h = this.keyed._cloneInto(this.scratch);
      h.update(encoder.encode(message));
      h.digestInto(this.scratchOut);
      mac = this.scratchOut.slice(0, 16);
      this.scratchOut.fill(0);
      if (this.kept.size >= DIGESTS_KEPT) this.kept.clear();
      this.kept.set(message, mac);
    }
    return mac;
  }
}

function base64url(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
