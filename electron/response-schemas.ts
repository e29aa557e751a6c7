import { z } from 'zod';

/**
 * What the till accepts from the loyalty service (`loyalty-api.md`), checked in the main
 * process before anything crosses the bridge or reaches the renderer's cache. A wrong
 * shape (a customer without `cards`, a string `points`, ten thousand rewards) is a
 * `bad_response`; nothing of it is shown or kept.
 *
 * Tolerant where the spec is open: unknown extra fields are allowed (and left out of what
 * the till passes on), and states and types are any short string, because the spec shows
 * only `active`, `point`, `available`/`redeemed` and `product` without closing the lists.
 * Lists are bounded: far more than any real customer has, far less than could stall a till.
 */

export const RESPONSE_LIMITS = {
  /** The spec's per_page maximum. */
  customersPerPage: 100,
  cardsPerCustomer: 100,
  rewardsPerCustomer: 1000,
  productsPerReward: 1000,
} as const;

const text = (max: number) => z.string().max(max);
const id = text(100).min(1);
// A state or type: any value the service may add, as long as it is a short word.
const openEnum = text(40).min(1);
const count = z.int().min(-1e12).max(1e12);
const timestamp = text(40).refine((value) => !Number.isNaN(Date.parse(value)), 'not a date-time');
const date = text(10).regex(/^\d{4}-\d{2}-\d{2}$/);

export const programSchema = z.object({
  id,
  name: text(500),
  type: openEnum,
});

export const cardSchema = z.object({
  id,
  serial_number: text(200),
  status: openEnum,
  program: programSchema,
  visits: count,
  points: count,
  spent: count,
});

export const rewardSchema = z.object({
  code: text(64).regex(/^RW-[A-Za-z0-9]+$/i),
  status: openEnum,
  name: text(500),
  description: text(5000).nullable(),
  type: openEnum,
  allowed_products: z.object({
    quantity: count,
    products_list: z.array(id).max(RESPONSE_LIMITS.productsPerReward),
  }),
  customer_id: id,
  earned_at: timestamp,
  expires_at: timestamp.nullable(),
  redeemed_at: timestamp.nullable(),
  // Not in the spec: the points a points-type reward costs (the sandbox sends it).
  price: count.optional(),
});

const customerFields = {
  id,
  name: text(500),
  phone: text(40).min(1),
  // The spec types it as a string; a service may send null when unset.
  email: text(320).nullable(),
  birthday: date.nullable(),
  status: openEnum,
  cards: z.array(cardSchema).max(RESPONSE_LIMITS.cardsPerCustomer),
  created_at: timestamp,
  last_visit_at: timestamp.nullable(),
};

/** In search results and create/update answers: without `rewards`. */
export const customerSchema = z.object({
  ...customerFields,
  // Tolerated where the spec leaves it out, and checked like everywhere else.
  rewards: z.array(rewardSchema).max(RESPONSE_LIMITS.rewardsPerCustomer).optional(),
});

/** `GET /v1/customers/{id}`: the rewards awaiting redemption come with it. */
export const customerWithRewardsSchema = z.object({
  ...customerFields,
  rewards: z.array(rewardSchema).max(RESPONSE_LIMITS.rewardsPerCustomer),
});

export const customerListSchema = z.array(customerSchema).max(RESPONSE_LIMITS.customersPerPage);

export const pageMetaSchema = z.object({
  current_page: z.int().min(1),
  last_page: z.int().min(0),
  per_page: z.int().min(1).max(RESPONSE_LIMITS.customersPerPage),
  total: z.int().min(0),
});

export const redemptionSchema = z.object({
  reward: rewardSchema,
  card: cardSchema,
});
