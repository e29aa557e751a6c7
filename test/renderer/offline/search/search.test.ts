import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { CustomerCache, type CacheSearchResult } from '../../../../renderer/offline/cache/customer-cache';
import type { OfflineDb } from '../../../../renderer/offline/db/schema';
import { writeSearchLines } from '../../../../renderer/offline/search/search-chunks';
import { phoneDigestOf } from '../../../../renderer/offline/search/phone-digests';
import { SlimSearchIndex, parseQuery } from '../../../../renderer/offline/search/search-index';
import { customer, dropDb, freshDb, recordStoreCalls, type StoreCall } from '../support/fixtures';

const FIXED = [
  customer('c-layla', 'Layla Haddad', '+966 50 123 4567'),
  customer('c-soren', 'Søren Østergaard', '+45 20 12 34 56'),
  customer('c-lukasz', 'Łukasz Żółkiewski', '+48 501 234 567'),
  customer('c-isik', 'Işık Yılmaz', '+90 532 123 45 67'),
  customer('c-anna', 'Anna Andersen', '+44 7700 900123'),
  customer('c-omar', 'Omar Al-Farsi', '+971 50 123 4567'),
];
// Enough namesakes for three pages.
const HADDADS = Array.from({ length: 45 }, (_, i) =>
  customer(
    `c-h${String(i).padStart(2, '0')}`,
    `Sami${i} Haddad`,
    `+966 55 ${String(1000000 + i).slice(0, 3)} ${String(1000000 + i).slice(3)}`,
  ),
);

function names(result: CacheSearchResult): string[] {
  return result.customers.map((row) => row.name);
}

/**
 * How far the cache under test has loaded: `memory`, the index and the listings (a search
 * reads nothing from IndexedDB); `index`, the index without the listings (the page's
 * customers are read from their blocks); `fallback`, nothing yet (the search chunks answer).
 */
for (const mode of ['memory', 'index', 'fallback'] as const) {
  describe(`offline search through the ${mode}`, () => {
    let db: OfflineDb;
    let cache: CustomerCache;
    let calls: StoreCall[];

    beforeEach(async () => {
      db = freshDb();
      calls = recordStoreCalls(db);
      const options = { defaultCountry: () => 'SA', now: () => new Date('2026-03-01T09:00:00Z') };
      // Stored by another cache (a till's earlier run): this one's memory starts empty.
      await new CustomerCache(db, options).putCustomers([...FIXED, ...HADDADS]);
      cache = new CustomerCache(db, options);
      if (mode !== 'fallback') await cache.loadIndex({ yieldToPage: async () => undefined });
      if (mode === 'index') cache.listings.close();
      calls.length = 0;
    });
    afterEach(() => dropDb(db));

    function customerReads(): StoreCall[] {
      return calls.filter((call) => call.table === 'customerBlocks');
    }

    function expectNoTableScan(): void {
      if (mode === 'memory') {
        // Nothing read at all: no request, so no waiting for a write in progress.
        expect(calls).toEqual([]);
        return;
      }
      const reads = customerReads();
      // The recorder saw the reads (a silent recorder would prove nothing).
      expect(reads.length).toBeGreaterThan(0);
      // Either path reads only the blocks of the page's rows, by key: the index, or while it
      // loads the search chunks, say which (the blocks have no phone index to ask).
      expect(reads.every((call) => call.op === 'getMany')).toBe(true);
      if (mode === 'fallback') expect(calls.some((call) => call.table === 'searchChunks')).toBe(true);
    }

    test('answers says which path and marks the cache time', async () => {
      const result = await cache.search('layla');
      expect(result.via).toBe(mode === 'fallback' ? 'fallback' : 'index');
      expect(result.cacheOf).toBe('2026-03-01T09:00:00.000Z');
      expect(result.customers[0]!.fetchedAt).toBe('2026-03-01T09:00:00.000Z');
      expectNoTableScan();
    });

    test('a search that matches nothing answers without reading a block', async () => {
      // During a fill a read, even of no blocks, would wait for the refresh's write to commit.
      const result = await cache.search('zzqx');
      expect(result.customers).toEqual([]);
      expect(result.total).toBe(0);
      if (mode !== 'fallback') expect(customerReads()).toEqual([]);
      // The same search with a match does read, so the recorder is listening.
      await cache.search('layla');
      if (mode !== 'memory') expect(customerReads().some((call) => call.op === 'getMany')).toBe(true);
    });

    test('exact phone, international or local in the till country', async () => {
      expect(names(await cache.search('+966 50 123 4567'))).toEqual(['Layla Haddad']);
      expect(names(await cache.search('0501234567'))).toEqual(['Layla Haddad']);
      expect(names(await cache.search('00971501234567'))).toEqual(['Omar Al-Farsi']);
      expect((await cache.search('+966501234567')).query.kind).toBe('phone');
      expectNoTableScan();
    });

    test('a name prefix of any word, case- and accent-insensitive, with letters NFD keeps', async () => {
      expect(names(await cache.search('HAD')).length).toBe(20);
      expect(names(await cache.search('soren'))).toEqual(['Søren Østergaard']);
      expect(names(await cache.search('øster'))).toEqual(['Søren Østergaard']);
      expect(names(await cache.search('OSTERG'))).toEqual(['Søren Østergaard']);
      expect(names(await cache.search('lukasz'))).toEqual(['Łukasz Żółkiewski']);
      expect(names(await cache.search('zolk'))).toEqual(['Łukasz Żółkiewski']);
      expect(names(await cache.search('isik'))).toEqual(['Işık Yılmaz']);
      expect(names(await cache.search('yil'))).toEqual(['Işık Yılmaz']);
      expect(names(await cache.search('farsi'))).toEqual(['Omar Al-Farsi']);
      expect(names(await cache.search('zzz'))).toEqual([]);
      expectNoTableScan();
    });

    test('several words must all match, each as a prefix of some word', async () => {
      expect(names(await cache.search('layla had'))).toEqual(['Layla Haddad']);
      expect(names(await cache.search('had lay'))).toEqual(['Layla Haddad']);
      expect(names(await cache.search('layla farsi'))).toEqual([]);
      expect(names(await cache.search('omar al'))).toEqual(['Omar Al-Farsi']);
      expectNoTableScan();
    });

    test('a customer matching on two words is listed once', async () => {
      const result = await cache.search('an');
      expect(names(result)).toEqual(['Anna Andersen']);
      expect(result.total).toBe(1);
    });

    test('pages of 20, without duplicates, in the same order every time', async () => {
      const pages = await Promise.all([1, 2, 3].map((page) => cache.search('haddad', page)));
      expect(pages.map((page) => page.customers.length)).toEqual([20, 20, 6]);
      expect(pages[0]!.total).toBe(46);
      expect(pages[0]!.lastPage).toBe(3);
      const ids = pages.flatMap((page) => page.customers.map((row) => row.id));
      expect(new Set(ids).size).toBe(46);
      const again = await cache.search('haddad', 2);
      expect(again.customers.map((row) => row.id)).toEqual(pages[1]!.customers.map((row) => row.id));
    });

    test('a page shows what the results list needs of each customer, as the service sent it', async () => {
      const [layla] = (await cache.search('+966 50 123 4567')).customers;
      const stored = FIXED[0]!;
      expect(layla).toEqual({
        pk: expect.any(Number),
        id: 'c-layla',
        name: 'Layla Haddad',
        phone: '+966 50 123 4567',
        cards: stored.cards.map((card) => ({ program: card.program, points: card.points })),
        fetchedAt: '2026-03-01T09:00:00.000Z',
        localOnly: false,
      });
    });

    if (mode !== 'fallback') {
      test('a digit substring anywhere in the number', async () => {
        expect(names(await cache.search('900123'))).toEqual(['Anna Andersen']);
        expect(names(await cache.search('20 12 34'))).toEqual(['Søren Østergaard']);
        // 1234567 sits in four numbers (twice in none): each listed once.
        expect(names(await cache.search('1234567')).sort()).toEqual([
          'Işık Yılmaz',
          'Layla Haddad',
          'Omar Al-Farsi',
          'Łukasz Żółkiewski',
        ]);
        // 55 occurs twice in some Haddad numbers (+966 55 ... 55): still once each.
        const repeated = await cache.search('55', 1);
        expect(new Set(repeated.customers.map((row) => row.id)).size).toBe(repeated.customers.length);
        expectNoTableScan();
      });

      test('write-through keeps the index current', async () => {
        await cache.putCustomers([
          customer('c-layla', 'Layla Nasser', '+966 50 123 4567'),
          customer('c-new', 'Zeynep Kaya', '+90 555 111 22 33'),
        ]);
        expect(names(await cache.search('haddad layla'))).toEqual([]);
        expect(names(await cache.search('nasser'))).toEqual(['Layla Nasser']);
        expect(names(await cache.search('zeyn'))).toEqual(['Zeynep Kaya']);
        expect(names(await cache.search('5551112'))).toEqual(['Zeynep Kaya']);
        expect(names(await cache.search('+90 555 111 22 33'))).toEqual(['Zeynep Kaya']);
      });
    } else {
      test('a digit search while the index loads answers from what is loaded, and says so', async () => {
        const result = await cache.search('900123');
        expect(result.complete).toBe(false);
        expect(result.via).toBe('fallback');
      });

      test("an exact phone while the index loads reads every chunk's phone digest, however many, and only the chunk that holds it: it is never partial", async () => {
        // 300 chunks of search lines, more than a name search reads before it says it is
        // incomplete, each with its digest, as a till stores them.
        await writeSearchLines(
          db.searchChunks,
          Array.from({ length: 299 }, (_, i) => ({
            pk: (i + 1) * 1_024,
            phoneE164: `+4790${String(i).padStart(6, '0')}`,
            nameWords: ['filler'],
          })),
        );
        await db.phoneDigests.bulkPut((await db.searchChunks.toArray()).map((chunk) => phoneDigestOf(db, chunk)));
        await db.meta.put({ key: 'nextCustomerPk', value: 300 * 1_024 + 5 });
        const [last] = await cache.putCustomers([customer('c-last', 'Nora Berg', '+47 412 34 567')]);
        expect(last!.pk).toBe(300 * 1_024 + 5);
        calls.length = 0;

        const found = await cache.search('+47 412 34 567');
        expect(found).toMatchObject({ via: 'fallback', complete: true, total: 1 });
        expect(names(found)).toEqual(['Nora Berg']);
        // Three reads of 128 digests cover the 301 chunks; one chunk's lines are read.
        expect(calls.filter((call) => call.table === 'phoneDigests').length).toBe(3);
        expect(calls.filter((call) => call.table === 'searchChunks')).toEqual([
          { table: 'searchChunks', op: 'getMany' },
        ]);
        expect((await cache.findByPhone('+4741234567'))?.id).toBe('c-last');
        expect(await cache.findByPhone('+4741234568')).toBeUndefined();
        expectNoTableScan();
        // A name, by contrast, is read from the first chunks only, and the answer says so.
        expect(await cache.search('filler')).toMatchObject({ complete: false });
      });

      test('a phone two stale customers share lists both, in pk order', async () => {
        await cache.putCustomers([
          customer('c-old', 'Old Owner', '+966 50 999 0001'),
          customer('c-new', 'New Owner', '+966 50 999 0001'),
        ]);
        expect(names(await cache.search('+966 50 999 0001'))).toEqual(['Old Owner', 'New Owner']);
        expect((await cache.findByPhone('+966509990001'))?.id).toBe('c-old');
      });
    }
  });
}

describe('the in-memory index', () => {
  // Enough customers for three chunks of 1,024 (search-chunks.ts).
  const CROWD = Array.from({ length: 2_500 }, (_, i) =>
    customer(
      `c-crowd-${i}`,
      `Person${i} Crowd`,
      `+966 56 ${String(1_000_000 + i).slice(0, 3)} ${String(1_000_000 + i).slice(3)}`,
    ),
  );

  async function crowdCache(): Promise<{ db: OfflineDb; cache: CustomerCache }> {
    const db = freshDb();
    const cache = new CustomerCache(db, { defaultCountry: () => 'SA' });
    await cache.putCustomers([...FIXED, ...HADDADS]);
    for (let i = 0; i < CROWD.length; i += 500) await cache.putCustomers(CROWD.slice(i, i + 500));
    return { db, cache };
  }

  test('loads in pages of chunks, yielding to the page between them', async () => {
    const { db, cache } = await crowdCache();
    let yields = 0;
    const progress: number[] = [];
    await cache.loadIndex({
      pageSize: 1,
      yieldToPage: async () => {
        yields += 1;
      },
      onProgress: (p) => progress.push(p.loaded),
    });
    expect(cache.indexReady).toBe(true);
    expect(cache.index.size).toBe(2_551);
    // pks 1-1023, 1024-2047, 2048-2551: three pages, the last one short.
    expect(progress).toEqual([1_023, 2_047, 2_551, 2_551]);
    expect(yields).toBeGreaterThanOrEqual(2);
    expect(names(await cache.search('person2499'))).toEqual(['Person2499 Crowd']);
    await dropDb(db);
  });

  test('a write during the load wins over the load’s older read', async () => {
    const { db, cache } = await crowdCache();
    let renamed = false;
    await cache.loadIndex({
      pageSize: 1,
      yieldToPage: async () => {
        // Once the first chunk is in (the page's turn also comes before each loader's first read).
        if (renamed || cache.index.size === 0) return;
        renamed = true;
        // After the first chunk: Layla (pk 1) was loaded already, Person2400 (pk 2452) not yet.
        await cache.putCustomers([
          customer('c-layla', 'Layla Nasser', '+966 50 123 4567'),
          customer('c-crowd-2400', 'Renamed Person', CROWD[2400]!.phone),
        ]);
      },
    });
    expect(names(await cache.search('nasser'))).toEqual(['Layla Nasser']);
    expect(names(await cache.search('layla haddad'))).toEqual([]);
    expect(names(await cache.search('renamed'))).toEqual(['Renamed Person']);
    expect(names(await cache.search('person2400'))).toEqual([]);
    expect(cache.index.size).toBe(2_551);
    await dropDb(db);
  });

  test('caps a crowd of matches and says so', () => {
    const index = new SlimSearchIndex();
    for (let pk = 1; pk <= 30; pk++)
      index.upsert({ pk, phoneE164: `+4477009${String(pk).padStart(5, '0')}`, nameWords: ['sam'] });
    const hits = index.search(parseQuery('sa', 'GB'), 25);
    expect(hits.pks).toHaveLength(25);
    expect(hits.capped).toBe(true);
    const digits = index.search(parseQuery('77009', 'GB'), 10);
    expect(digits.pks).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(digits.capped).toBe(true);
  });

  test('a number holding the digits twice is one result', () => {
    const index = new SlimSearchIndex();
    index.upsert({ pk: 3, phoneE164: '+4455554455', nameWords: ['x'] });
    index.upsert({ pk: 4, phoneE164: '+4420555000', nameWords: ['y'] });
    expect(index.search(parseQuery('55', 'GB'), 10).pks).toEqual([3, 4]);
  });

  test('digit queries give the same answers through the gram postings as by scanning', async () => {
    const index = new SlimSearchIndex();
    index.beginBulkLoad();
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647);
    const phones = new Map<number, string>();
    for (let pk = 1; pk <= 400; pk++) {
      phones.set(pk, `+9665${String(next() % 100_000_000).padStart(8, '0')}`);
      index.upsert({ pk, phoneE164: phones.get(pk)!, nameWords: ['x'] });
    }
    const queries = ['9665', '1234', '0000', '55', '96650', '12', '7'].concat(
      Array.from({ length: 20 }, () => String(next() % 100_000).padStart(5, '0')),
    );
    // Before the load ends every digit query scans.
    const scanned = queries.map((digits) => index.search({ kind: 'digits', digits }, 1000).pks);
    await index.endBulkLoad();
    const viaGrams = queries.map((digits) => index.search({ kind: 'digits', digits }, 1000).pks);
    expect(viaGrams).toEqual(scanned);
    expect(scanned[0]!.length).toBe(400);

    // A number that changes after the load: found by its new digits only.
    index.upsert(
      { pk: 5, phoneE164: '+4799887766', nameWords: ['x'] },
      { pk: 5, phoneE164: phones.get(5)!, nameWords: ['x'] },
    );
    const without5 = scanned[0]!.filter((pk) => pk !== 5);
    for (const digits of ['99887766', '9988']) expect(index.search({ kind: 'digits', digits }, 10).pks).toEqual([5]);
    expect(index.search({ kind: 'digits', digits: '9665' }, 1000).pks).toEqual(without5);
    expect(index.search({ kind: 'digits', digits: '966' }, 1000).pks).toEqual(without5);
    expect(index.search({ kind: 'phone', e164: phones.get(5)!, digits: phones.get(5)!.slice(1) }, 10).pks).toEqual([]);
  });

  test('an exact phone is found by its current number only; two customers sharing one are both listed, in pk order', async () => {
    const index = new SlimSearchIndex();
    index.beginBulkLoad();
    for (let pk = 1; pk <= 50; pk++) index.upsert({ pk, phoneE164: `+96655${1_000_000 + pk}`, nameWords: ['x'] });
    await index.endBulkLoad();
    const phone = (e164: string) => index.search({ kind: 'phone', e164, digits: e164.slice(1) }, 10);
    expect(phone('+966551000007')).toEqual({ pks: [7], capped: false, matched: 'exact_phone' });
    expect(index.findPhone('+966551000007')).toBe(7);
    // The number moves to another customer (a stale cache): both hold it until the first is refreshed.
    index.upsert({ pk: 60, phoneE164: '+966551000007', nameWords: ['y'] });
    expect(phone('+966551000007').pks).toEqual([7, 60]);
    index.upsert(
      { pk: 7, phoneE164: '+966559999999', nameWords: ['x'] },
      { pk: 7, phoneE164: '+966551000007', nameWords: ['x'] },
    );
    expect(phone('+966551000007').pks).toEqual([60]);
    expect(phone('+966559999999').pks).toEqual([7]);
    // A number that only contains another is not it: the digits search answers instead.
    expect(phone('+9665510000').matched).toBe('digits');
    expect(index.findPhone('+9665510000')).toBeUndefined();
    // Numbers too short for a gram are found by scanning.
    index.upsert({ pk: 61, phoneE164: '+123', nameWords: ['z'] });
    expect(index.findPhone('+123')).toBe(61);
  });

  test('numbers added one by one have their grams packed again as they grow, and answers stay complete meanwhile', async () => {
    let pauses = 0;
    const index = new SlimSearchIndex(async () => {
      pauses += 1;
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    const phoneOf = (pk: number) => `+9665${String((pk * 48_271_547) % 100_000_000).padStart(8, '0')}`;
    const naive = (digits: string, upTo: number) =>
      Array.from({ length: upTo }, (_, i) => i + 1).filter((pk) => phoneOf(pk).slice(1).includes(digits));
    // A slow till: every reading of the clock is a millisecond later, so the packing pauses
    // at its first check (it pauses once a slice has run a few milliseconds).
    let now = 0;
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => (now += 1));
    // As a fill adds them: one by one, with no bulk load.
    for (let pk = 1; pk <= 60_000; pk++) index.upsert({ pk, phoneE164: phoneOf(pk), nameWords: ['x'] });
    clock.mockRestore();
    // Past the limit a packing has begun, and waits for its first pause to end; answers
    // meanwhile still cover every number.
    let packed = false;
    void index.settled().then(() => (packed = true));
    expect(pauses).toBe(1);
    for (const digits of ['4827', '12345', phoneOf(59_999).slice(1)]) {
      expect(index.search({ kind: 'digits', digits }, 100_000).pks).toEqual(naive(digits, 60_000));
    }
    expect(index.findPhone(phoneOf(59_999))).toBe(59_999);
    expect(packed).toBe(false);
    for (let pk = 60_001; pk <= 60_100; pk++) index.upsert({ pk, phoneE164: phoneOf(pk), nameWords: ['x'] });
    const unpacked = index.unpackedGrams;
    await index.settled();
    expect(pauses).toBeGreaterThan(0);
    // Packed: only what came after the packing began (some thousands of numbers) waits in per-gram arrays.
    expect(index.unpackedGrams).toBeLessThan(unpacked / 5);
    for (const digits of ['4827', '0000', phoneOf(60_050).slice(1)]) {
      expect(index.search({ kind: 'digits', digits }, 100_000).pks).toEqual(naive(digits, 60_100));
    }
    expect(index.findPhone(phoneOf(60_050))).toBe(60_050);
  });

  test('removing a customer drops them from every query kind', () => {
    const index = new SlimSearchIndex();
    const entry = { pk: 7, phoneE164: '+966501234567', nameWords: ['layla', 'haddad'] };
    index.upsert(entry);
    index.remove(entry);
    expect(index.search(parseQuery('layla', 'SA'), 10).pks).toEqual([]);
    expect(index.search(parseQuery('+966501234567', 'SA'), 10).pks).toEqual([]);
    expect(index.search(parseQuery('5012345', 'SA'), 10).pks).toEqual([]);
    // Too few digits for a gram: the scan passes over the entry the customer left behind.
    expect(index.search({ kind: 'digits', digits: '50' }, 10).pks).toEqual([]);
    expect(index.size).toBe(0);
    // Back with the same number: found once, by every path, not also through the stale entry.
    index.upsert(entry);
    expect(index.findPhone('+966501234567')).toBe(7);
    expect(index.search({ kind: 'digits', digits: '50' }, 10).pks).toEqual([7]);
    expect(index.search(parseQuery('5012345', 'SA'), 10).pks).toEqual([7]);
    expect(index.search(parseQuery('haddad', 'SA'), 10).pks).toEqual([7]);
    expect(index.size).toBe(1);
  });

  test('reads the cashier’s text as phone, digits or words', () => {
    expect(parseQuery(' 050 123 4567 ', 'SA')).toEqual({ kind: 'phone', e164: '+966501234567', digits: '0501234567' });
    expect(parseQuery('4567', 'SA')).toEqual({ kind: 'digits', digits: '4567' });
    expect(parseQuery('Søren Ø', 'DK')).toEqual({ kind: 'name', terms: ['soren', 'o'] });
    expect(parseQuery('   ', 'DK')).toEqual({ kind: 'all' });
  });
});
