// Connections per remote address (electron/shop-ledger/address-rate-limit.ts), on an injected clock.
import { expect, test } from 'vitest';
import { createAddressRateLimit } from '../../../electron/shop-ledger/address-rate-limit';

test('an address is refused past its count, and served again in the next window', () => {
  const limit = createAddressRateLimit({ max: 2, windowMs: 1000 });
  expect([limit.take('a', 0), limit.take('a', 10), limit.take('a', 20)]).toEqual([true, true, false]);
  expect(limit.take('b', 20)).toBe(true);
  expect(limit.take('a', 1000)).toBe(true);
});

test('a clock set back starts a new window rather than refusing for ever', () => {
  const limit = createAddressRateLimit({ max: 1, windowMs: 1000 });
  expect([limit.take('a', 5000), limit.take('a', 5001)]).toEqual([true, false]);
  expect(limit.take('a', 100)).toBe(true);
});

test('the addresses remembered are bounded; ended windows make room', () => {
  const limit = createAddressRateLimit({ max: 5, windowMs: 1000, maxAddresses: 2 });
  expect([limit.take('a', 0), limit.take('b', 0), limit.take('c', 0)]).toEqual([true, true, false]);
  expect(limit.take('c', 1000)).toBe(true);
});
