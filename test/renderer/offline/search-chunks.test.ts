import { afterEach, expect, test } from 'vitest';
import {
  CHUNK_SIZE,
  chunkOf,
  linesOf,
  parseSearchLine,
  writeSearchLines,
} from '../../../renderer/offline/search-chunks';
import type { OfflineDb } from '../../../renderer/offline/db';
import { dropDb, freshDb } from './support/fixtures';

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
  // Across a chunk boundary: each chunk gets its own lines.
  const edge = CHUNK_SIZE;
  await writeSearchLines(db.searchChunks, [fields(edge - 1, 'x'), fields(edge, 'y'), fields(edge + 1, 'z')]);
  expect((await chunkLines(db, edge - 1)).map((line) => line.pk)).toEqual([1, 2, 3, 5, 6, 7, 9, edge - 1]);
  expect((await chunkLines(db, edge)).map((line) => line.pk)).toEqual([edge, edge + 1]);
});

test('a chunk of long two-byte names stays well under the 64 KB at which Chromium stores a value as a file', () => {
  // A long line: a high pk, a 15-digit number and four Arabic words of ten letters.
  const word = 'عبدالرحمنن';
  const line = `9999999 966500000000000 ${[word, word, word, word].join(' ')}`;
  // V8 serialises a string with any character past Latin-1 as two bytes a character.
  const bytes = 2 * Array.from({ length: CHUNK_SIZE }, () => line).join('\n').length;
  expect(bytes).toBeLessThan(48 * 1024);
});
