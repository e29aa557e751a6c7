import { describe, expect, test } from 'vitest';
import { openSealer, openSealerFromBase64, type Sealer } from '../../../../renderer/offline/sealing/sealer';
import { SealedValueError } from '../../../../renderer/offline/sealing/sealed-bytes';

// The offline core's sealing (renderer/offline/sealing/), under the page's own Web Crypto:
// values sealed and opened under the till's data key, bound to their field, and the keyed
// digests exact lookups use.

const randomKey = () => crypto.getRandomValues(new Uint8Array(32));
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

async function sealerOf(key: Uint8Array): Promise<Sealer> {
  return openSealer(new Uint8Array(key));
}

describe('sealing under the data key', () => {
  test('round trips bytes, text and JSON, and a batch in its order', async () => {
    const sealer = await sealerOf(randomKey());
    const bytes = new Uint8Array([0, 1, 2, 250, 255]);
    expect(await sealer.open(await sealer.seal(bytes))).toEqual(bytes);
    expect(await sealer.openText(await sealer.seal('ليلى حداد · Layla'))).toBe('ليلى حداد · Layla');
    const customer = { name: 'Layla Haddad', phone: '+966501234567', points: 180, tags: ['gold'] };
    expect(await sealer.openJson(await sealer.sealJson(customer, 'customers'), 'customers')).toEqual(customer);
    expect(await sealer.open(await sealer.seal(new Uint8Array(0)))).toEqual(new Uint8Array(0));

    const values = Array.from({ length: 1300 }, (_, i) => `customer ${i}`);
    const sealed = await sealer.sealMany(values, 'customers.block');
    expect(sealed).toHaveLength(1300);
    expect((await sealer.openMany(sealed, 'customers.block')).map(text)).toEqual(values);
  });

  test('the layout: a format byte, a 96-bit IV, then the ciphertext with its 128-bit tag; never the plain text', async () => {
    const sealer = await sealerOf(randomKey());
    const plain = 'layla.haddad@example.com';
    const sealed = await sealer.seal(plain);
    expect(sealed[0]).toBe(1);
    expect(sealed.length).toBe(1 + 12 + new TextEncoder().encode(plain).length + 16);
    expect(text(sealed)).not.toContain('layla');
  });

  test('a fresh IV each time: two seals of one value differ, in a batch too', async () => {
    const sealer = await sealerOf(randomKey());
    const first = await sealer.seal('RW-LAYLA001');
    const second = await sealer.seal('RW-LAYLA001');
    expect(first).not.toEqual(second);
    expect(first.slice(1, 13)).not.toEqual(second.slice(1, 13));
    const batch = await sealer.sealMany(Array.from({ length: 6000 }, () => 'same'));
    expect(new Set(batch.map((one) => Array.from(one.slice(1, 13)).join(','))).size).toBe(6000);
  });

  test('a changed byte anywhere does not open, nor a cut value, nor another format', async () => {
    const sealer = await sealerOf(randomKey());
    const sealed = await sealer.seal('966501234567 layla haddad');
    for (const at of [1, 12, 13, sealed.length - 1]) {
      const changed = new Uint8Array(sealed);
      changed[at]! ^= 0x01;
      await expect(sealer.open(changed)).rejects.toMatchObject({ reason: 'authentication' });
    }
    const otherFormat = new Uint8Array(sealed);
    otherFormat[0] = 2;
    await expect(sealer.open(otherFormat)).rejects.toMatchObject({ reason: 'format' });
    await expect(sealer.open(sealed.slice(0, 20))).rejects.toBeInstanceOf(SealedValueError);
  });

  test('bound to its field: another context, or none, does not open it', async () => {
    const sealer = await sealerOf(randomKey());
    const sealed = await sealer.seal('+966501234567', 'customers.phone');
    expect(await sealer.openText(sealed, 'customers.phone')).toBe('+966501234567');
    await expect(sealer.open(sealed, 'customers.email')).rejects.toMatchObject({ reason: 'authentication' });
    await expect(sealer.open(sealed)).rejects.toMatchObject({ reason: 'authentication' });
    await expect(sealer.openMany([sealed], 'outbox.item')).rejects.toBeInstanceOf(SealedValueError);
  });

  test('another key does not open it', async () => {
    const sealed = await (await sealerOf(randomKey())).seal('Layla');
    await expect((await sealerOf(randomKey())).open(sealed)).rejects.toMatchObject({ reason: 'authentication' });
  });

  test('the key is not extractable, and the bytes given are zeroed once imported', async () => {
    const raw = randomKey();
    const kept = new Uint8Array(raw);
    const sealer = await openSealer(raw);
    expect(raw).toEqual(new Uint8Array(32));
    // The sealer opens what the same key, imported again, sealed: the bytes were used, then dropped.
    expect(await (await sealerOf(kept)).openText(await sealer.seal('x'))).toBe('x');

    // Imported as openSealer imports it: Web Crypto refuses to hand it out.
    const aes = await crypto.subtle.importKey('raw', new Uint8Array(kept), 'AES-GCM', false, ['encrypt', 'decrypt']);
    expect(aes.extractable).toBe(false);
    await expect(crypto.subtle.exportKey('raw', aes)).rejects.toThrow();
  });

  test('the sealer’s own keys are non-extractable: none of its calls hands a key out', async () => {
    const imported: CryptoKey[] = [];
    const subtle = crypto.subtle;
    const importKey = subtle.importKey.bind(subtle);
    const deriveKey = subtle.deriveKey.bind(subtle);
    const spy = Object.assign(Object.create(subtle) as SubtleCrypto, {
      importKey: async (...args: Parameters<SubtleCrypto['importKey']>) => {
        const key = await importKey(...args);
        imported.push(key);
        return key;
      },
      deriveKey: async (...args: Parameters<SubtleCrypto['deriveKey']>) => {
        const key = await deriveKey(...args);
        imported.push(key);
        return key;
      },
    });
    const original = Object.getOwnPropertyDescriptor(globalThis.crypto, 'subtle');
    Object.defineProperty(globalThis.crypto, 'subtle', { value: spy, configurable: true });
    try {
      await openSealer(randomKey());
    } finally {
      if (original) Object.defineProperty(globalThis.crypto, 'subtle', original);
      else delete (globalThis.crypto as { subtle?: SubtleCrypto }).subtle;
    }
    expect(imported.map((key) => [key.algorithm.name, key.extractable])).toEqual([
      ['AES-GCM', false],
      ['HKDF', false],
      ['HMAC', false],
    ]);
    for (const key of imported) await expect(crypto.subtle.exportKey('raw', key)).rejects.toThrow();
  });

  test('refuses a key that is not 32 bytes', async () => {
    await expect(openSealer(new Uint8Array(16))).rejects.toThrow(/32 bytes/);
  });
});

describe('keyed digests for exact lookups', () => {
  test('stable for one key, 128 bits in base64url, one per purpose, and a batch in its order', async () => {
    const key = randomKey();
    const sealer = await sealerOf(key);
    const again = await sealerOf(key);
    const digest = await sealer.keyedDigest('966501234567', 'phone');
    expect(digest).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(await again.keyedDigest('966501234567', 'phone')).toBe(digest);
    expect(await sealer.keyedDigest('966501234568', 'phone')).not.toBe(digest);
    expect(await sealer.keyedDigest('966501234567', 'reward')).not.toBe(digest);
    expect(await sealer.keyedDigests(['966501234567', '966501234568'], 'phone')).toEqual([
      digest,
      await sealer.keyedDigest('966501234568', 'phone'),
    ]);
  });

  test('keyed: another key gives another digest, and it is not the unkeyed hash of the value', async () => {
    const digest = await (await sealerOf(randomKey())).keyedDigest('RW-LAYLA001', 'reward');
    expect(await (await sealerOf(randomKey())).keyedDigest('RW-LAYLA001', 'reward')).not.toBe(digest);
    const unkeyed = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode('RW-LAYLA001')));
    const unkeyedText = btoa(String.fromCharCode(...unkeyed.slice(0, 16)))
      .replace(/\+/g, '-')
      .replace(/\//g, '_');
    expect(digest).not.toBe(unkeyedText.replace(/=+$/, ''));
  });

  test('the key check tells keys apart, and is the same for one key', async () => {
    const key = randomKey();
    const check = await (await sealerOf(key)).keyCheck();
    expect(await (await sealerOf(key)).keyCheck()).toBe(check);
    expect(await (await sealerOf(randomKey())).keyCheck()).not.toBe(check);
  });

  test('opened from the bridge’s base64, it seals and digests as from the bytes', async () => {
    const key = randomKey();
    const base64 = btoa(String.fromCharCode(...key));
    const fromBridge = await openSealerFromBase64(base64);
    const fromBytes = await sealerOf(key);
    expect(await fromBytes.openText(await fromBridge.seal('Layla', 'names'), 'names')).toBe('Layla');
    expect(await fromBridge.keyedDigest('x')).toBe(await fromBytes.keyedDigest('x'));
  });
});
