// The tills a till has heard from, kept across a restart (electron/shop-ledger/seen-tills.ts).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { MAX_SEEN_TILLS, seenTillsFile, type SeenTill } from '../../../electron/shop-ledger/seen-tills';

const TAG = '0123456789abcdef';
const TILL_3: SeenTill = { till: 'Till 3', host: '192.168.1.13', port: 47231, at: Date.parse('2026-11-26T09:00:00Z') };

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'till-seen-'));
  file = join(dir, 'shop-tills.json');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('the shop’s tills, kept across a restart', () => {
  test('come back as saved, for the same shop only', async () => {
    const store = seenTillsFile(file);
    expect(await store.load(TAG)).toEqual([]);
    await store.save(TAG, [TILL_3]);
    expect(await seenTillsFile(file).load(TAG)).toEqual([TILL_3]);
    // Another branch or key is another shop: its tills are not this one's.
    expect(await seenTillsFile(file).load('fedcba9876543210')).toEqual([]);
    // Names, addresses and times only.
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ v: 1, shop: TAG, tills: [TILL_3] });
  });

  test('an unreadable or hostile file gives none, or only its well-formed entries, never an error', async () => {
    for (const text of ['not json', '[]', '{"v":2,"shop":"0123456789abcdef","tills":[]}', '{"v":1}']) {
      await writeFile(file, text);
      expect(await seenTillsFile(file).load(TAG)).toEqual([]);
    }
    const bad = [
      { ...TILL_3, till: 'Till\n9' },
      { ...TILL_3, host: 'a b' },
      { ...TILL_3, port: 70_000 },
      { ...TILL_3, at: -1 },
      'Till 4',
    ];
    await writeFile(file, JSON.stringify({ v: 1, shop: TAG, tills: [...bad, TILL_3] }));
    expect(await seenTillsFile(file).load(TAG)).toEqual([TILL_3]);
    const many = Array.from({ length: 200 }, (_, i) => ({ ...TILL_3, port: 1000 + i }));
    await writeFile(file, JSON.stringify({ v: 1, shop: TAG, tills: many }));
    expect(await seenTillsFile(file).load(TAG)).toHaveLength(MAX_SEEN_TILLS);
  });
});
