import { describe, expect, test } from 'vitest';
import { openKeyring, openKeyringFromBytes, type Keyring } from '../../../../renderer/offline/sealing/keyring';
import { SealedValueError } from '../../../../renderer/offline/sealing/sealed-bytes';

// The keyring the offline core seals with (renderer/offline/sealing/): sub-keys derived from the
// till's data key, values sealed and opened synchronously, bound to their record, and the keyed
// digests exact lookups use.

const randomKey = () => crypto.getRandomValues(new Uint8Array(32));
const encoder = new TextEncoder();
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const base64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

async function keyringOf(key: Uint8Array): Promise<Keyring> {
  return openKeyringFromBytes(new Uint8Array(key));
}

describe('the keyring of the data key', () => {
  test('round trips bytes, synchronously, for the context they were sealed for', async () => {
    const keyring = await keyringOf(randomKey());
    for (const plain of [
      new Uint8Array(0),
      encoder.encode('ليلى حداد · Layla'),
      new Uint8Array(70_000).map((_, i) => i & 0xff),
    ]) {
      const sealed = keyring.seal(plain, 'customerBlocks/3');
      expect(sealed).toBeInstanceOf(Uint8Array);
      expect(keyring.open(sealed, 'customerBlocks/3')).toEqual(plain);
    }
  });

  test('the layout: a format byte, a 96-bit IV, then the ciphertext with its 128-bit tag; never the plain text', async () => {
    const keyring = await keyringOf(randomKey());
    const plain = encoder.encode('layla.haddad@example.com');
    const sealed = keyring.seal(plain, 'outbox/x');
    expect(sealed[0]).toBe(1);
    expect(sealed.length).toBe(1 + 12 + plain.length + 16);
    expect(text(sealed)).not.toContain('layla');
  });

  test('standard AES-256-GCM: Web Crypto opens it with the same sub-key, so the format is no invention of ours', async () => {
    // The storage sub-key, derived as the keyring derives it, exported here only to prove the format.
    const key = randomKey();
    const secret = await crypto.subtle.importKey('raw', key, 'HKDF', false, ['deriveKey']);
    const aes = await crypto.subtle.deriveKey(
      { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(32), info: encoder.encode('loyalty-till storage key v1') },
      secret,
      { name: 'AES-GCM', length: 256 },
      false,
      ['decrypt'],
    );
    const keyring = await keyringOf(key);
    const sealed = keyring.seal(encoder.encode('966501234567 layla haddad'), 'searchChunks/0');
    const additionalData = Uint8Array.of(1, ...encoder.encode('searchChunks/0'));
    const opened = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: sealed.slice(1, 13), additionalData, tagLength: 128 },
      aes,
      sealed.slice(13),
    );
    expect(text(new Uint8Array(opened))).toBe('966501234567 layla haddad');
  });

  test('Web Crypto opens what it sealed too, asynchronously (the bulk loads), and refuses as the synchronous opening does', async () => {
    const keyring = await keyringOf(randomKey());
    const plain = new Uint8Array(50_000).map((_, i) => (i * 7) & 0xff);
    const sealed = keyring.seal(plain, 'customerBlocks/9');
    expect(await keyring.openAsync(sealed, 'customerBlocks/9')).toEqual(plain);
    await expect(keyring.openAsync(sealed, 'customerBlocks/8')).rejects.toMatchObject({ reason: 'authentication' });
    await expect(keyring.openAsync(sealed.slice(0, 10), 'customerBlocks/9')).rejects.toMatchObject({
      reason: 'format',
    });
  });

  test('Web Crypto seals in the same layout (a fill sealing ahead): the synchronous opening opens it, for its context only', async () => {
    const keyring = await keyringOf(randomKey());
    const plain = new Uint8Array(50_000).map((_, i) => (i * 11) & 0xff);
    const sealed = await keyring.sealAsync(plain, 'customerBlocks/3');
    expect(sealed.length).toBe(keyring.seal(plain, 'customerBlocks/3').length);
    expect(keyring.open(sealed, 'customerBlocks/3')).toEqual(plain);
    expect(() => keyring.open(sealed, 'customerBlocks/4')).toThrow();
    const again = await keyring.sealAsync(plain, 'customerBlocks/3');
    // A fresh IV each time here too.
    expect(again.slice(1, 13)).not.toEqual(sealed.slice(1, 13));
  });

  test('a fresh IV each time: two seals of one value differ, over many seals', async () => {
    const keyring = await keyringOf(randomKey());
    const ivs = new Set<string>();
    for (let i = 0; i < 12_000; i++)
      ivs.add(Array.from(keyring.seal(encoder.encode('RW-LAYLA001'), 'rewards/x').slice(1, 13)).join(','));
    expect(ivs.size).toBe(12_000);
  });

  test('a changed byte anywhere, another format, another context or another key: it does not open', async () => {
    const key = randomKey();
    const keyring = await keyringOf(key);
    const sealed = keyring.seal(encoder.encode('966501234567 layla haddad'), 'searchChunks/1');
    for (const at of [1, 12, 13, sealed.length - 1]) {
      const changed = new Uint8Array(sealed);
      changed[at]! ^= 0x01;
      expect(() => keyring.open(changed, 'searchChunks/1')).toThrow(SealedValueError);
    }
    const otherFormat = new Uint8Array(sealed);
    otherFormat[0] = 2;
    expect(() => keyring.open(otherFormat, 'searchChunks/1')).toThrow(expect.objectContaining({ reason: 'format' }));
    expect(() => keyring.open(sealed.slice(0, 20), 'searchChunks/1')).toThrow(
      expect.objectContaining({ reason: 'format' }),
    );
    // Moved to another record or table: it does not open there.
    expect(() => keyring.open(sealed, 'searchChunks/2')).toThrow(expect.objectContaining({ reason: 'authentication' }));
    expect(() => keyring.open(sealed, 'listingChunks/1')).toThrow(
      expect.objectContaining({ reason: 'authentication' }),
    );
    const other = await keyringOf(randomKey());
    expect(() => other.open(sealed, 'searchChunks/1')).toThrow(expect.objectContaining({ reason: 'authentication' }));
    // The same key, opened again (a restart): it opens.
    expect(text((await keyringOf(key)).open(sealed, 'searchChunks/1'))).toBe('966501234567 layla haddad');
  });

  test("keyed digests: stable for a key, another under another key, none of one purpose is another's", async () => {
    const key = randomKey();
    const keyring = await keyringOf(key);
    const again = await keyringOf(key);
    const other = await keyringOf(randomKey());
    expect(keyring.digest32('966501234567', 'phone digits')).toBe(again.digest32('966501234567', 'phone digits'));
    expect(keyring.digest32('966501234567', 'phone digits')).not.toBe(other.digest32('966501234567', 'phone digits'));
    expect(keyring.digest128('RW-LAYLA001', 'reward code')).toEqual(again.digest128('RW-LAYLA001', 'reward code'));
    expect(keyring.digest128('RW-LAYLA001', 'reward code')).not.toEqual(
      keyring.digest128('RW-LAYLA001', 'phone digits'),
    );
    expect(keyring.digest128('RW-LAYLA001', 'reward code')).toHaveLength(16);
    // A digest handed out is the caller's: changing it changes nothing kept.
    const digest = keyring.digest128('RW-LAYLA002', 'reward code');
    digest.fill(0);
    expect(keyring.digest128('RW-LAYLA002', 'reward code')).not.toEqual(digest);
    // The key check tells keys apart and is the same for one key.
    expect(keyring.check).toBe(again.check);
    expect(keyring.check).not.toBe(other.check);
    expect(keyring.check).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  test('a keyed digest is HMAC-SHA-256 under the lookup key, cut to 128 bits, however many are computed in a row', async () => {
    const key = randomKey();
    const keyring = await keyringOf(key);
    // The lookup key as the keyring derives it (HKDF, a zero salt), then Web Crypto's own HMAC.
    const secret = await crypto.subtle.importKey('raw', key, 'HKDF', false, ['deriveBits']);
    const lookupKey = await crypto.subtle.deriveBits(
      { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(32), info: encoder.encode('loyalty-till lookup key v1') },
      secret,
      256,
    );
    const hmacKey = await crypto.subtle.importKey('raw', lookupKey, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    const expected = async (text: string, purpose: string) =>
      new Uint8Array(await crypto.subtle.sign('HMAC', hmacKey, encoder.encode(`${purpose}\u0000${text}`))).slice(0, 16);
    // Digests stored on disk (phone digests, reward keys) must never change: each one, computed
    // after others of other lengths and purposes, is the same HMAC.
    const asked = ['966501234567', 'RW-LAYLA001', '', '9665', 'a much longer text than any phone number has in it'];
    for (const purpose of ['phone digits', 'reward code']) {
      for (const text of asked) expect(keyring.digest128(text, purpose)).toEqual(await expected(text, purpose));
    }
    const first = await expected('966501234567', 'phone digits');
    const value = ((first[0]! << 24) | (first[1]! << 16) | (first[2]! << 8) | first[3]!) >>> 0;
    expect(keyring.digest32('966501234567', 'phone digits')).toBe(value || 1);
  });

  test('the key as the bridge hands it over (base64) opens the same keyring, and the bytes given are zeroed', async () => {
    const key = randomKey();
    const given = new Uint8Array(key);
    const fromBytes = await openKeyringFromBytes(given);
    expect(given.every((byte) => byte === 0)).toBe(true);
    const fromBase64 = await openKeyring(base64(key));
    expect(fromBase64.check).toBe(fromBytes.check);
    expect(text(fromBase64.open(fromBytes.seal(encoder.encode('same'), 'x'), 'x'))).toBe('same');
    await expect(openKeyringFromBytes(new Uint8Array(16))).rejects.toThrow(/32 bytes/);
  });
});
