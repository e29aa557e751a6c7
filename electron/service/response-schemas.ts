import { z } from 'zod';

/**
 * How the till reads the loyalty service's answers (`loyalty-api.md`): a tolerant reader,
 * strict only where the till depends on a value. docs/service-reading.md has the rule for
 * every field; this module is that table in code.
 *
 * - Strict: identities (ids, reward codes, phones), the states the till acts on (a reward's
 *   status, its expiry and redemption times), the numbers it computes with (card points,
 *   page numbers). Where one of these cannot be read, the record is unreadable.
 * - Lenient: formats the spec leaves open are read in any common form (an integer as a
 *   numeric string, a date as a date-time, a timestamp with microseconds or any offset).
 * - Dropped, not fatal: a value the till only shows (visits, amount spent, a serial number,
 *   a name) that cannot be read becomes `null` or empty and is shown as unknown.
 * - Ignored: fields the spec does not name are not validated and not passed on, except
 *   `price`, which the till reads where it can and forgets where it cannot.
 *
 * Lists are bounded: far more than any real customer has, far less than could stall a till.
 * In a list, one record that cannot be read is left out and counted (`readEach`), never the list.
 */

export const RESPONSE_LIMITS = {
  /** The spec's per_page maximum. */
  customersPerPage: 100,
  cardsPerCustomer: 100,
  rewardsPerCustomer: 1000,
  productsPerReward: 1000,
} as const;

const INTEGER_TEXT = /^\s*-?\d{1,15}(\.0+)?\s*$/;
const DECIMAL_TEXT = /^\s*-?\d{1,15}(\.\d{1,6})?\s*$/;
const DATE_PREFIX = /^(\d{4}-\d{2}-\d{2})(?:[T ][0-9:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** An integer, or a numeric string of one (`"120"`, `"120.00"`): many services send strings. */
const integer = z
  .union([z.number(), z.string().regex(INTEGER_TEXT).transform(Number)])
  .pipe(z.int().min(-1e12).max(1e12));

/** Any finite amount, as a number or a decimal string (`"18.50"`). */
const amount = z
  .union([z.number(), z.string().regex(DECIMAL_TEXT).transform(Number)])
  .pipe(z.number().min(-1e12).max(1e12));

/** An identity: a non-empty short string; a number is read as its text (some services number their rows). */
const id = z.union([z.string(), z.int().transform(String)]).pipe(z.string().trim().min(1).max(100));

/** Text the till shows: cut to length rather than refused; anything that is not text is unknown. */
const shownText = (max: number) =>
  z
    .union([z.string(), z.number().transform(String)])
    .transform((value) => value.slice(0, max))
    .catch('');

const shownTextOrNull = (max: number) =>
  z
    .string()
    .transform((value) => value.slice(0, max))
    .nullable()
    .catch(null);

/** A timestamp in any form `Date.parse` reads (ISO 8601 with microseconds, `Z` or `+03:00`). */
const timestamp = z
  .string()
  .max(64)
  .refine((value) => !Number.isNaN(Date.parse(value)), 'not a date-time');

/** A state or type: any short word, since the spec shows some values without closing the lists. */
const state = z.string().trim().min(1).max(40);

/** A date the till shows and sends back: `YYYY-MM-DD`, or the date part of a date-time. */
const calendarDate = z
  .string()
  .regex(DATE_PREFIX)
  .transform((value) => value.slice(0, 10))
  .nullable()
  .catch(null);

export const programSchema = z.object({
  id,
  name: shownText(500),
  type: shownText(40),
});

export const cardSchema = z.object({
  id,
  serial_number: shownTextOrNull(200),
  status: shownText(40),
  program: programSchema,
  visits: integer.nullable().catch(null),
  // The till computes the balance after a redemption with it: strict.
  points: integer,
  spent: amount.nullable().catch(null),
});

const allowedProductsSchema = z
  .object({
    quantity: integer,
    products_list: z.array(id).max(RESPONSE_LIMITS.productsPerReward),
  })
  .nullable()
  .catch(null);

export const rewardSchema = z.object({
  code: z
    .string()
    .trim()
    .max(64)
    .regex(/^RW-[A-Za-z0-9]+$/i),
  // The till acts on these three: whether it may be redeemed, and when it expired or was redeemed.
  status: state,
  expires_at: timestamp.nullable().default(null),
  redeemed_at: timestamp.nullable().default(null),
  customer_id: id,
  name: shownText(500),
  description: shownTextOrNull(5000),
  type: shownText(40),
  allowed_products: allowedProductsSchema,
  earned_at: timestamp.nullable().catch(null),
  // Not in the spec: the points a points-type reward costs (the sandbox sends it). Forgotten when
  // it is not a whole number of points, e.g. a price in money such as "18.50".
  price: integer.optional().catch(undefined),
});

const customerFields = {
  id,
  phone: z.string().trim().min(1).max(40),
  name: shownText(500),
  // The spec types it as a string; a service may send null when unset.
  email: shownTextOrNull(320),
  birthday: calendarDate,
  status: shownText(40),
  // A customer without cards may come without the field.
  cards: z
    .array(cardSchema)
    .max(RESPONSE_LIMITS.cardsPerCustomer)
    .nullish()
    .transform((cards) => cards ?? []),
  created_at: timestamp.nullable().catch(null),
  last_visit_at: timestamp.nullable().catch(null),
};

/** In search results and create/update answers: `rewards` is not read there. */
export const customerSchema = z.object(customerFields);

/** `GET /v1/customers/{id}`: the rewards awaiting redemption, each read on its own (`readEach`). */
export const customerWithRewardsSchema = z.object({
  ...customerFields,
  rewards: z.array(z.unknown()).max(RESPONSE_LIMITS.rewardsPerCustomer),
});

export const pageMetaSchema = z.object({
  current_page: integer.pipe(z.int().min(1)),
  last_page: integer.pipe(z.int().min(0)),
  per_page: integer.pipe(z.int().min(1).max(RESPONSE_LIMITS.customersPerPage)),
  total: integer.pipe(z.int().min(0)),
});

/** A redemption's answer, each part read on its own: the status already said it was made. */
export const redemptionPartsSchema = z.object({
  reward: z.unknown(),
  card: z.unknown(),
});

/** What reading a list found: the records read, and how many could not be (with their ids where readable). */
export interface ListReading<T> {
  items: T[];
  skipped: number;
  /** Ids of the skipped records that had a readable id; nothing else about them is kept. */
  skippedIds: string[];
}

const LOGGABLE_ID = /^[A-Za-z0-9._:-]{1,100}$/;

/**
 * Reads each element of a list on its own: one record the till cannot read is left out and
 * counted, and never costs the others. Null when `value` is not a list of at most `max`.
 */
export function readEach<S extends z.ZodType>(value: unknown, schema: S, max: number): ListReading<z.output<S>> | null {
  if (!Array.isArray(value) || value.length > max) return null;
  const reading: ListReading<z.output<S>> = { items: [], skipped: 0, skippedIds: [] };
  for (const element of value as unknown[]) {
    const parsed = schema.safeParse(element);
    if (parsed.success) {
      reading.items.push(parsed.data);
      continue;
    }
    reading.skipped += 1;
    const elementId = (element as { id?: unknown } | null)?.id;
    const text = typeof elementId === 'number' ? String(elementId) : elementId;
    if (typeof text === 'string' && LOGGABLE_ID.test(text)) reading.skippedIds.push(text);
  }
  return reading;
}
