import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';
import { inspect } from 'node:util';

/**
 * What makes tills one shop (design.md, "The shop"): the same service, API key, programme
 * and branch. The values are the settings as stored (the base URL already normalised by
 * `storage/settings.ts`); the ids are compared in lower case because a GUID may be typed
 * either way.
 */
export interface ShopIdentity {
  apiKey: string;
  baseUrl: string;
  branchId: string | null;
  programId: string | null;
}

// Fixed labels, versioned so that a later change of scheme yields unrelated keys instead of
// tills that half understand each other.
const SALT = 'loyalty-till/shop-ledger/v1';
const SHOP_SECRET_INFO = 'shop secret';
const MESSAGE_KEY_INFO = 'message authentication';
const CLAIM_KEY_INFO = 'claim tokens';
const DISCOVERY_TAG_INFO = 'discovery tag';
const BOX_KEY_INFO = 'message encryption';
/** The first byte of a box: the scheme, so that a later one is told apart, never misread. */
const BOX_VERSION = 1;
/** AES-GCM's 96-bit IV, random per message: a shop sends far fewer than 2^32 messages under one key. */
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** What a box adds to its message: the version, the IV and the tag. */
export const BOX_OVERHEAD = 1 + IV_BYTES + TAG_BYTES;
/** 64 bits: tells a shop's tills from another shop's on one LAN, and no more. */
const DISCOVERY_TAG_BYTES = 8;
const KEY_BYTES = 32;

function hkdf(ikm: Buffer | string, info: string): Buffer {
  return Buffer.from(hkdfSync('sha256', ikm, SALT, info, KEY_BYTES));
}

/**
 * The two keys of a shop, kept in private fields: no method hands them out, and neither
 * `JSON.stringify` nor `util.inspect` (so no log line) shows them. Only the main process
 * builds one, from the key it already holds.
 */
export class ShopKeys {
  readonly #messageKey: Buffer;
  readonly #claimKey: Buffer;
  readonly #discoveryTag: string;
  readonly #boxKey: Buffer;

  private constructor(shopSecret: Buffer) {
    // Domain separation: a MAC over a message can never be mistaken for a claim token over
    // the same bytes, nor the other way round.
    this.#messageKey = hkdf(shopSecret, MESSAGE_KEY_INFO);
    this.#claimKey = hkdf(shopSecret, CLAIM_KEY_INFO);
    this.#boxKey = hkdf(shopSecret, BOX_KEY_INFO);
    // One-way from the secret: the tag names the shop to its own tills, and tells anyone
    // else nothing about the key, the service or the branch.
    this.#discoveryTag = hkdf(shopSecret, DISCOVERY_TAG_INFO).subarray(0, DISCOVERY_TAG_BYTES).toString('hex');
    shopSecret.fill(0);
  }

  /**
   * The shop's keys, or null for a till that is not set up as part of a shop (no key, no
   * service, or no branch: two tills without a branch are not known to stand in one shop).
   *
   * HKDF-SHA256 over the API key, with the service's URL, the programme and the branch in
   * the `info`, so tills of another shop, programme or branch of the same service share
   * nothing. The context is JSON-encoded so that no two identities give the same bytes,
   * and enters as its SHA-256 because HKDF's `info` is capped at 1,024 bytes and a URL may
   * be longer.
   */
  static derive(identity: ShopIdentity): ShopKeys | null {
    const { apiKey, baseUrl, branchId, programId } = identity;
    if (!apiKey || !baseUrl || !branchId) return null;
    const context = JSON.stringify([baseUrl, branchId.toLowerCase(), programId?.toLowerCase() ?? null]);
    const digest = createHash('sha256').update(context, 'utf8').digest('hex');
    return new ShopKeys(hkdf(apiKey, `${SHOP_SECRET_INFO} ${digest}`));
  }

  /** Advertised on the LAN in clear (mDNS) to tell this shop's tills apart: not a secret, derived apart from both keys. */
  get discoveryTag(): string {
    return this.#discoveryTag;
  }

  /**
   * AES-256-GCM under the box key: a message on the LAN is unreadable to a host without the
   * shop's secret (a forged discovery record, a listener on the wire), and any change to it is
   * detected. Version byte, random IV, ciphertext, tag.
   */
  box(plain: Uint8Array): Buffer {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#boxKey, iv);
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    return Buffer.concat([Buffer.from([BOX_VERSION]), iv, body, cipher.getAuthTag()]);
  }

  /** The message in a box sealed by this shop; null for anything else (another shop, a change, noise). */
  unbox(box: Uint8Array): Buffer | null {
    if (box.byteLength < BOX_OVERHEAD || box[0] !== BOX_VERSION) return null;
    const bytes = Buffer.from(box.buffer, box.byteOffset, box.byteLength);
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#boxKey, bytes.subarray(1, 1 + IV_BYTES));
      decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
      return Buffer.concat([decipher.update(bytes.subarray(1 + IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]);
    } catch {
      return null;
    }
  }

  /** HMAC-SHA256 under the message key: authenticates what peers send each other. */
  messageMac(data: string): Buffer {
    return createHmac('sha256', this.#messageKey).update(data, 'utf8').digest();
  }

  /** Whether `mac` is the message MAC of `data`, compared in constant time. */
  verifyMessageMac(data: string, mac: Buffer): boolean {
    const expected = this.messageMac(data);
    return mac.length === expected.length && timingSafeEqual(mac, expected);
  }

  /** HMAC-SHA256 under the claim key: a reward's name on the LAN, not the reward itself. */
  claimMac(data: string): Buffer {
    return createHmac('sha256', this.#claimKey).update(data, 'utf8').digest();
  }

  toJSON(): string {
    return '[shop keys]';
  }

  [inspect.custom](): string {
    return '[shop keys]';
  }
}

export const deriveShopKeys = (identity: ShopIdentity): ShopKeys | null => ShopKeys.derive(identity);
