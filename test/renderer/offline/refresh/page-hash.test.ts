import { expect, test } from 'vitest';
import { cyrb53 } from '../../../../renderer/offline/hashing/cyrb53';
import { pageHash } from '../../../../renderer/offline/refresh/page-hash';

test('the page hashes share the hash and stay what tills have stored: a changed hash would make every page look changed once', () => {
  expect(pageHash('')).toBe('wvjl67o803-0');
  expect(pageHash('a')).toBe('262p94epp1d-1');
  expect(pageHash('{"id":"c-1","name":"Søren Østergaard"}\n{"id":"c-2","name":"ليلى حداد"}')).toBe('1yaytx1w6jf-1y');
  expect(pageHash('a')).toBe(`${cyrb53('a').toString(36)}-1`);
});
