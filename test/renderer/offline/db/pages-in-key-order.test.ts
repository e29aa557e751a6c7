import { afterEach, expect, test } from 'vitest';
import type { OfflineDb } from '../../../../renderer/offline/db/schema';
import { pagesInKeyOrder } from '../../../../renderer/offline/db/pages-in-key-order';
import { dropDb, freshDb } from '../support/fixtures';

const cleanup: OfflineDb[] = [];
afterEach(async () => {
  for (const db of cleanup.splice(0)) await dropDb(db);
});

/** A database whose search chunks have these keys (gaps included). */
async function chunksWithKeys(keys: readonly number[]): Promise<OfflineDb> {
  const db = freshDb();
  cleanup.push(db);
  await db.searchChunks.bulkPut(keys.map((chunk) => ({ chunk, lines: `${chunk << 10} 966500000000 name` })));
  return db;
}

async function keysOf(pages: AsyncIterable<{ chunk: number }[]>): Promise<number[][]> {
  const keys: number[][] = [];
  for await (const page of pages) keys.push(page.map((record) => record.chunk));
  return keys;
}

test('reads every record in key order, a page at a time, across gaps; an empty table gives no page', async () => {
  const db = await chunksWithKeys([7, 0, 3, 12, 1]);
  expect(await keysOf(pagesInKeyOrder(db.searchChunks, 2, (chunk) => chunk.chunk))).toEqual([[0, 1], [3, 7], [12]]);
  expect(await keysOf(pagesInKeyOrder(db.searchChunks, 5, (chunk) => chunk.chunk))).toEqual([[0, 1, 3, 7, 12]]);
  const empty = await chunksWithKeys([]);
  expect(await keysOf(pagesInKeyOrder(empty.searchChunks, 2, (chunk) => chunk.chunk))).toEqual([]);
});

test('runs beforeRead before every request, the first too, and stops where it answers false', async () => {
  const db = await chunksWithKeys([0, 1, 2, 3, 4]);
  const events: string[] = [];
  let turns = 0;
  const pages = pagesInKeyOrder(
    db.searchChunks,
    2,
    (chunk) => chunk.chunk,
    async () => {
      events.push(`turn ${++turns}`);
      return turns < 3;
    },
  );
  for await (const page of pages) events.push(`page ${page.map((record) => record.chunk).join(',')}`);
  expect(events).toEqual(['turn 1', 'page 0,1', 'turn 2', 'page 2,3', 'turn 3']);
});

test('a caller that leaves the loop makes no further request', async () => {
  const db = await chunksWithKeys([0, 1, 2, 3, 4]);
  let requests = 0;
  const pages = pagesInKeyOrder(
    db.searchChunks,
    2,
    (chunk) => chunk.chunk,
    async () => {
      requests += 1;
      return true;
    },
  );
  for await (const page of pages) if (page.length > 0) break;
  expect(requests).toBe(1);
});
