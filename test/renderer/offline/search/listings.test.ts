import fc from 'fast-check';
import { afterEach, describe, expect, test } from 'vitest';
import type { Customer, Program } from '../../../../common/contract';
import { CustomerCache, prepareCustomers } from '../../../../renderer/offline/cache/customer-cache';
import {
  customerTables,
  deleteCustomerRow,
  putCustomerRows,
} from '../../../../renderer/offline/customers/customer-blocks';
import { openOfflineDb } from '../../../../renderer/offline/db/open';
import type { CachedCustomer, ListingChunk, OfflineDb } from '../../../../renderer/offline/db/schema';
import { ListingMemory } from '../../../../renderer/offline/search/listing-memory';
import {
  LISTING_SLOTS,
  ListingChanges,
  listingChunkOf,
  listedPks,
  listingOf,
  readListing,
  type CustomerListing,
} from '../../../../renderer/offline/search/listings';
import { Outbox } from '../../../../renderer/offline/outbox/outbox';
import { phoneDigestOf } from '../../../../renderer/offline/search/phone-digests';
import { StoredIds } from '../../../../renderer/offline/customers/stored-ids';
import { allCustomers, allListings } from '../../../support/offline-rows';
import { personName } from '../support/arbitraries';
import { customer, dropDb, freshDb, withDataKey } from '../support/fixtures';

const cleanup: OfflineDb[] = [];
afterEach(async () => {
  for (const db of cleanup.splice(0)) await dropDb(db);
});

function openDb(): OfflineDb {
  const db = freshDb();
  cleanup.push(db);
  return db;
}

const COFFEE: Program = { id: 'prog-1', name: 'Coffee Club', type: 'point' };
const BAKERY: Program = { id: 'prog-2', name: 'Bakery', type: 'point' };

function listing(pk: number, extra: Partial<CustomerListing> = {}): CustomerListing {
  return {
    pk,
    id: `c-${pk}`,
    name: `Customer ${pk}`,
    phone: `+966 55 ${1_000_000 + pk}`,
    cards: [{ program: COFFEE, points: pk }],
    fetchedAt: '2026-03-01T09:00:00.000Z',
    localOnly: false,
    ...extra,
  };
}

/** Applies changes to the stored chunks as a write would, returning the chunks after. */
function applied(chunks: Map<number, ListingChunk>, changes: ListingChanges): Map<number, ListingChunk> {
  const after = new Map(chunks);
  const { toPut, toDelete } = changes.apply(changes.chunkIds.map((id) => chunks.get(id)));
  for (const chunk of toPut) after.set(chunk.chunk, chunk);
  for (const id of toDelete) after.delete(id);
  return after;
}

const read = (chunks: Map<number, ListingChunk>, pk: number) => {
  const chunk = chunks.get(listingChunkOf(pk));
  return chunk ? readListing(chunk, pk) : undefined;
};

describe('listing chunks', () => {
  test('every listing reads back as written, whatever the name, across chunk boundaries', () => {
    const awkward = [
      'Layla "the \\ best" Haddad',
      'ليلى حدّاد',
      'Line\nbreak\tand tab',
      '👨‍👩‍👧 Family',
      '',
      'Søren Østergaard',
    ];
    const S = LISTING_SLOTS;
    const listings = [S - 1, S, S + 1, 2 * S - 1, 1, 8 * S - 1].map((pk, i) =>
      listing(pk, {
        name: awkward[i]!,
        cards:
          i % 2 === 0
            ? []
            : [
                { program: COFFEE, points: 12.5 },
                { program: BAKERY, points: 0 },
              ],
        localOnly: i === 2,
        fetchedAt: `2026-0${i + 1}-01T09:00:00.123Z`,
      }),
    );
    const chunks = applied(new Map(), new ListingChanges(listings));
    expect([...chunks.keys()].sort((a, b) => a - b)).toEqual([0, 1, 7]);
    for (const expected of listings) expect(read(chunks, expected.pk)).toEqual(expected);
    expect(read(chunks, 2)).toBeUndefined();
    expect(listedPks(chunks.get(0)!)).toEqual([1, S - 1]);
    expect(listedPks(chunks.get(1)!)).toEqual([S, S + 1, 2 * S - 1]);
  });

  test('a change rewrites only its slot; a delete empties it; an emptied chunk is deleted', () => {
    const other = LISTING_SLOTS + 44;
    let chunks = applied(new Map(), new ListingChanges([listing(1), listing(2), listing(3), listing(other)]));
    chunks = applied(
      chunks,
      new ListingChanges([listing(2, { name: 'Renamed', cards: [{ program: BAKERY, points: 9 }] })], [3]),
    );
    expect(read(chunks, 1)).toEqual(listing(1));
    expect(read(chunks, 2)).toEqual(listing(2, { name: 'Renamed', cards: [{ program: BAKERY, points: 9 }] }));
    expect(read(chunks, 3)).toBeUndefined();
    // Each chunk names the programmes its cards need, once each.
    expect(chunks.get(0)!.programmes).toEqual([COFFEE, BAKERY]);
    const { toPut, toDelete } = new ListingChanges([], [other]).apply([chunks.get(1)]);
    expect(toPut).toEqual([]);
    expect(toDelete).toEqual([1]);
  });

  test('a programme renamed by the service shows its new name on every card of the chunk', () => {
    let chunks = applied(new Map(), new ListingChanges([listing(1), listing(2)]));
    const renamed = { ...COFFEE, name: 'Coffee Club Gold' };
    chunks = applied(chunks, new ListingChanges([listing(2, { cards: [{ program: renamed, points: 2 }] })]));
    expect(read(chunks, 1)!.cards[0]!.program).toEqual(renamed);
    expect(chunks.get(0)!.programmes).toEqual([renamed]);
  });

  test("a full chunk of long Arabic names with two cards each stays well under Chromium's 64 KB blob threshold", () => {
    const long = 'عبد الرحمن بن محمد بن عبد العزيز آل سعود الفارسي';
    const chunks = applied(
      new Map(),
      new ListingChanges(
        Array.from({ length: LISTING_SLOTS }, (_, slot) =>
          listing(slot, {
            name: `${long} ${slot}`,
            cards: [
              { program: COFFEE, points: 123_456 },
              { program: BAKERY, points: 7 },
            ],
          }),
        ),
      ),
    );
    const [chunk] = [...chunks.values()];
    expect(chunk!.lines.byteLength + chunk!.offsets.byteLength).toBeLessThan(48 * 1024);
  });
});

describe('listings in memory', () => {
  test('a committed write shows at once; one rolled back never does', async () => {
    const db = openDb();
    const memory = ListingMemory.open(db);
    await memory.load(db);
    const cache = new CustomerCache(db, { defaultCountry: () => 'SA' });
    const [layla] = await cache.putCustomers([customer('c-layla', 'Layla Haddad', '+966 50 123 4567')]);
    expect(memory.get(layla!.pk!)?.name).toBe('Layla Haddad');
    await expect(
      db.transaction('rw', customerTables(db), async () => {
        await putCustomerRows(db, [{ ...layla!, customer: { ...layla!.customer, name: 'Never Stored' } }], [layla!]);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(memory.get(layla!.pk!)?.name).toBe('Layla Haddad');
    expect((await allListings(db)).map((row) => row.name)).toEqual(['Layla Haddad']);
  });

  test('answers a page only once loaded, and only when it holds every customer of it', async () => {
    const db = openDb();
    const cache = new CustomerCache(db, { defaultCountry: () => 'SA' });
    const stored = await cache.putCustomers([
      customer('c-1', 'One', '+966 55 100 0001'),
      customer('c-2', 'Two', '+966 55 100 0002'),
    ]);
    const memory = ListingMemory.open(db);
    expect(memory.getAll([stored[0]!.pk!])).toBeNull();
    await memory.load(db, { pageSize: 1 });
    expect(memory.getAll(stored.map((row) => row.pk!))!.map((row) => row.name)).toEqual(['One', 'Two']);
    expect(memory.getAll([stored[0]!.pk!, 999])).toBeNull();
    expect(memory.bytes).toBeGreaterThan(0);
  });

  test('a chunk a commit set while the load ran is kept as the commit left it, not as the load read it', async () => {
    const db = openDb();
    const cache = new CustomerCache(db, { defaultCountry: () => 'SA' });
    // Ten customers, six in chunk 0 and four in chunk 1.
    const first = LISTING_SLOTS - 6;
    await db.meta.put({ key: 'nextCustomerPk', value: first });
    const people = await cache.putCustomers(
      Array.from({ length: 10 }, (_, i) => customer(`c-${i}`, `Person ${i}`, `+966 55 100 00${10 + i}`)),
    );
    const inChunk1 = people[6]!;
    expect(inChunk1.pk).toBe(LISTING_SLOTS);
    const memory = ListingMemory.open(db);
    const newer = new ListingChanges([{ ...listingOf(inChunk1), name: 'Newer than the load' }]);
    // After the load's first read (chunk 0) and before its second (chunk 1), a commit hands memory chunk 1.
    let turns = 0;
    await memory.load(db, {
      pageSize: 1,
      yieldToPage: async () => {
        // The first turn comes before the first read.
        if (turns++ === 1) memory.apply(newer.apply([await db.listingChunks.get(1)]));
      },
    });
    expect(turns).toBeGreaterThan(0);
    expect(memory.get(LISTING_SLOTS)?.name).toBe('Newer than the load');
    expect(memory.get(first)?.name).toBe('Person 0');
    expect(memory.get(first + 9)?.name).toBe('Person 9');
  });

  test('a till that starts loads its index first, its listings after and its card serials last, so searches go through the index sooner', async () => {
    const stored = openDb();
    await new CustomerCache(stored, { defaultCountry: () => 'SA' }).putCustomers(
      Array.from({ length: 300 }, (_, i) => customer(`c-${i}`, `Person ${i}`, `+966 55 ${3_000_000 + i}`)),
    );
    stored.close();
    // The till after a restart: a new connection, which counts its reads of the listings.
    const db = withDataKey(openOfflineDb(stored.name));
    cleanup.push(db);
    let listingReads = 0;
    db.use({
      stack: 'dbcore',
      name: 'count listing reads',
      create: (core) => ({
        ...core,
        table: (name) => {
          const table = core.table(name);
          if (name !== 'listingChunks') return table;
          return {
            ...table,
            query: (request) => {
              listingReads += 1;
              return table.query(request);
            },
          };
        },
      }),
    });
    const cache = new CustomerCache(db, { defaultCountry: () => 'SA' });
    const whenIndexDone: { listingReads: number; listingsReady: boolean }[] = [];
    const whenListingsLoaded: { listingsReady: boolean; serialsReady: boolean }[] = [];
    await cache.loadIndex({
      yieldToPage: async () => undefined,
      onProgress: (progress) => {
        if (progress.done) whenIndexDone.push({ listingReads, listingsReady: cache.listings.ready });
      },
      onListingsLoaded: () =>
        whenListingsLoaded.push({ listingsReady: cache.listings.ready, serialsReady: cache.serials.ready }),
    });
    expect(whenIndexDone).toEqual([{ listingReads: 0, listingsReady: false }]);
    // Told once the listings are in, before the card serials (which load last) are.
    expect(whenListingsLoaded).toEqual([{ listingsReady: true, serialsReady: false }]);
    expect(cache.serials.ready).toBe(true);
    expect(listingReads).toBeGreaterThan(0);
    expect(cache.listings.ready).toBe(true);
    const found = await cache.search('Person 299');
    expect(found.customers.map((c) => c.name)).toEqual(['Person 299']);
  });

  test('closing the database lets the memory go', async () => {
    const db = openDb();
    const cache = new CustomerCache(db, { defaultCountry: () => 'SA' });
    await cache.loadIndex({ yieldToPage: async () => undefined });
    await cache.putCustomers([customer('c-1', 'One', '+966 55 100 0001')]);
    expect(cache.listings.ready).toBe(true);
    db.close();
    expect(cache.listings.ready).toBe(false);
    expect(cache.listings.bytes).toBe(0);
  });
});

/** The operations a till makes on its customers, each in its own way through the write paths. */
type Operation =
  | { kind: 'page'; people: { who: number; name: string; points: number }[] }
  | { kind: 'fill'; count: number; name: string }
  | { kind: 'parted'; count: number; name: string }
  | { kind: 'redeem'; who: number; points: number }
  | { kind: 'register'; name: string }
  | { kind: 'delete'; who: number }
  | { kind: 'open'; who: number; name: string };

function withPoints(person: Customer, points: number): Customer {
  return { ...person, cards: person.cards.map((card) => ({ ...card, points })) };
}

const operation: fc.Arbitrary<Operation> = fc.oneof(
  fc.record({
    kind: fc.constant('page' as const),
    people: fc.array(fc.record({ who: fc.nat({ max: 60 }), name: personName, points: fc.nat({ max: 10_000 }) }), {
      minLength: 1,
      maxLength: 8,
    }),
  }),
  fc.record({ kind: fc.constant('fill' as const), count: fc.integer({ min: 1, max: 300 }), name: personName }),
  fc.record({ kind: fc.constant('parted' as const), count: fc.integer({ min: 1, max: 300 }), name: personName }),
  fc.record({ kind: fc.constant('redeem' as const), who: fc.nat({ max: 60 }), points: fc.nat({ max: 500 }) }),
  fc.record({ kind: fc.constant('register' as const), name: personName }),
  fc.record({ kind: fc.constant('delete' as const), who: fc.nat({ max: 60 }) }),
  fc.record({ kind: fc.constant('open' as const), who: fc.nat({ max: 60 }), name: personName }),
);

// One writer, one event (db/customer-feed.ts): every copy in memory follows what committed.
test('whatever the till writes and however, the listings, the search index and the stored ids in memory agree with what is stored, and the phone digests with the search chunks', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 10 }), async (operations) => {
      const db = freshDb();
      try {
        const cache = new CustomerCache(db, {
          defaultCountry: () => 'SA',
          now: () => new Date('2026-03-01T09:00:00Z'),
        });
        await cache.loadIndex({ yieldToPage: async () => undefined });
        // Loaded before any write, it follows every one of them from then on.
        const following = await StoredIds.load(db);
        const removed: CachedCustomer[] = [];
        const outbox = new Outbox(db, cache, { now: () => new Date('2026-03-01T09:00:00Z') });
        let serial = 0;
        const phoneOf = (n: number) => `+966 55 ${2_000_000 + n}`;
        for (const op of operations) {
          switch (op.kind) {
            case 'page':
              await cache.putCustomers(
                op.people.map((p) => withPoints(customer(`c-${p.who}`, p.name, phoneOf(p.who)), p.points)),
                undefined,
                undefined,
                { onlyChanged: true },
              );
              break;
            case 'fill':
            case 'parted': {
              const people = Array.from({ length: op.count }, () => {
                serial += 1;
                return customer(`n-${serial}`, `${op.name} ${serial}`, phoneOf(1_000 + serial));
              });
              const ids = await StoredIds.load(db);
              try {
                if (op.kind === 'fill') {
                  await cache.putCustomers(people, undefined, undefined, { onlyChanged: true, expectNew: ids });
                } else {
                  // A parted write goes from what the last fill write left; then the rest as usual.
                  const stored = await cache.putNewCustomersWhile(
                    prepareCustomers(people),
                    '2026-03-01T09:00:00.000Z',
                    {
                      storedIds: ids,
                      deadline: Number.POSITIVE_INFINITY,
                      alongside: { tables: [], write: async () => undefined },
                    },
                  );
                  await cache.putCustomers(people.slice(stored ?? 0), undefined, undefined, { expectNew: ids });
                }
              } finally {
                ids.close();
              }
              break;
            }
            case 'redeem': {
              const owner = (await cache.getCustomer(`c-${op.who}`))?.record;
              if (!owner) break;
              await cache.applyRedemption(
                {
                  reward: {
                    code: `RW-${op.who}`,
                    status: 'redeemed',
                    name: 'Coffee',
                    description: null,
                    type: 'product',
                    allowed_products: { quantity: 1, products_list: [] },
                    customer_id: owner.id,
                    earned_at: '2026-01-01T10:00:00+00:00',
                    expires_at: null,
                    redeemed_at: '2026-03-01T09:00:00+00:00',
                  },
                  card: { ...owner.customer.cards[0]!, points: op.points },
                },
                owner.phoneE164,
              );
              break;
            }
            case 'register':
              serial += 1;
              await outbox.queueRegistration(
                { name: op.name.trim() || 'Walk-in', phone: phoneOf(5_000 + serial) },
                { defaultCountry: 'SA' },
              );
              break;
            case 'delete': {
              const row = (await cache.getCustomer(`c-${op.who}`))?.record;
              if (!row) break;
              await db.transaction('rw', customerTables(db), async () => deleteCustomerRow(db, row.pk!));
              removed.push(row);
              break;
            }
            case 'open':
              await cache.putCustomerWithRewards({ ...customer(`c-${op.who}`, op.name, phoneOf(op.who)), rewards: [] });
              break;
          }
        }
        const records = await allCustomers(db);
        const stored = await allListings(db);
        expect(stored).toEqual(records.map(listingOf));
        // The search chunks' phone digests too, which the same writes keep (phone-digests.ts).
        expect(await db.phoneDigests.toArray()).toEqual(
          (await db.searchChunks.toArray()).map((chunk) => phoneDigestOf(db, chunk)),
        );
        const counter = (await db.meta.get('nextCustomerPk'))?.value as number | undefined;
        const inMemory = Array.from({ length: counter ?? 1 }, (_, pk) => cache.listings.get(pk)).filter(
          (row): row is CustomerListing => row !== undefined,
        );
        expect(inMemory).toEqual(stored);
        // And a search shows them so: every stored customer is found by phone, from memory.
        for (const row of records.slice(0, 5)) {
          expect((await cache.search(row.phoneE164)).customers).toContainEqual(listingOf(row));
        }
        // The search index holds exactly the stored customers, each under its phone.
        expect(cache.index.size).toBe(records.length);
        for (const row of records) expect(cache.index.findPhone(row.phoneE164)).toBe(row.pk);
        for (const row of removed) {
          if (!records.some((kept) => kept.phoneE164 === row.phoneE164))
            expect(cache.index.findPhone(row.phoneE164)).toBeUndefined();
        }
        // The stored ids may hold more (an id noted before a write that rolled back), never fewer.
        for (const row of records) expect(following.mightHoldAny([row.id])).toBe(true);
        following.close();
      } finally {
        await dropDb(db);
      }
    }),
    { numRuns: 40 },
  );
  // Forty databases, each sealed record through Web Crypto: seconds on a busy 2-core machine.
}, 30_000);
