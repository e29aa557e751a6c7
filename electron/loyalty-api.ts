import axios, { type AxiosInstance, type Method } from 'axios';
import type {
  BridgeError,
  Customer,
  CustomerPagePayload,
  CustomerPageResult,
  Failure,
  PageMeta,
  Redemption,
  RegisterOutcome,
  Result,
  Reward,
  SearchResult,
} from './contract';
import { badResponse, errorFromResponse, errorFromTransport } from './api-errors';
import type { Logger } from './log';

/** Where to send requests and with which key. */
export interface ServiceTarget {
  baseUrl: string;
  apiKey: string;
}

export interface RetryPolicy {
  /** Total tries of a GET, including the first. */
  attempts: number;
  /** First back-off; doubled each time, with jitter. */
  baseDelayMs: number;
  /** The longest `Retry-After` worth waiting for in the till; longer ones are handed back. */
  maxWaitMs: number;
}

export interface LoyaltyApiOptions {
  timeoutMs: number;
  log: Logger;
  retry?: RetryPolicy;
}

// A cashier is waiting: a couple of quick retries, then tell them.
const DEFAULT_RETRY: RetryPolicy = { attempts: 3, baseDelayMs: 200, maxWaitMs: 2000 };
const MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

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

interface Envelope {
  status: number;
  /** The `ETag` header, where the service sent one. */
  etag: string | undefined;
  data: unknown;
  meta: unknown;
  message: string | undefined;
}

interface RequestSpec {
  method: Method;
  path: string;
  params?: object;
  body?: object;
  retry: boolean;
  /** Sent as `If-None-Match`; a 304 is then an answer, not an error. */
  ifNoneMatch?: string;
}


/**
 * The loyalty service client (`loyalty-api.md`): adds the key, speaks the `/v1` envelope,
 * and turns every outcome into a `Result`. It never throws for anything the network or
 * the service does.
 */
export function createLoyaltyApi(target: ServiceTarget, options: LoyaltyApiOptions): LoyaltyApi {
  const { timeoutMs, log } = options;
  const retry = options.retry ?? DEFAULT_RETRY;
  const http: AxiosInstance = axios.create({
    // Node's http, always: under a DOM-like test environment axios would otherwise pick XHR.
    adapter: 'http',
    baseURL: target.baseUrl,
    timeout: timeoutMs,
    headers: { Accept: 'application/json', Authorization: `Bearer ${target.apiKey}` },
    // Read the body as text and parse it here, so an HTML page or broken JSON is seen as such.
    responseType: 'text',
    transformResponse: [(data: unknown) => data],
    // Every status is an answer to interpret, not an exception.
    validateStatus: () => true,
    // A redirect from an API is a misconfiguration; following it could carry the key elsewhere.
    maxRedirects: 0,
    maxContentLength: MAX_RESPONSE_BYTES,
    transitional: { clarifyTimeoutError: true, silentJSONParsing: true, forcedJSONParsing: false },
  });

  async function once(spec: RequestSpec): Promise<Envelope | Failure> {
    const started = Date.now();
    // A hard deadline for the whole exchange: axios's own timeout is per socket inactivity.
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), timeoutMs);
    try {
      const response = await http.request<string>({
        method: spec.method,
        url: spec.path,
        params: spec.params,
        data: spec.body,
        headers: {
          ...(spec.body ? { 'Content-Type': 'application/json' } : {}),
          ...(spec.ifNoneMatch ? { 'If-None-Match': spec.ifNoneMatch } : {}),
        },
        signal: deadline.signal,
      });
      log.info(`${spec.method} ${spec.path} -> ${response.status} (${Date.now() - started} ms)`);
      const header = (name: string) => {
        const value: unknown = response.headers[name];
        return typeof value === 'string' ? value : undefined;
      };
      // Only an asked-for 304 means "unchanged"; otherwise it is an answer we cannot read.
      if (response.status === 304 && spec.ifNoneMatch) {
        return { status: 304, etag: header('etag'), data: null, meta: undefined, message: undefined };
      }
      return readAnswer(response.status, response.data, header('retry-after'), header('etag'));
    } catch (thrown) {
      // Only the error code is read: axios errors carry the request config, key included.
      const code = axios.isAxiosError(thrown) ? thrown.code : undefined;
      const error = errorFromTransport(code, deadline.signal.aborted);
      log.warn(`${spec.method} ${spec.path} -> ${error.kind}${code ? ` (${code})` : ''} (${Date.now() - started} ms)`);
      return { ok: false, error };
    } finally {
      clearTimeout(timer);
    }
  }

  async function send(spec: RequestSpec): Promise<Envelope | Failure> {
    for (let attempt = 1; ; attempt++) {
      const outcome = await once(spec);
      if ('status' in outcome || !spec.retry || attempt >= retry.attempts) return outcome;
      const wait = retryDelay(outcome.error, attempt, retry);
      if (wait === null) return outcome;
      await sleep(wait);
    }
  }

  return {
    async searchCustomers(query) {
      const answer = await send({ method: 'GET', path: '/v1/customers', params: query, retry: true });
      if (!isEnvelope(answer)) return answer;
      if (!Array.isArray(answer.data) || !answer.data.every(isCustomerLike)) return unreadable(answer.status);
      if (!isPageMeta(answer.meta)) return unreadable(answer.status);
      return { ok: true, data: answer.data as Customer[], meta: answer.meta, status: answer.status };
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
      if (answer.status === 304) return { ok: true, notModified: true, data: null, status: 304, ...(answer.etag ? { etag: answer.etag } : {}) };
      if (!Array.isArray(answer.data) || !answer.data.every(isCustomerLike)) return unreadable(answer.status);
      if (!isPageMeta(answer.meta)) return unreadable(answer.status);
      return { ok: true, data: answer.data as Customer[], meta: answer.meta, status: answer.status, ...(answer.etag ? { etag: answer.etag } : {}) };
    },
    async getCustomer(id) {
      const answer = await send({ method: 'GET', path: `/v1/customers/${encodeURIComponent(id)}`, retry: true });
      if (!isEnvelope(answer)) return answer;
      if (!isCustomerLike(answer.data)) return unreadable(answer.status);
      return success(answer, answer.data as Customer);
    },
    async registerCustomer(body) {
      const answer = await send({ method: 'POST', path: '/v1/customers', body, retry: false });
      if (!isEnvelope(answer)) return answer;
      if (!isCustomerLike(answer.data)) return unreadable(answer.status);
      // The phone is the identity: 201 means new, 200 means the phone was already known.
      return success(answer, { customer: answer.data as Customer, created: answer.status === 201 });
    },
    async updateCustomer(id, body) {
      const answer = await send({ method: 'PUT', path: `/v1/customers/${encodeURIComponent(id)}`, body, retry: false });
      if (!isEnvelope(answer)) return answer;
      if (!isCustomerLike(answer.data)) return unreadable(answer.status);
      return success(answer, answer.data as Customer);
    },
    async checkReward(body) {
      // POST, but it changes nothing; still not retried, so the policy stays "GETs only".
      const answer = await send({ method: 'POST', path: '/v1/rewards/check', body, retry: false });
      if (!isEnvelope(answer)) return answer;
      if (!isRewardLike(answer.data)) return unreadable(answer.status);
      return success(answer, answer.data as Reward);
    },
    async redeemReward(body) {
      const answer = await send({ method: 'POST', path: '/v1/rewards/redeem', body, retry: false });
      if (!isEnvelope(answer)) return answer;
      const data = answer.data as { reward?: unknown; card?: unknown } | null;
      if (!isRecord(data) || !isRewardLike(data.reward) || !isRecord(data.card)) return unreadable(answer.status);
      return success(answer, data as unknown as Redemption);
    },
    async probe() {
      const answer = await once({ method: 'GET', path: '/v1/customers', params: { per_page: 1 }, retry: false });
      if (!isEnvelope(answer)) return answer;
      return { ok: true, data: null, status: answer.status };
    },
  };
}

/** Interprets one HTTP answer: the envelope on success, a `Failure` otherwise. */
function readAnswer(status: number, text: string, retryAfter: string | undefined, etag?: string): Envelope | Failure {
  const body = parseJson(text);
  if (status < 200 || status >= 300) {
    return { ok: false, error: errorFromResponse(status, body === undefined ? text : body, retryAfter) };
  }
  if (!isRecord(body)) {
    return { ok: false, error: badResponse('The loyalty service answered with something that is not JSON.', status) };
  }
  if (body.ok !== true || !('data' in body)) {
    return { ok: false, error: badResponse('The loyalty service answered in an unexpected format.', status) };
  }
  return {
    status,
    etag,
    data: body.data,
    meta: body.meta,
    message: typeof body.message === 'string' ? body.message : undefined,
  };
}

/** How long to wait before retrying a GET, or null when it should not be retried. */
export function retryDelay(error: BridgeError, attempt: number, policy: RetryPolicy): number | null {
  if (error.kind === 'rate_limited' && error.retryAfterMs !== undefined) {
    return error.retryAfterMs <= policy.maxWaitMs ? error.retryAfterMs : null;
  }
  if (error.kind !== 'offline' && error.kind !== 'server' && error.kind !== 'rate_limited') return null;
  const backoff = policy.baseDelayMs * 2 ** (attempt - 1);
  return Math.min(policy.maxWaitMs, Math.round(backoff / 2 + Math.random() * backoff));
}

function success<T>(answer: Envelope, data: T): Result<T> {
  const result: Result<T> = { ok: true, data, status: answer.status };
  if (answer.message !== undefined) result.message = answer.message;
  return result;
}

function unreadable(status: number): Failure {
  return { ok: false, error: badResponse('The loyalty service answered with data in an unexpected shape.', status) };
}

function isEnvelope(answer: Envelope | Failure): answer is Envelope {
  return 'status' in answer;
}

function parseJson(text: string): unknown {
  if (typeof text !== 'string' || text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCustomerLike(value: unknown): boolean {
  return isRecord(value) && typeof value.id === 'string' && typeof value.phone === 'string';
}

function isRewardLike(value: unknown): boolean {
  return isRecord(value) && typeof value.code === 'string' && typeof value.status === 'string';
}

function isPageMeta(value: unknown): value is PageMeta {
  return (
    isRecord(value) &&
    ['current_page', 'last_page', 'per_page', 'total'].every((name) => Number.isInteger(value[name]))
  );
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
