import fc from 'fast-check';
import { expect, test } from 'vitest';
import { cyrb53 } from '../../../../renderer/offline/hashing/cyrb53';

// The page hashes stored in `pageTags` are made with it: a hash that changed would make every
// page of a till's cache look changed once, and every stored id be looked for afresh.
test('hashes as the published cyrb53 does (seed 0), and as tills have stored', () => {
  expect(cyrb53('a')).toBe(7929297801672961);
  expect(cyrb53('')).toBe(3338908027751811);
  expect(cyrb53('c-1')).toBe(8138399679653008);
  expect(cyrb53('LC-000123')).toBe(1370962402469797);
  expect(cyrb53('ليلى')).toBe(4945586069242895);
});

test('gives a safe integer of 53 bits for any text', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'grapheme' }), (text) => {
      const hash = cyrb53(text);
      expect(Number.isSafeInteger(hash)).toBe(true);
      expect(hash).toBeGreaterThanOrEqual(0);
      expect(cyrb53(text)).toBe(hash);
    }),
  );
});
