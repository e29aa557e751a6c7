// Claims and the ledger (electron/shop-ledger/claims.ts, claim-ledger.ts), example by example;
// the properties of the winner and of merging are in claims.property.test.ts.
import { describe, expect, test } from 'vitest';
import { ClaimLedger } from '../../../electron/shop-ledger/claim-ledger';
import { claimToken, isClaim, newClaim, winningClaim, type Claim } from '../../../electron/shop-ledger/claims';
import { OTHER_SHOP_KEYS, SHOP_KEYS } from '../../support/shop-keys';

const NOW = new Date('2026-11-26T10:00:00.000Z');
const TOKEN = claimToken(SHOP_KEYS, 'RW-LAYLA001');

function claim(till: string, at: string, nonce = 'AAAAAAAAAAAAAAAAAAAAAA', token = TOKEN): Claim {
  return { token, till, at, nonce };
}

describe('claimToken', () => {
  test('is the same however the code was typed', () => {
    for (const typed of ['RW-LAYLA001', 'rw-layla001', ' Rw-Layla001\n']) {
      expect(claimToken(SHOP_KEYS, typed)).toBe(TOKEN);
    }
  });

  test('is 32 bytes of base64url, and differs per code and per shop', () => {
    expect(TOKEN).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(claimToken(SHOP_KEYS, 'RW-LAYLA002')).not.toBe(TOKEN);
    expect(claimToken(OTHER_SHOP_KEYS, 'RW-LAYLA001')).not.toBe(TOKEN);
  });

  test.each(['', 'LAYLA001', 'RW-', 'RW-LAYLA 001', `RW-${'A'.repeat(62)}`, 'RW-ÄBC'])(
    'refuses %j without repeating it',
    (code) => {
      expect(() => claimToken(SHOP_KEYS, code)).toThrow(/^claimToken: not a reward code$/);
    },
  );
});

describe('newClaim', () => {
  test('carries the token, the till, the time and a nonce: no code, phone or name', () => {
    const made = newClaim(SHOP_KEYS, 'RW-LAYLA001', 'Till 2', NOW);
    expect(made).toEqual({ token: TOKEN, till: 'Till 2', at: '2026-11-26T10:00:00.000Z', nonce: expect.any(String) });
    expect(isClaim(made)).toBe(true);
    expect(JSON.stringify(made)).not.toMatch(/layla/i);
    expect(newClaim(SHOP_KEYS, 'RW-LAYLA001', 'Till 2', NOW).nonce).not.toBe(made.nonce);
  });

  test('refuses a till name Settings would refuse', () => {
    expect(() => newClaim(SHOP_KEYS, 'RW-LAYLA001', '', NOW)).toThrow(RangeError);
    expect(() => newClaim(SHOP_KEYS, 'RW-LAYLA001', 'Till\u202e2', NOW)).toThrow(RangeError);
  });
});

describe('isClaim', () => {
  const good = claim('Till 1', '2026-11-26T10:00:00.000Z');
  test.each<[string, unknown]>([
    ['null', null],
    ['an array', [good]],
    ['an extra field', { ...good, phone: '+966501234567' }],
    ['a missing field', { token: good.token, till: good.till, at: good.at }],
    ['a short token', { ...good, token: 'abc' }],
    ['a till with a newline', { ...good, till: 'Till\n1' }],
    ['a till too long', { ...good, till: 'T'.repeat(61) }],
    ['a till with spaces around', { ...good, till: ' Till 1' }],
    ['a time not in toISOString form', { ...good, at: '2026-11-26T10:00:00Z' }],
    ['a time that is no time', { ...good, at: '2026-13-26T10:00:00.000Z' }],
    ['a number for a time', { ...good, at: 1 }],
    ['a nonce of the wrong length', { ...good, nonce: 'AAAA' }],
  ])('refuses %s', (_what, value) => {
    expect(isClaim(value)).toBe(false);
  });

  test('takes a well-formed claim', () => {
    expect(isClaim(good)).toBe(true);
  });
});

describe('winningClaim', () => {
  test('no claims, no winner', () => {
    expect(winningClaim([])).toBeUndefined();
  });

  test('the earliest claim wins', () => {
    const early = claim('Till 9', '2026-11-26T10:00:00.000Z');
    const late = claim('Till 1', '2026-11-26T10:00:00.001Z');
    expect(winningClaim([late, early])).toBe(early);
  });

  test('at the same moment the smaller till name wins, by code unit and not by locale', () => {
    const at = '2026-11-26T10:00:00.000Z';
    // In code-unit order 'Z' (0x5A) comes before 'a' (0x61); a locale would put 'a' first.
    expect(winningClaim([claim('a till', at), claim('Z till', at)])?.till).toBe('Z till');
    expect(winningClaim([claim('Till 10', at), claim('Till 2', at)])?.till).toBe('Till 10');
  });

  test('the same till and moment: the smaller nonce wins', () => {
    const at = '2026-11-26T10:00:00.000Z';
    const a = claim('Till 1', at, 'BAAAAAAAAAAAAAAAAAAAAA');
    const b = claim('Till 1', at, 'AAAAAAAAAAAAAAAAAAAAAB');
    expect(winningClaim([a, b])).toBe(b);
  });
});

describe('ClaimLedger', () => {
  test('keeps one claim per token and till, the earlier of two', () => {
    const ledger = new ClaimLedger();
    expect(ledger.add(claim('Till 1', '2026-11-26T10:00:05.000Z'))).toBe('added');
    expect(ledger.add(claim('Till 1', '2026-11-26T10:00:05.000Z'))).toBe('known');
    expect(ledger.add(claim('Till 1', '2026-11-26T10:00:09.000Z'))).toBe('known');
    expect(ledger.add(claim('Till 1', '2026-11-26T10:00:01.000Z'))).toBe('added');
    expect(ledger.add(claim('Till 2', '2026-11-26T10:00:00.000Z'))).toBe('added');
    expect(ledger.size).toBe(2);
    expect(ledger.claimsFor(TOKEN).map((c) => [c.till, c.at])).toEqual([
      ['Till 2', '2026-11-26T10:00:00.000Z'],
      ['Till 1', '2026-11-26T10:00:01.000Z'],
    ]);
  });

  test('claimsFor answers one reward only, and copies', () => {
    const other = claimToken(SHOP_KEYS, 'RW-OTHER1');
    const ledger = new ClaimLedger();
    ledger.merge([
      claim('Till 1', '2026-11-26T10:00:00.000Z'),
      claim('Till 1', '2026-11-26T10:00:00.000Z', undefined, other),
    ]);
    expect(ledger.claimsFor(other)).toHaveLength(1);
    expect(ledger.claimsFor('unknown')).toEqual([]);
    ledger.claimsFor(other)[0]!.till = 'changed';
    expect(ledger.claimsFor(other)[0]!.till).toBe('Till 1');
  });

  test('merge counts what changed; since answers claims from a time on', () => {
    const ledger = new ClaimLedger();
    const claims = [claim('Till 1', '2026-11-26T09:00:00.000Z'), claim('Till 2', '2026-11-26T10:00:00.000Z')];
    expect(ledger.merge(claims)).toBe(2);
    expect(ledger.merge(claims)).toBe(0);
    expect(ledger.since('2026-11-26T09:30:00.000Z').map((c) => c.till)).toEqual(['Till 2']);
    expect(ledger.since('2026-11-26T09:00:00.000Z')).toHaveLength(2);
  });

  test("settle keeps a reward's claims for the shift; prune drops them and refuses late copies until it forgets", () => {
    const ledger = new ClaimLedger({ settledMemoryMs: 1000 });
    const kept = claim('Till 1', '2026-11-26T10:00:00.000Z', undefined, claimToken(SHOP_KEYS, 'RW-KEPT1'));
    ledger.merge([claim('Till 1', '2026-11-26T10:00:00.000Z'), claim('Till 2', '2026-11-26T10:00:00.000Z'), kept]);
    ledger.settle(TOKEN, 0);
    expect(ledger.isSettled(TOKEN)).toBe(true);
    // Still held, and still told to peers: a till whose copy the service refused must learn who won.
    expect(ledger.claimsFor(TOKEN).map((c) => c.till)).toEqual(['Till 1', 'Till 2']);
    expect(ledger.prune(100, 500)).toBe(false);
    expect(ledger.prune(600, 500)).toBe(true);
    expect(ledger.claimsFor(TOKEN)).toEqual([]);
    expect(ledger.size).toBe(1);
    expect(ledger.add(claim('Till 3', '2026-11-26T10:00:00.000Z'))).toBe('settled');
    ledger.prune(1700, 500); // a later prune forgets the tokens dropped long ago
    expect(ledger.add(claim('Till 3', '2026-11-26T10:00:00.000Z'))).toBe('added');
    expect(ledger.all()).toHaveLength(2);
  });

  test('a snapshot restores the same claims and settlements', () => {
    const ledger = new ClaimLedger();
    ledger.merge([claim('Till 1', '2026-11-26T10:00:00.000Z'), claim('Till 2', '2026-11-26T10:00:01.000Z')]);
    ledger.settle(TOKEN, 42);
    const copy = new ClaimLedger();
    copy.restore(JSON.parse(JSON.stringify(ledger.snapshot())));
    expect(copy.all()).toEqual(ledger.all());
    expect(copy.isSettled(TOKEN)).toBe(true);
    expect(copy.snapshot()).toEqual(ledger.snapshot());
  });

  test('a full ledger takes no new claim but still keeps the earlier of two', () => {
    const ledger = new ClaimLedger({ maxClaims: 1 });
    expect(ledger.add(claim('Till 1', '2026-11-26T10:00:05.000Z'))).toBe('added');
    expect(ledger.add(claim('Till 2', '2026-11-26T10:00:00.000Z'))).toBe('full');
    expect(ledger.add(claim('Till 1', '2026-11-26T10:00:01.000Z'))).toBe('added');
    expect(ledger.all().map((c) => c.at)).toEqual(['2026-11-26T10:00:01.000Z']);
  });

  test('a caller changing its claim afterwards does not change the ledger', () => {
    const ledger = new ClaimLedger();
    const mine = claim('Till 1', '2026-11-26T10:00:00.000Z');
    ledger.add(mine);
    mine.at = '2020-01-01T00:00:00.000Z';
    expect(ledger.all()[0]!.at).toBe('2026-11-26T10:00:00.000Z');
  });
});
