import { expect, test } from 'vitest';
import fc from 'fast-check';
import { cyrb53, cyrb53Joined } from '../../../../renderer/offline/hashing/cyrb53';
import { pageHash } from '../../../../renderer/offline/refresh/page-hash';

test('the page hashes share the hash and stay what tills have stored: a changed hash would make every page look changed once', () => {
  expect(pageHash([])).toBe('wvjl67o803-0');
  expect(pageHash([''])).toBe('wvjl67o803-0');
  expect(pageHash(['a'])).toBe('262p94epp1d-1');
  expect(pageHash(['{"id":"c-1","name":"Søren Østergaard"}', '{"id":"c-2","name":"ليلى حداد"}'])).toBe(
    '1yaytx1w6jf-1y',
  );
  expect(pageHash(['a'])).toBe(`${cyrb53('a').toString(36)}-1`);
});

test('a page is hashed as its lines joined by newlines would be, without joining them', () => {
  fc.assert(
    fc.property(fc.array(fc.string({ unit: 'grapheme' })), fc.string({ maxLength: 3 }), (lines, separator) => {
      const joined = lines.join(separator);
      expect(cyrb53Joined(lines, separator)).toBe(cyrb53(joined));
      if (separator === '\n')
        expect(pageHash(lines)).toBe(`${cyrb53(joined).toString(36)}-${joined.length.toString(36)}`);
    }),
  );
  const page = ['{"id":"c-1"}', '', '{"id":"c-3","name":"ليلى"}'];
  expect(pageHash(page)).toBe(`${cyrb53(page.join('\n')).toString(36)}-${page.join('\n').length.toString(36)}`);
});
