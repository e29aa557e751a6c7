import { expect, test } from 'vitest';
import { mayHoldPhone, phoneDigestOf, phoneHash } from '../../../../renderer/offline/search/phone-digests';
import { SearchLineChanges } from '../../../../renderer/offline/search/search-chunks';

test("a chunk's digest lists each line's phone's hash, in the lines' order; a customer without a phone hashes to 0", () => {
  const changes = new SearchLineChanges([
    { pk: 3, phoneE164: '+966501234567', nameWords: ['layla', 'haddad'] },
    { pk: 1, phoneE164: '+4520123456', nameWords: ['søren'] },
    { pk: 2, phoneE164: '', nameWords: ['walk', 'in'] },
  ]);
  const [chunk] = changes.apply([undefined]).toPut;
  const digest = phoneDigestOf(chunk!);
  expect(digest.chunk).toBe(0);
  expect([...digest.hashes]).toEqual([phoneHash('4520123456'), 0, phoneHash('966501234567')]);
  expect(mayHoldPhone(digest, '966501234567')).toBe(true);
  expect(mayHoldPhone(digest, '966501234568')).toBe(false);
});

test('the hash tells numbers apart and is never 0, which means "no phone"', () => {
  const hashes = new Set<number>();
  for (let n = 0; n < 100_000; n++) hashes.add(phoneHash(`9665${String(n).padStart(8, '0')}`));
  // 100,000 numbers, 32 bits: a shared hash or two is possible, not more.
  expect(hashes.size).toBeGreaterThan(99_990);
  expect(hashes.has(0)).toBe(false);
  expect(phoneHash('')).not.toBe(0);
});
