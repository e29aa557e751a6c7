// The laws that let tills gossip claims without a leader (electron/shop-ledger/claims.ts,
// claim-ledger.ts), on generated claims that collide often: few tokens, few tills, few times.
// - the winner does not depend on the order claims arrived in;
// - merging is commutative, associative and idempotent, and a ledger fed the claims in any
//   order, in any batches, holds the same set as the pure merge;
// - the winner of a merged set is the winner of all the claims merged.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ClaimLedger, mergeClaims } from '../../../electron/shop-ledger/claim-ledger';
import { winningClaim, type Claim } from '../../../electron/shop-ledger/claims';

const TOKENS = ['A'.repeat(43), 'B'.repeat(43), 'C'.repeat(43)];
const BASE = Date.parse('2026-11-26T10:00:00.000Z');

const claimArb: fc.Arbitrary<Claim> = fc.record({
  token: fc.constantFrom(...TOKENS),
  till: fc.constantFrom('Till 1', 'Till 2', 'till 1', 'Till 10', 'Kasse Ä', 'صندوق ١'),
  at: fc.integer({ min: 0, max: 3 }).map((ms) => new Date(BASE + ms).toISOString()),
  nonce: fc.constantFrom('AAAAAAAAAAAAAAAAAAAAAA', 'AAAAAAAAAAAAAAAAAAAAAB', 'zzzzzzzzzzzzzzzzzzzzzz'),
});
const claimsArb = fc.array(claimArb, { maxLength: 30 });

describe('winningClaim', () => {
  test('the order of arrival never changes the winner', () => {
    fc.assert(
      fc.property(
        claimsArb.chain((claims) =>
          fc.tuple(fc.constant(claims), fc.shuffledSubarray(claims, { minLength: claims.length })),
        ),
        ([claims, shuffled]) => {
          expect(winningClaim(shuffled)).toEqual(winningClaim(claims));
        },
      ),
    );
  });

  test('the winner is one of the claims, and no claim comes before it', () => {
    fc.assert(
      fc.property(fc.array(claimArb, { minLength: 1, maxLength: 30 }), (claims) => {
        const winner = winningClaim(claims)!;
        expect(claims).toContain(winner);
        for (const claim of claims) {
          expect(claim.at >= winner.at).toBe(true);
          if (claim.at === winner.at) expect(claim.till >= winner.till).toBe(true);
        }
      }),
    );
  });
});

describe('mergeClaims', () => {
  test('is commutative', () => {
    fc.assert(
      fc.property(claimsArb, claimsArb, (a, b) => {
        expect(mergeClaims(a, b)).toEqual(mergeClaims(b, a));
      }),
    );
  });

  test('is associative', () => {
    fc.assert(
      fc.property(claimsArb, claimsArb, claimsArb, (a, b, c) => {
        expect(mergeClaims(mergeClaims(a, b), c)).toEqual(mergeClaims(a, mergeClaims(b, c)));
      }),
    );
  });

  test('is idempotent', () => {
    fc.assert(
      fc.property(claimsArb, claimsArb, (a, b) => {
        const once = mergeClaims(a, b);
        expect(mergeClaims(once, once)).toEqual(once);
        expect(mergeClaims(once, a)).toEqual(once);
      }),
    );
  });

  test('keeps the winner of every reward', () => {
    fc.assert(
      fc.property(claimsArb, claimsArb, (a, b) => {
        const merged = mergeClaims(a, b);
        for (const token of TOKENS) {
          const of = (claims: Claim[]) => claims.filter((claim) => claim.token === token);
          expect(winningClaim(of(merged))).toEqual(winningClaim(of([...a, ...b])));
        }
      }),
    );
  });
});

describe('ClaimLedger', () => {
  test('two tills fed the same claims in other orders and batches hold the same set', () => {
    fc.assert(
      fc.property(
        claimsArb.chain((claims) =>
          fc.tuple(
            fc.constant(claims),
            fc.shuffledSubarray(claims, { minLength: claims.length }),
            fc.integer({ min: 0, max: claims.length }),
          ),
        ),
        ([claims, shuffled, cut]) => {
          const one = new ClaimLedger();
          for (const claim of claims) one.add(claim);
          const two = new ClaimLedger();
          two.merge(shuffled.slice(cut));
          two.merge(shuffled.slice(0, cut));
          expect(two.all()).toEqual(one.all());
          expect(one.all()).toEqual(mergeClaims(claims));
          for (const token of TOKENS) expect(one.claimsFor(token)[0]).toEqual(winningClaim(two.claimsFor(token)));
        },
      ),
    );
  });
});
