import { afterEach, expect, test } from 'vitest';
import {
  chunkOf,
  linesOf,
  parseSearchLine,
  phoneDigitsOfLine,
  searchLineOf,
  writeSearchLines,
} from '../../../../renderer/offline/search/search-chunks';
import type { OfflineDb } from '../../../../renderer/offline/db/schema';
import { dropDb, freshDb } from '../support/fixtures';

const cleanup: OfflineDb[] = [];
afterEach(async () => {
  for (const db of cleanup.splice(0)) await dropDb(db);
});

const fields = (pk: number, word: string) => ({
  pk,
  phoneE164: `+4520${String(pk).padStart(6, '0')}`,
  nameWords: [word],
});

async function chunkLines(db: OfflineDb, pk: number) {
  const chunk = await db.searchChunks.get(chunkOf(pk));
  return chunk ? linesOf(chunk).map(parseSearchLine) : [];
}

test('new, higher pks are appended; a change or a lower pk rewrites the chunk in pk order; lines stay one per pk', async () => {
  const db = freshDb();
  cleanup.push(db);
  // A fill: pages of new customers, each batch after the last.
  await writeSearchLines(db.searchChunks, [fields(3, 'c'), fields(1, 'a'), fields(2, 'b')]);
  await writeSearchLines(db.searchChunks, [fields(5, 'e'), fields(4, 'd')]);
  expect((await chunkLines(db, 1)).map((line) => line.pk)).toEqual([1, 2, 3, 4, 5]);
  // A customer written again with another name: one line for it, the new one.
  await writeSearchLines(db.searchChunks, [fields(2, 'bee'), fields(6, 'f')]);
  const lines = await chunkLines(db, 1);
  expect(lines.map((line) => line.pk)).toEqual([1, 2, 3, 4, 5, 6]);
  expect(lines.find((line) => line.pk === 2)?.nameWords).toEqual(['bee']);
  // A pk below the highest (a customer registered offline, say) is put in its place.
  await writeSearchLines(db.searchChunks, [fields(9, 'i')], [4]);
  await writeSearchLines(db.searchChunks, [fields(7, 'g')]);
  expect((await chunkLines(db, 1)).map((line) => line.pk)).toEqual([1, 2, 3, 5, 6, 7, 9]);
  // Across a chunk boundary (1,024 to a chunk): each chunk gets its own lines.
  await writeSearchLines(db.searchChunks, [fields(1023, 'x'), fields(1024, 'y'), fields(1025, 'z')]);
  expect((await chunkLines(db, 1023)).map((line) => line.pk)).toEqual([1, 2, 3, 5, 6, 7, 9, 1023]);
  expect((await chunkLines(db, 1024)).map((line) => line.pk)).toEqual([1024, 1025]);
});

test("a line's phone digits read alone are those the whole line parses to, with or without a phone or name words", () => {
  for (const fields of [
    { pk: 7, phoneE164: '+966501234567', nameWords: ['layla', 'haddad'] },
    { pk: 8, phoneE164: '+4520123456', nameWords: [] },
    { pk: 9, phoneE164: '', nameWords: ['walk', 'in'] },
    { pk: 10, phoneE164: '', nameWords: [] },
  ]) {
    const line = searchLineOf(fields);
    expect(phoneDigitsOfLine(line)).toBe(parseSearchLine(line).phoneE164.slice(1));
  }
  expect(phoneDigitsOfLine(searchLineOf({ pk: 7, phoneE164: '+966501234567', nameWords: ['x'] }))).toBe('966501234567');
});
