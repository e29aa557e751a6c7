import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { CustomerCache, type CacheSearchResult } from '../../../../renderer/offline/cache/customer-cache';
import { nameWordsOf } from '../../../../common/fold';
import { parseQuery } from '../../../../renderer/offline/search/search-index';
import { nameWord, personName } from '../support/arbitraries';
import { customer, dropDb, freshDb } from '../support/fixtures';

const COUNTRY = 'SA';

// Numbers as the service returns them (grouped international), from a few countries' mobile ranges.
const digitsN = (n: number) => fc.stringMatching(new RegExp(`^\\d{${n}}$`));
const phone = fc.oneof(
  digitsN(7).map((d) => `+966 5${d[0]} ${d.slice(1, 4)} ${d.slice(4)}0`),
  digitsN(6).map((d) => `+44 7911 ${d}`),
  digitsN(7).map((d) => `+971 50 ${d.slice(0, 3)} ${d.slice(3)}`),
  digitsN(7).map((d) => `+7 912 ${d.slice(0, 3)} ${d.slice(3, 5)} ${d.slice(5)}`),
  digitsN(8).map((d) => `+81 90 ${d.slice(0, 4)} ${d.slice(4)}`),
);
const e164Of = (grouped: string) => `+${grouped.replace(/\D/g, '')}`;

interface Person {
  id: string;
  name: string;
  phone: string;
}

/** Customers stored in two writes: the second renames some and gives some a new number. */
const population = fc
  .uniqueArray(phone, { minLength: 1, maxLength: 40, selector: e164Of })
  .chain((phones) => {
    const first = Math.max(1, Math.ceil(phones.length * 0.75));
    return fc.record({
      first: fc.tuple(
        ...phones.slice(0, first).map((p, i) => personName.map((name): Person => ({ id: `c-${i}`, name, phone: p }))),
      ),
      changes: fc.array(
        fc.record({ who: fc.nat({ max: first - 1 }), name: fc.option(personName), newPhone: fc.boolean() }),
        { maxLength: 6 },
      ),
      spare: fc.constant(phones.slice(first)),
    });
  })
  .map(({ first, changes, spare }) => {
    const current = new Map(first.map((p) => [p.id, { ...p }]));
    const second: Person[] = [];
    const unused = [...spare];
    for (const change of changes) {
      const person = { ...current.get(`c-${change.who}`)! };
      if (change.name !== null) person.name = change.name;
      if (change.newPhone && unused.length > 0) person.phone = unused.pop()!;
      current.set(person.id, person);
      second.push(person);
    }
    return { first: [...first], second, final: [...current.values()] };
  });

/** What a cashier might type about this population: names, parts of names, numbers in any form. */
function queriesFor(people: Person[]): fc.Arbitrary<string[]> {
  const someone = fc.constantFrom(...people);
  const graphemes = (text: string) => [...new Intl.Segmenter().segment(text)].map((s) => s.segment);
  const query = fc.oneof(
    someone.map((p) => p.name),
    fc.tuple(someone, fc.nat(), fc.nat({ max: 8 })).map(([p, w, n]) => {
      const words = p.name.split(/[\s\-.,]+/).filter(Boolean);
      return graphemes(words[w % words.length] ?? '')
        .slice(0, n + 1)
        .join('');
    }),
    fc.tuple(someone, fc.boolean()).map(([p, upper]) => (upper ? p.name.toUpperCase() : p.name.toLowerCase())),
    fc.tuple(someone, someone).map(([a, b]) => `${a.name.split(' ')[0]} ${b.name.split(' ').at(-1)}`),
    nameWord,
    personName,
    someone.map((p) => p.phone),
    someone.map((p) => e164Of(p.phone)),
    someone.map((p) => `00${e164Of(p.phone).slice(1)}`),
    someone.map((p) => (p.phone.startsWith('+966') ? `0${e164Of(p.phone).slice(4)}` : p.phone.replace(/^\+\d+ /, '0'))),
    fc.tuple(someone, fc.nat(), fc.integer({ min: 1, max: 9 })).map(([p, at, n]) => {
      const d = e164Of(p.phone).slice(1);
      const from = at % d.length;
      return d.slice(from, from + n);
    }),
    fc.tuple(someone, fc.nat()).map(([p, at]) => {
      const d = e164Of(p.phone).slice(1);
      return `${d.slice(at % d.length, (at % d.length) + 3)} ${d.slice((at % d.length) + 3, (at % d.length) + 6)}`;
    }),
    digitsN(1).chain((d) => fc.constantFrom(d, `${d}${d}`)),
    fc.stringMatching(/^[0-9 +()-]{1,14}$/),
    fc.string({ unit: 'grapheme', maxLength: 10 }),
    fc.constant(''),
  );
  return fc.array(query, { minLength: 1, maxLength: 12 });
}

/** The reference: read every customer and keep those that match, with the app's own folding. */
function naiveSearch(people: Person[], text: string): string[] {
  const query = parseQuery(text, COUNTRY);
  const digitsMatch = (digits: string) => people.filter((p) => e164Of(p.phone).slice(1).includes(digits));
  let found: Person[];
  switch (query.kind) {
    case 'all':
      found = people;
      break;
    case 'phone': {
      const exact = people.filter((p) => e164Of(p.phone) === query.e164);
      found = exact.length > 0 ? exact : digitsMatch(query.digits);
      break;
    }
    case 'digits':
      found = digitsMatch(query.digits);
      break;
    case 'name':
      found = people.filter((p) => {
        const words = nameWordsOf(p.name);
        return query.terms.every((term) => words.some((word) => word.startsWith(term)));
      });
  }
  return found.map((p) => p.id).sort();
}

const ids = (result: CacheSearchResult) => result.customers.map((row) => row.id).sort();
const noYield = { yieldToPage: async () => undefined };

describe('offline search, for random customers and queries', () => {
  test('finds exactly what a scan of every customer finds, through the index and the fallback', async () => {
    await fc.assert(
      fc.asyncProperty(
        population.chain((pop) => fc.tuple(fc.constant(pop), queriesFor(pop.final))),
        async ([pop, queries]) => {
          const db = freshDb();
          try {
            const options = { defaultCountry: () => COUNTRY };
            // Written while its index is live (upserts with the previous entry) ...
            const live = new CustomerCache(db, options);
            await live.loadIndex(noYield);
            await live.putCustomers(pop.first.map((p) => customer(p.id, p.name, p.phone)));
            await live.putCustomers(pop.second.map((p) => customer(p.id, p.name, p.phone)));
            // ... then read by a till whose index is still loading, and by one that loaded it from IndexedDB.
            const fallback = new CustomerCache(db, options);
            const loaded = new CustomerCache(db, options);
            await loaded.loadIndex(noYield);

            for (const text of queries) {
              const expected = naiveSearch(pop.final, text);
              for (const cache of [live, loaded]) {
                const result = await cache.search(text, 1, 1_000);
                expect({ text, via: result.via, ids: ids(result) }).toEqual({ text, via: 'index', ids: expected });
                expect(result.total).toBe(expected.length);
              }
              const partial = await fallback.search(text, 1, 1_000);
              expect(partial.via).toBe('fallback');
              if (partial.complete) expect({ text, ids: ids(partial) }).toEqual({ text, ids: expected });
              else expect(ids(partial).every((id) => expected.includes(id))).toBe(true);
            }
          } finally {
            await dropDb(db);
          }
        },
      ),
      { numRuns: 100 },
    );
  }, 120_000);
});
