// The tolerant reader (electron/service/response-schemas.ts, applied in electron/service/loyalty-api.ts) checked
// against generated answers: docs/service-reading.md is the specification.
//
// Properties:
// - a spec-faithful customer (with cards, and rewards on single retrieval) is read, and so is
//   every spec-legal variation of it: extra fields anywhere, integers as numeric strings,
//   birthdays as date-times, timestamps with microseconds or another offset for the same
//   instant, email null. What the till relies on reads the same as from the faithful record,
//   and no field the spec does not name is passed on;
// - in a page, an unreadable record never costs the others: `readEach` keeps every readable
//   customer in order, counts the unreadable ones and keeps only their loggable ids;
// - the same through the real client over HTTP: `searchCustomers` uses the page and its meta,
//   counts what it left out, and its log names the skipped ids and nothing else about them.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Customer, PageMeta } from '../../../common/contract';
import { createLoyaltyApi } from '../../../electron/service/loyalty-api';
import {
  customerSchema,
  customerWithRewardsSchema,
  pageMetaSchema,
  readEach,
  RESPONSE_LIMITS,
  rewardSchema,
} from '../../../electron/service/response-schemas';
import { createCapturedLog } from '../../support/captured-log';
import { startStubServer, type StubServer } from '../../support/stub-servers';

// ── The records as the sandbox sends them (loyalty-api.md, sandbox/model.ts) ──

interface WireProgram {
  id: string;
  name: string;
  type: string;
}
interface WireCard {
  id: string;
  serial_number: string;
  status: string;
  program: WireProgram;
  visits: number;
  points: number;
  spent: number;
}
interface WireReward {
  code: string;
  status: string;
  name: string;
  description: string | null;
  type: string;
  /** Not in the spec: the sandbox sends it on points-type rewards. */
  price?: number;
  allowed_products: { quantity: number; products_list: string[] };
  customer_id: string;
  earned_at: string;
  expires_at: string | null;
  redeemed_at: string | null;
}
interface WireCustomer {
  id: string;
  name: string;
  phone: string;
  email: string;
  birthday: string | null;
  status: string;
  cards: WireCard[];
  created_at: string;
  last_visit_at: string | null;
  /** On single-customer retrieval only. */
  rewards?: WireReward[];
}
type Json = Record<string, unknown>;

/** Offsets in minutes, the odd ones included (India +05:30, Nepal +05:45, Newfoundland -03:30). */
const OFFSETS = [-600, -300, -210, 0, 60, 180, 240, 330, 345, 540, 840];

interface TimeForm {
  offsetMinutes: number;
  /** Digits of the seconds' fraction: none, milliseconds or microseconds. */
  digits: 0 | 3 | 6;
  /** `Z` rather than `+00:00` at offset zero. */
  zulu: boolean;
}

function offsetText(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** `instant` written as ISO 8601 at the given offset: the same instant whatever the form. */
function writeInstant(instant: number, form: TimeForm): string {
  const local = new Date(instant + form.offsetMinutes * 60_000).toISOString(); // YYYY-MM-DDTHH:MM:SS.mmmZ
  const millis = local.slice(20, 23);
  const digits = millis !== '000' ? Math.max(form.digits, 3) : form.digits;
  const fraction = digits === 0 ? '' : `.${`${millis}000`.slice(0, digits)}`;
  const zone = form.offsetMinutes === 0 && form.zulu ? 'Z' : offsetText(form.offsetMinutes);
  return `${local.slice(0, 19)}${fraction}${zone}`;
}

const instant = fc
  .integer({ min: Date.UTC(2000, 0, 1) / 1000, max: Date.UTC(2099, 0, 1) / 1000 })
  .map((seconds) => seconds * 1000);
/** As the spec asks: ISO 8601 to the second with a UTC offset. */
const faithfulTimestamp = fc
  .tuple(instant, fc.constantFrom(...OFFSETS))
  .map(([at, offsetMinutes]) => writeInstant(at, { offsetMinutes, digits: 0, zulu: false }));

const FIRST = ['Layla', 'Omar', 'Nour', 'Fatima', 'Yusuf', 'Amira', 'Karim', 'Mariam', 'Hassan', 'ليلى', 'عمر'];
const LAST = ['Haddad', 'Nasser', 'Rahman', 'Khalil', 'Saleh', 'Mansour', 'الحربي', 'العتيبي'];
const personName = fc.tuple(fc.constantFrom(...FIRST), fc.constantFrom(...LAST)).map(([a, b]) => `${a} ${b}`);
const phone = fc
  .tuple(
    fc.constantFrom('966', '971', '20', '44'),
    fc.stringMatching(/^[1-9]\d$/),
    fc.stringMatching(/^\d{3}$/),
    fc.stringMatching(/^\d{4}$/),
  )
  .map(([cc, a, b, c]) => `+${cc} ${a} ${b} ${c}`);
const birthday = fc
  .date({ noInvalidDate: true, min: new Date('1940-01-01T00:00:00Z'), max: new Date('2012-12-31T00:00:00Z') })
  .map((date) => date.toISOString().slice(0, 10));

const program: fc.Arbitrary<WireProgram> = fc.record({
  id: fc.uuid(),
  name: fc.constantFrom('Coffee Club', 'Bakery Points', 'نادي القهوة'),
  type: fc.constant('point'),
});

const card: fc.Arbitrary<WireCard> = fc.record({
  id: fc.uuid(),
  serial_number: fc.stringMatching(/^CC-\d{4,8}$/),
  status: fc.constant('active'),
  program,
  visits: fc.nat({ max: 10_000 }),
  points: fc.nat({ max: 1_000_000 }),
  spent: fc.nat({ max: 1_000_000 }),
});

function reward(customerId: string): fc.Arbitrary<WireReward> {
  return fc
    .record({
      code: fc.stringMatching(/^RW-[A-Z0-9]{4,12}$/),
      status: fc.constantFrom('available', 'redeemed', 'expired'),
      name: fc.constantFrom('Free coffee', 'Croissant', 'قهوة مجانية'),
      description: fc.option(fc.constantFrom('Any size', 'One pastry of your choice'), { nil: null }),
      price: fc.option(fc.nat({ max: 5000 }), { nil: undefined }),
      quantity: fc.integer({ min: 1, max: 5 }),
      products_list: fc.array(fc.uuid(), { maxLength: 3 }),
      earned_at: faithfulTimestamp,
      expires_at: fc.option(faithfulTimestamp, { nil: null }),
      redeemed_at: faithfulTimestamp,
    })
    .map(({ price, quantity, products_list, status, redeemed_at, ...rest }) => ({
      code: rest.code,
      status,
      name: rest.name,
      description: rest.description,
      // A points-type reward carries its price, as the sandbox sends it.
      type: price === undefined ? 'product' : 'points',
      ...(price === undefined ? {} : { price }),
      allowed_products: { quantity, products_list },
      customer_id: customerId,
      earned_at: rest.earned_at,
      expires_at: rest.expires_at,
      redeemed_at: status === 'redeemed' ? redeemed_at : null,
    }));
}

function faithfulCustomer(withRewards: boolean, minCards = 0): fc.Arbitrary<WireCustomer> {
  return fc
    .record({
      id: fc.uuid(),
      name: personName,
      phone,
      email: fc.stringMatching(/^[a-z]{1,8}@example\.com$/),
      birthday: fc.option(birthday, { nil: null }),
      status: fc.constant('active'),
      cards: fc.array(card, { minLength: minCards, maxLength: 3 }),
      created_at: faithfulTimestamp,
      last_visit_at: fc.option(faithfulTimestamp, { nil: null }),
    })
    .chain((customer) =>
      withRewards
        ? fc.array(reward(customer.id), { maxLength: 3 }).map((rewards) => ({ ...customer, rewards }))
        : fc.constant(customer),
    );
}

// ── Spec-legal variations of the same record ──

/** Every field name the reader knows, so an extra field never replaces one. */
const KNOWN_FIELDS = new Set([
  ...['ok', 'data', 'meta', 'message', 'id', 'name', 'phone', 'email', 'birthday', 'status', 'cards'],
  ...['created_at', 'last_visit_at', 'rewards', 'serial_number', 'program', 'type', 'visits', 'points', 'spent'],
  ...['code', 'description', 'allowed_products', 'quantity', 'products_list', 'customer_id', 'earned_at'],
  ...['expires_at', 'redeemed_at', 'price', 'current_page', 'last_page', 'per_page', 'total'],
]);
const extraKey = fc
  .oneof(
    fc.constantFrom('uuid', 'tier', 'tags', 'updated_at', 'deleted_at', 'links', 'from', 'to', 'path', 'barcode'),
    fc.stringMatching(/^[a-z][a-z0-9_]{0,11}$/),
  )
  .filter((key) => !KNOWN_FIELDS.has(key));
const extraValue = fc.jsonValue({ maxDepth: 2 });
/** Fields the spec does not name, with any JSON value. */
const extras = (minKeys = 0): fc.Arbitrary<Json> =>
  fc.dictionary(extraKey, extraValue, { minKeys, maxKeys: 3, noNullPrototype: true });

/** An integer as a number or a numeric string of one. */
const integerForms = (n: number): fc.Arbitrary<number | string> => fc.constantFrom(n, String(n), `${n}.00`, `${n}.0`);
const sameInstant = (timestamp: string): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constant(timestamp),
    fc
      .record({
        offsetMinutes: fc.constantFrom(...OFFSETS),
        digits: fc.constantFrom<TimeForm['digits']>(0, 3, 6),
        zulu: fc.boolean(),
      })
      .map((form) => writeInstant(Date.parse(timestamp), form)),
  );
const sameInstantOrNull = (timestamp: string | null): fc.Arbitrary<string | null> =>
  timestamp === null ? fc.constant(null) : sameInstant(timestamp);
const birthdayForms = (date: string | null): fc.Arbitrary<string | null> =>
  date === null
    ? fc.constant(null)
    : fc.constantFrom(
        date,
        `${date}T00:00:00.000000Z`,
        `${date}T00:00:00Z`,
        `${date}T00:00:00+00:00`,
        `${date}T00:00:00.000000+03:00`,
      );
/** `price` is not in the spec: any value is legal, and one that is not whole points is forgotten. */
const unreadablePrice = fc.constantFrom<unknown>('18.50', 18.5, 'free', { amount: 18.5, currency: 'SAR' }, null, true);

const variedProgram = (p: WireProgram): fc.Arbitrary<Json> => extras().map((x) => ({ ...x, ...p }));

function variedCard(c: WireCard): fc.Arbitrary<Json> {
  return fc
    .record({
      x: extras(),
      program: variedProgram(c.program),
      visits: integerForms(c.visits),
      points: integerForms(c.points),
      spent: integerForms(c.spent),
    })
    .map(({ x, ...varied }) => ({ ...x, ...c, ...varied }));
}

function variedReward(r: WireReward): fc.Arbitrary<Json> {
  return fc
    .record({
      x: extras(),
      allowed_products: fc
        .record({ x: extras(), quantity: integerForms(r.allowed_products.quantity) })
        .map(({ x, quantity }) => ({ ...x, ...r.allowed_products, quantity })),
      earned_at: sameInstant(r.earned_at),
      expires_at: sameInstantOrNull(r.expires_at),
      redeemed_at: sameInstantOrNull(r.redeemed_at),
      price: r.price === undefined ? fc.option(unreadablePrice, { nil: undefined }) : integerForms(r.price),
    })
    .map(({ x, price, ...varied }) => ({ ...x, ...r, ...varied, ...(price === undefined ? {} : { price }) }));
}

function variedCustomer(c: WireCustomer): fc.Arbitrary<Json> {
  return fc
    .record({
      // At least one extra field on every customer: passing them on would always show.
      x: extras(1),
      email: fc.constantFrom<string | null>(c.email, null),
      birthday: birthdayForms(c.birthday),
      created_at: sameInstant(c.created_at),
      last_visit_at: sameInstantOrNull(c.last_visit_at),
      cards: fc.tuple(...c.cards.map(variedCard)),
      rewards: c.rewards === undefined ? fc.constant(undefined) : fc.tuple(...c.rewards.map(variedReward)),
    })
    .map(({ x, rewards, ...varied }) => ({ ...x, ...c, ...varied, ...(rewards === undefined ? {} : { rewards }) }));
}

const customerAndVariation = (withRewards: boolean): fc.Arbitrary<{ original: WireCustomer; varied: Json }> =>
  faithfulCustomer(withRewards).chain((original) => variedCustomer(original).map((varied) => ({ original, varied })));

// ── What the till relies on, and what the reader may pass on ──

const at = (timestamp: string | null | undefined): number | null =>
  timestamp === null || timestamp === undefined ? null : Date.parse(timestamp);

/** The values the till acts on or computes with, and the lenient ones it shows, as read. */
function reliedOn(customer: Customer) {
  return {
    id: customer.id,
    phone: customer.phone,
    birthday: customer.birthday,
    created_at: at(customer.created_at),
    last_visit_at: at(customer.last_visit_at),
    cards: customer.cards.map((c) => ({
      id: c.id,
      program: c.program.id,
      points: c.points,
      visits: c.visits,
      spent: c.spent,
    })),
    rewards: customer.rewards?.map((r) => ({
      code: r.code,
      status: r.status,
      customer_id: r.customer_id,
      expires_at: at(r.expires_at),
      redeemed_at: at(r.redeemed_at),
      earned_at: at(r.earned_at),
      quantity: r.allowed_products?.quantity ?? null,
      products_list: r.allowed_products?.products_list ?? null,
      price: r.price,
    })),
  };
}

/** The same, straight from the faithful record: what reading it must give. */
function expectedFrom(wire: WireCustomer): ReturnType<typeof reliedOn> {
  return {
    id: wire.id,
    phone: wire.phone,
    birthday: wire.birthday,
    created_at: at(wire.created_at),
    last_visit_at: at(wire.last_visit_at),
    cards: wire.cards.map((c) => ({
      id: c.id,
      program: c.program.id,
      points: c.points,
      visits: c.visits,
      spent: c.spent,
    })),
    rewards: wire.rewards?.map((r) => ({
      code: r.code,
      status: r.status,
      customer_id: r.customer_id,
      expires_at: at(r.expires_at),
      redeemed_at: at(r.redeemed_at),
      earned_at: at(r.earned_at),
      quantity: r.allowed_products.quantity,
      products_list: r.allowed_products.products_list,
      price: r.price,
    })),
  };
}

const OUTPUT_FIELDS = {
  customer: ['id', 'name', 'phone', 'email', 'birthday', 'status', 'cards', 'created_at', 'last_visit_at', 'rewards'],
  card: ['id', 'serial_number', 'status', 'program', 'visits', 'points', 'spent'],
  program: ['id', 'name', 'type'],
  reward: [
    ...['code', 'status', 'name', 'description', 'type', 'allowed_products', 'customer_id'],
    ...['earned_at', 'expires_at', 'redeemed_at', 'price'],
  ],
  allowed_products: ['quantity', 'products_list'],
};

/** The keys of `record` that the reader should never have passed on. */
function unknownKeys(record: object, allowed: readonly string[]): string[] {
  return Object.keys(record).filter((key) => !allowed.includes(key));
}

/** Every field of the read customer, at every level, that the spec does not name. */
function passedOnExtras(customer: Customer): string[] {
  return [
    ...unknownKeys(customer, OUTPUT_FIELDS.customer),
    ...customer.cards.flatMap((c) => [
      ...unknownKeys(c, OUTPUT_FIELDS.card),
      ...unknownKeys(c.program, OUTPUT_FIELDS.program),
    ]),
    ...(customer.rewards ?? []).flatMap((r) => [
      ...unknownKeys(r, OUTPUT_FIELDS.reward),
      ...(r.allowed_products ? unknownKeys(r.allowed_products, OUTPUT_FIELDS.allowed_products) : []),
    ]),
  ];
}

/** A search answer's customer, as the client reads it. */
function readListed(wire: unknown): Customer {
  return customerSchema.parse(wire);
}

/** `GET /v1/customers/{id}`, as the client reads it: the customer, then each reward on its own. */
function readSingle(wire: unknown): { customer: Customer; skippedRewards: number } {
  const customer = customerWithRewardsSchema.parse(wire);
  const rewards = readEach(customer.rewards, rewardSchema, RESPONSE_LIMITS.rewardsPerCustomer);
  expect(rewards).not.toBeNull();
  return { customer: { ...customer, rewards: rewards!.items }, skippedRewards: rewards!.skipped };
}

describe('a customer and any spec-legal variation of it', () => {
  test('in a search answer: read, with what the till relies on unchanged and no extra field', () => {
    fc.assert(
      fc.property(customerAndVariation(false), ({ original, varied }) => {
        const fromOriginal = readListed(original);
        const fromVaried = readListed(varied);
        expect(reliedOn(fromOriginal)).toEqual(expectedFrom(original));
        expect(reliedOn(fromVaried)).toEqual(reliedOn(fromOriginal));
        expect(fromVaried.email).toBe(varied.email);
        expect(passedOnExtras(fromVaried)).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  test('on single retrieval: read with every reward, relied-on values unchanged, no extra field', () => {
    fc.assert(
      fc.property(customerAndVariation(true), ({ original, varied }) => {
        const fromOriginal = readSingle(original);
        const fromVaried = readSingle(varied);
        expect(fromOriginal.skippedRewards).toBe(0);
        expect(fromVaried.skippedRewards).toBe(0);
        expect(reliedOn(fromOriginal.customer)).toEqual(expectedFrom(original));
        expect(reliedOn(fromVaried.customer)).toEqual(reliedOn(fromOriginal.customer));
        // A price that is not whole points is forgotten (reliedOn compares `price` too), not passed on.
        expect(passedOnExtras(fromVaried.customer)).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });
});

// ── Pages with unreadable records among the readable ones ──

interface Unreadable {
  element: unknown;
  /** The id the log may name: a readable, loggable id of the record, else null. */
  loggableId: string | null;
  /** What the log must never carry about it. */
  secrets: string[];
}

/** A phone the till cannot read: an object where the spec has a string. */
const phoneAsObject = (c: WireCustomer) => ({ number: c.phone, country: 'SA' });

const unreadable: fc.Arbitrary<Unreadable> = fc.oneof(
  // No id at all.
  faithfulCustomer(false).map((c): Unreadable => {
    const { id: _id, ...rest } = c;
    return { element: rest, loggableId: null, secrets: [c.phone, c.name] };
  }),
  // The phone replaced by an object.
  faithfulCustomer(false).map((c): Unreadable => ({
    element: { ...c, phone: phoneAsObject(c) },
    loggableId: c.id,
    secrets: [c.phone, c.name],
  })),
  // A card whose points cannot be read.
  fc.tuple(faithfulCustomer(false, 1), fc.nat()).map(([c, pick]): Unreadable => {
    const broken = pick % c.cards.length;
    const cards = c.cards.map((k, i) => (i === broken ? { ...k, points: 'lots' } : k));
    return { element: { ...c, cards }, loggableId: c.id, secrets: [c.phone, c.name] };
  }),
  // An id given as a number is read as its text.
  fc.tuple(faithfulCustomer(false), fc.integer({ min: 1, max: 999_999_999 })).map(([c, n]): Unreadable => ({
    element: { ...c, id: n, phone: phoneAsObject(c) },
    loggableId: String(n),
    secrets: [c.phone, c.name],
  })),
  // An id no log line may carry: it would forge a line or split the list.
  fc
    .tuple(faithfulCustomer(false), fc.constantFrom('\nwarn forged line', ' forged, ids'))
    .map(([c, tail]): Unreadable => ({
      element: { ...c, id: `${c.id}${tail}`, phone: phoneAsObject(c) },
      loggableId: null,
      secrets: [c.phone, c.name, 'forged'],
    })),
  // Not an object at all.
  fc
    .oneof(
      fc.string({ maxLength: 8 }),
      fc.integer(),
      fc.boolean(),
      fc.array(fc.integer(), { maxLength: 3 }),
      fc.constant(null),
    )
    .map((element): Unreadable => ({ element, loggableId: null, secrets: [] })),
);

type PageEntry = { readable: true; record: Json | WireCustomer } | ({ readable: false } & Unreadable);

const readableCustomer: fc.Arbitrary<Json | WireCustomer> = fc.oneof(
  faithfulCustomer(false),
  customerAndVariation(false).map(({ varied }) => varied),
);
const pageEntries: fc.Arbitrary<PageEntry[]> = fc.array(
  fc.oneof(
    readableCustomer.map((record): PageEntry => ({ readable: true, record })),
    unreadable.map((bad): PageEntry => ({ readable: false, ...bad })),
  ),
  { maxLength: 10 },
);

function pageOf(entries: PageEntry[]) {
  const readable = entries.flatMap((e) => (e.readable ? [e.record] : []));
  const unreadables = entries.flatMap((e) => (e.readable ? [] : [e]));
  return {
    page: entries.map((e) => (e.readable ? e.record : e.element)),
    readable,
    readableIds: readable.map((r) => r.id as string),
    skipped: unreadables.length,
    loggableIds: unreadables.flatMap((e) => (e.loggableId === null ? [] : [e.loggableId])),
    secrets: unreadables.flatMap((e) => e.secrets),
  };
}

describe('a page with unreadable records mixed in', () => {
  test('readEach keeps every readable customer in order and counts the rest, keeping only loggable ids', () => {
    fc.assert(
      fc.property(pageEntries, (entries) => {
        const { page, readable, readableIds, skipped, loggableIds } = pageOf(entries);
        const reading = readEach(page, customerSchema, RESPONSE_LIMITS.customersPerPage);
        expect(reading).not.toBeNull();
        expect(reading!.items.map((c) => c.id)).toEqual(readableIds);
        expect(reading!.items).toEqual(readable.map((r) => customerSchema.parse(r)));
        expect(reading!.skipped).toBe(skipped);
        expect(reading!.skippedIds).toEqual(loggableIds);
      }),
      { numRuns: 200 },
    );
  });
});

// ── The same through the real client, over HTTP ──

const numberForms = (n: number): fc.Arbitrary<number | string> => fc.constantFrom(n, String(n), `${n}.00`);
const pageMeta: fc.Arbitrary<{ meta: PageMeta; wire: Json }> = fc
  .record({
    current_page: fc.integer({ min: 1, max: 50 }),
    last_page: fc.integer({ min: 0, max: 50 }),
    per_page: fc.integer({ min: 1, max: 100 }),
    total: fc.nat({ max: 5000 }),
  })
  .chain((meta) =>
    fc
      .record({
        x: extras(),
        laravel: fc.option(
          fc.record({
            from: fc.option(fc.nat({ max: 5000 }), { nil: null }),
            to: fc.option(fc.nat({ max: 5000 }), { nil: null }),
            path: fc.constant('https://loyalty.example/v1/customers'),
            links: fc.constant([{ url: null, label: '&laquo; Previous', active: false }]),
          }),
          { nil: undefined },
        ),
        current_page: numberForms(meta.current_page),
        last_page: numberForms(meta.last_page),
        per_page: numberForms(meta.per_page),
        total: numberForms(meta.total),
      })
      .map(({ x, laravel, ...numbers }) => ({ meta, wire: { ...x, ...laravel, ...numbers } })),
  );

describe('searchCustomers over HTTP, with unreadable customers in the page', () => {
  let server: StubServer;
  let answer = '';

  beforeAll(async () => {
    server = await startStubServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' }).end(answer);
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  test('uses the readable customers and the meta, counts the rest, and logs only their ids', async () => {
    await fc.assert(
      fc.asyncProperty(pageEntries, pageMeta, extras(), async (entries, { meta, wire }, envelopeExtras) => {
        const { page, readable, readableIds, skipped, loggableIds, secrets } = pageOf(entries);
        answer = JSON.stringify({ ...envelopeExtras, ok: true, data: page, meta: wire });
        const log = createCapturedLog();
        const api = createLoyaltyApi({ baseUrl: server.url, apiKey: 'k' }, { timeoutMs: 3000, log });

        const result = await api.searchCustomers({});

        expect(result.ok).toBe(true);
        if (!result.ok) return;
        // The JSON round trip is what the service's readable records are once sent.
        const sent = readable.map((r) => customerSchema.parse(JSON.parse(JSON.stringify(r))));
        expect(result.data.map((c) => c.id)).toEqual(readableIds);
        expect(result.data).toEqual(sent);
        expect(result.data.flatMap(passedOnExtras)).toEqual([]);
        expect(result.meta).toEqual(meta);
        expect(pageMetaSchema.parse(wire)).toEqual(meta);
        if (skipped === 0) expect('skipped' in result).toBe(false);
        else expect(result.skipped).toBe(skipped);

        const text = log.text();
        const warnings = log.lines.filter((line) => line.startsWith('warn'));
        expect(warnings).toHaveLength(skipped === 0 ? 0 : 1);
        for (const id of loggableIds) expect(warnings.join('\n')).toContain(id);
        for (const id of readableIds) expect(text).not.toContain(id);
        for (const secret of secrets) expect(text).not.toContain(secret);
      }),
      { numRuns: 15 },
    );
  }, 30_000);
});
