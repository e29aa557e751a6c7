// The shop secret (electron/shop-ledger/shop-secret.ts): one per shop, two keys from it, and
// neither ever printed.
import { createHmac, hkdfSync } from 'node:crypto';
import { inspect } from 'node:util';
import { describe, expect, test } from 'vitest';
import { deriveShopKeys, ShopKeys, type ShopIdentity } from '../../../electron/shop-ledger/shop-secret';

const SHOP: ShopIdentity = {
  apiKey: 'sk_live_0123456789abcdef0123456789abcdef',
  baseUrl: 'https://loyalty.example.com',
  branchId: '3f2b8c1e-4a5d-4e6f-8a7b-9c0d1e2f3a4b',
  programId: '11111111-2222-4333-8444-555555555555',
};

function keysOf(identity: ShopIdentity): ShopKeys {
  const keys = deriveShopKeys(identity);
  if (keys === null) throw new Error('expected a shop');
  return keys;
}

/** The message MAC of a fixed text: two tills with the same value hold the same message key. */
const fingerprint = (keys: ShopKeys) => keys.messageMac('fingerprint').toString('hex');

describe('deriveShopKeys', () => {
  test('two tills of one shop derive the same keys', () => {
    const a = keysOf(SHOP);
    const b = keysOf({ ...SHOP, branchId: SHOP.branchId!.toUpperCase(), programId: SHOP.programId!.toUpperCase() });
    expect(fingerprint(a)).toBe(fingerprint(b));
    expect(a.claimMac('RW-X').equals(b.claimMac('RW-X'))).toBe(true);
  });

  test.each<[string, Partial<ShopIdentity>]>([
    ['another API key', { apiKey: `${SHOP.apiKey}0` }],
    ['another service', { baseUrl: 'https://other.example.com' }],
    ['another branch', { branchId: '3f2b8c1e-4a5d-4e6f-8a7b-9c0d1e2f3a4c' }],
    ['another programme', { programId: '11111111-2222-4333-8444-555555555556' }],
    ['no programme', { programId: null }],
  ])('a till of %s gets other keys', (_what, change) => {
    const other = keysOf({ ...SHOP, ...change });
    expect(fingerprint(other)).not.toBe(fingerprint(keysOf(SHOP)));
    expect(other.claimMac('RW-X').equals(keysOf(SHOP).claimMac('RW-X'))).toBe(false);
  });

  test('fields are not run together: moving text between them changes the keys', () => {
    const a = keysOf({ ...SHOP, baseUrl: 'https://a.example', branchId: 'bc' });
    const b = keysOf({ ...SHOP, baseUrl: 'https://a.exampleb', branchId: 'c' });
    expect(fingerprint(a)).not.toBe(fingerprint(b));
  });

  test.each<[string, Partial<ShopIdentity>]>([
    ['no key', { apiKey: '' }],
    ['no service', { baseUrl: '' }],
    ['no branch', { branchId: null }],
    ['an empty branch', { branchId: '' }],
  ])('a till with %s is in no shop', (_what, change) => {
    expect(deriveShopKeys({ ...SHOP, ...change })).toBeNull();
  });

  test('a service URL longer than HKDF takes in its info still derives keys', () => {
    const long = keysOf({ ...SHOP, baseUrl: `https://loyalty.example.com/${'a'.repeat(2000)}` });
    expect(fingerprint(long)).not.toBe(fingerprint(keysOf(SHOP)));
  });
});

describe('the two keys', () => {
  test('are separate: the message MAC and the claim MAC of the same text differ', () => {
    const keys = keysOf(SHOP);
    expect(keys.messageMac('RW-ABC').equals(keys.claimMac('RW-ABC'))).toBe(false);
  });

  test('neither is the API key used directly, nor HKDF of it without the shop', () => {
    const keys = keysOf(SHOP);
    const byKey = createHmac('sha256', SHOP.apiKey).update('RW-ABC').digest();
    const plainHkdf = Buffer.from(hkdfSync('sha256', SHOP.apiKey, '', '', 32));
    expect(keys.claimMac('RW-ABC').equals(byKey)).toBe(false);
    expect(keys.claimMac('RW-ABC').equals(createHmac('sha256', plainHkdf).update('RW-ABC').digest())).toBe(false);
  });

  test('verifyMessageMac takes the right MAC only, whatever its length', () => {
    const keys = keysOf(SHOP);
    const mac = keys.messageMac('hello');
    expect(keys.verifyMessageMac('hello', mac)).toBe(true);
    expect(keys.verifyMessageMac('hellO', mac)).toBe(false);
    expect(keys.verifyMessageMac('hello', mac.subarray(0, 16))).toBe(false);
    expect(keys.verifyMessageMac('hello', Buffer.alloc(0))).toBe(false);
    expect(keysOf({ ...SHOP, branchId: 'other' }).verifyMessageMac('hello', mac)).toBe(false);
  });

  test('are shown nowhere: not in JSON, util.inspect, keys or a template string', () => {
    const keys = keysOf(SHOP);
    const shown = [
      JSON.stringify(keys),
      JSON.stringify({ keys }),
      inspect(keys, { showHidden: true }),
      `${String(keys)}`,
    ];
    expect(Object.keys(keys)).toEqual([]);
    for (const text of shown) {
      expect(text).not.toContain(SHOP.apiKey);
      expect(text).not.toMatch(/[0-9a-f]{32}|[A-Za-z0-9+/_-]{43}/);
    }
    expect(JSON.stringify(keys)).toBe('"[shop keys]"');
  });
});
