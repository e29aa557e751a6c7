import type { z } from 'zod';
import type {
  Customer,
  CustomerPagePayload,
  CustomerPageResult,
  Failure,
  Redemption,
  RegisterOutcome,
  Result,
  Reward,
  SearchResult,
} from '../../common/contract';
import { badResponse } from './api-errors';
import {
  cardSchema,
  customerSchema,
  customerWithRewardsSchema,
  pageMetaSchema,
  readEach,
  redemptionPartsSchema,
  RESPONSE_LIMITS,
  rewardSchema,
} from './response-schemas';
import { createServiceTransport, type Envelope, type LoyaltyApiOptions, type ServiceTarget } from './service-transport';

export type { LoyaltyApiOptions, RetryPolicy, ServiceTarget } from './service-transport';

export interface SearchQuery {
  phone?: string;
  country_code?: string;
  search?: string;
  page?: number;
  per_page?: number;
}
export interface RegisterBody {
  name: string;
  phone: string;
  country_code?: string;
  email?: string;
  birthday?: string;
}
export interface UpdateBody {
  name?: string;
  email?: string | null;
  birthday?: string | null;
}
export interface RewardBody {
  reward_code: string;
  phone: string;
  country_code?: string;
}
export interface RedeemBody extends RewardBody {
  branch_id?: string;
  order_reference?: string;
}

export interface LoyaltyApi {
  searchCustomers(query: SearchQuery): Promise<SearchResult>;
  /** A page of the whole list, conditional on the page's entity tag when one is given. */
  customerPage(query: CustomerPagePayload): Promise<CustomerPageResult>;
  getCustomer(id: string): Promise<Result<Customer>>;
  registerCustomer(body: RegisterBody): Promise<Result<RegisterOutcome>>;
  updateCustomer(id: string, body: UpdateBody): Promise<Result<Customer>>;
  checkReward(body: RewardBody): Promise<Result<Reward>>;
  /** Never retried: a second attempt could redeem twice. */
  redeemReward(body: RedeemBody): Promise<Result<Redemption>>;
  /** A single cheap authenticated GET, to tell "reachable" from "offline". */
  probe(): Promise<Result<null>>;
}

/**
 * The loyalty service client (`loyalty-api.md`): reads each operation's answer into its
 * `Result` over the transport (service-transport.ts), which adds the key and speaks the `/v1`
 * envelope. It never throws for anything the network or the service does.
 */
export function createLoyaltyApi(target: ServiceTarget, options: LoyaltyApiOptions): LoyaltyApi {
  const { log } = options;
  const { once, send } = createServiceTransport(target, options);

  /**
   * A page of customers: each one read on its own, so one the till cannot read is left out
   * and counted, and the page (and its `meta`) still used. The log names the skipped ids.
   */
  function customerList(answer: Envelope, what: string): SearchResult {
    const customers = readEach(answer.data, customerSchema, RESPONSE_LIMITS.customersPerPage);
    const meta = pageMetaSchema.safeParse(answer.meta);
    if (!customers || !meta.success) return unreadable(answer.status);
    if (customers.skipped > 0) {
      const ids = customers.skippedIds.length > 0 ? `: ${customers.skippedIds.join(', ')}` : '';
      log.warn(`${what}: ${customers.skipped} customers could not be read and were left out${ids}`);
    }
    const skipped = customers.skipped > 0 ? { skipped: customers.skipped } : {};
    return { ok: true, data: customers.items satisfies Customer[], meta: meta.data, status: answer.status, ...skipped };
  }

  return {
    async searchCustomers(query) {
      const answer = await send({ method: 'GET', path: '/v1/customers', params: query, retry: true });
      if (!isEnvelope(answer)) return answer;
      return customerList(answer, 'GET /v1/customers');
    },
    async customerPage({ page, per_page, if_none_match }) {
      const answer = await send({
        method: 'GET',
        path: '/v1/customers',
        params: { page, per_page },
        retry: true,
        ...(if_none_match ? { ifNoneMatch: if_none_match } : {}),
      });
      if (!isEnvelope(answer)) return answer;
      if (answer.status === 304)
        return { ok: true, notModified: true, data: null, status: 304, ...(answer.etag ? { etag: answer.etag } : {}) };
      const list = customerList(answer, `GET /v1/customers page ${page}`);
      return list.ok && answer.etag ? { ...list, etag: answer.etag } : list;
    },
    async getCustomer(id) {
      const answer = await send({ method: 'GET', path: `/v1/customers/${encodeURIComponent(id)}`, retry: true });
      if (!isEnvelope(answer)) return answer;
      const customer = customerWithRewardsSchema.safeParse(answer.data);
      if (!customer.success) return unreadable(answer.status);
      // One reward the till cannot read is left out; the customer and the other rewards stand.
      const rewards = readEach(customer.data.rewards, rewardSchema, RESPONSE_LIMITS.rewardsPerCustomer)!;
      if (rewards.skipped > 0) {
        log.warn(`GET /v1/customers/{id}: ${rewards.skipped} of its rewards could not be read and were left out`);
      }
      return success(answer, { ...customer.data, rewards: rewards.items } satisfies Customer);
    },
    async registerCustomer(body) {
      const answer = await send({ method: 'POST', path: '/v1/customers', body, retry: false });
      if (!isEnvelope(answer)) return answer;
      // The phone is the identity: 201 means new, 200 means the phone was already known.
      return shaped(answer, customerSchema, (customer): RegisterOutcome => ({
        customer,
        created: answer.status === 201,
      }));
    },
    async updateCustomer(id, body) {
      const answer = await send({ method: 'PUT', path: `/v1/customers/${encodeURIComponent(id)}`, body, retry: false });
      if (!isEnvelope(answer)) return answer;
      return shaped(answer, customerSchema, (customer): Customer => customer);
    },
    async checkReward(body) {
      // POST, but it changes nothing; still not retried, so the policy stays "GETs only".
      const answer = await send({ method: 'POST', path: '/v1/rewards/check', body, retry: false });
      if (!isEnvelope(answer)) return answer;
      return shaped(answer, rewardSchema, (reward): Reward => reward);
    },
    async redeemReward(body) {
      const answer = await send({ method: 'POST', path: '/v1/rewards/redeem', body, retry: false, timed: true });
      // The attempt's timing goes with every outcome: a lost or unreadable answer is exactly
      // when the outbox needs to know when the request was on the wire.
      const attempt = answer.attempt ? { attempt: answer.attempt } : {};
      if (!isEnvelope(answer)) {
        // A 2xx is the truth that the service redeemed, even with a body nobody can read.
        if (!isSuccessStatus(answer.error.status)) return answer;
        log.warn(`POST /v1/rewards/redeem -> ${answer.error.status}: redeemed, but the answer could not be read`);
        return { ok: true, data: { reward: null, card: null }, status: answer.error.status, ...attempt };
      }
      const parts = redemptionPartsSchema.safeParse(answer.data);
      const reward = rewardSchema.safeParse(parts.success ? parts.data.reward : undefined);
      const card = cardSchema.safeParse(parts.success ? parts.data.card : undefined);
      if (!reward.success || !card.success) {
        log.warn(`POST /v1/rewards/redeem -> ${answer.status}: redeemed, but part of the answer could not be read`);
      }
      const redemption: Redemption = {
        reward: reward.success ? reward.data : null,
        card: card.success ? card.data : null,
      };
      return { ...success(answer, redemption), ...attempt };
    },
    async probe() {
      const answer = await once({ method: 'GET', path: '/v1/customers', params: { per_page: 1 }, retry: false });
      if (!isEnvelope(answer)) return answer;
      return { ok: true, data: null, status: answer.status };
    },
  };
}

function isSuccessStatus(status: number | undefined): boolean {
  return status !== undefined && status >= 200 && status < 300;
}

function success<T>(answer: Envelope, data: T): Result<T> {
  const result: Result<T> = { ok: true, data, status: answer.status };
  if (answer.message !== undefined) result.message = answer.message;
  return result;
}

/** The answer's data checked against its schema, then turned into the result's data. */
function shaped<S extends z.ZodType, T>(answer: Envelope, schema: S, toResult: (data: z.output<S>) => T): Result<T> {
  const parsed = schema.safeParse(answer.data);
  return parsed.success ? success(answer, toResult(parsed.data)) : unreadable(answer.status);
}

function unreadable(status: number): Failure {
  return { ok: false, error: badResponse('service.unexpectedShape', status) };
}

function isEnvelope(answer: Envelope | Failure): answer is Envelope {
  return 'status' in answer;
}
