import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { invalid, type FieldErrors } from './errors';
import type { PageMeta, ProgramRecord } from './model';
import { isKnownCallingCode, normalisePhone } from './phones';
import {
  checkBody,
  customerIdParams,
  parseOrReject,
  redeemBody,
  registerBody,
  searchQuery,
  updateBody,
} from './schemas';
import type { LoyaltyStore } from './store';

/**
 * The service's endpoints as `loyalty-api.md` specifies them: each reads its request, asks the
 * store and says what to answer. How an answer is written (the dialect, entity tags, the faults
 * that strike after the work) is the route wrapper's, in server.ts.
 */

/** What a route answers, written by the route wrapper. */
export interface Answer {
  status?: number;
  message?: string;
  /** A function is called for the body only, so a 304 does not build what it does not send. */
  data: unknown;
  meta?: PageMeta;
  /**
   * The opaque value of the answer's strong entity tag (RFC 9110 8.8.3), for a conditional
   * GET. A list page's covers its customers and its `last_page`, not `total`, so a
   * registration changes the tag of the last page only (and of every page once it adds a
   * page, which a till paging to the end must learn).
   */
  tag?: string;
}

/** Wraps a route's handler: answers in the dialect, and honours the faults that strike after the work. */
export type Route = (
  handler: (request: FastifyRequest) => Promise<Answer>,
) => (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;

export function registerRoutes(app: FastifyInstance, store: LoyaltyStore, route: Route): void {
  /**
   * Reads the request's phone after its schema accepted it (the schema's extra check,
   * `phoneProblem`, already refused an unreadable one together with any other bad field).
   */
  const phoneOf = (phone: string, countryCode: string | undefined): string => {
    const e164 = normalisePhone(phone, countryCode);
    if (!e164) throw invalid(phoneProblem({ phone, country_code: countryCode }) ?? {});
    return e164;
  };

  app.get(
    '/v1/customers',
    route(async (request) => {
      const query = parseOrReject(searchQuery, request.query, phoneProblem(request.query));
      const phone = query.phone === undefined ? undefined : phoneOf(query.phone, query.country_code);
      const { customers, meta, tag } = store.search({
        phone,
        term: query.search,
        page: query.page ?? 1,
        perPage: query.per_page ?? 20,
      });
      return { data: customers, meta, tag };
    }),
  );

  app.get(
    '/v1/customers/:id',
    route(async (request) => {
      const { id } = parseOrReject(customerIdParams, request.params);
      return { data: store.getCustomer(id) };
    }),
  );

  app.post(
    '/v1/customers',
    route(async (request) => {
      const body = parseOrReject(registerBody, request.body, phoneProblem(request.body));
      const phone = phoneOf(body.phone, body.country_code);
      const { created, changed, customer } = store.register(
        { name: body.name, phone, email: body.email, birthday: body.birthday },
        request.program as ProgramRecord,
      );
      // Tills call this before every order: a known customer with a card here changes nothing to save.
      if (changed) await store.persist();
      return created
        ? { status: 201, message: 'Customer registered.', data: customer }
        : { status: 200, message: 'Customer already registered.', data: customer };
    }),
  );

  app.put(
    '/v1/customers/:id',
    route(async (request) => {
      const { id } = parseOrReject(customerIdParams, request.params);
      const body = request.body as Record<string, unknown> | undefined;
      const identity =
        body && typeof body === 'object' && ('phone' in body || 'country_code' in body)
          ? { phone: ['The phone number is the customer\u2019s identity and cannot be changed.'] }
          : undefined;
      const patch = parseOrReject(updateBody, body, identity);
      const customer = store.update(id, patch);
      await store.persist();
      return { message: 'Customer updated.', data: customer };
    }),
  );

  app.post(
    '/v1/rewards/check',
    route(async (request) => {
      const body = parseOrReject(checkBody, request.body, phoneProblem(request.body));
      return { data: store.check(body.reward_code, phoneOf(body.phone, body.country_code)) };
    }),
  );

  app.post(
    '/v1/rewards/redeem',
    route(async (request) => {
      const body = parseOrReject(redeemBody, request.body, phoneProblem(request.body));
      const redemption = store.redeem({
        code: body.reward_code,
        phone: phoneOf(body.phone, body.country_code),
        branchId: body.branch_id,
        orderReference: body.order_reference,
      });
      await store.persist();
      return { message: 'Reward redeemed.', data: redemption };
    }),
  );
}

/**
 * The phone's own check, run beside the schema so that one answer names every bad field.
 * A missing or non-text phone is left to the schema to report.
 */
function phoneProblem(input: unknown): FieldErrors | undefined {
  if (!input || typeof input !== 'object') return undefined;
  const { phone, country_code: countryCode } = input as Record<string, unknown>;
  if (typeof phone !== 'string' || !phone.trim()) return undefined;
  // A malformed country_code is the schema's to report; the phone cannot be judged without it.
  if (countryCode !== undefined && (typeof countryCode !== 'string' || !isKnownCallingCode(countryCode)))
    return undefined;
  const code = countryCode as string | undefined;
  if (normalisePhone(phone, code)) return undefined;
  return {
    phone: [
      code || phone.trim().startsWith('+')
        ? 'Not a valid phone number.'
        : 'Not a valid phone number: give it in international form (+...) or with country_code.',
    ],
  };
}
