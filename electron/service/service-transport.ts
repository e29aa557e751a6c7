import axios, { type AxiosInstance, type Method } from 'axios';
import { backoffDelay } from '../../common/backoff';
import { isRecord } from '../../common/is-record';
import { nestsDeeperThan } from '../../common/json-depth';
import type { AttemptTiming, BridgeError, Failure } from '../../common/contract';
import { badResponse, errorFromResponse, errorFromTransport } from './api-errors';
import type { Logger } from '../log/log';
import { MAX_RESULT_DEPTH, scrubSecrets } from '../log/scrub-secrets';
import { plainServiceText } from './service-text';
import { ServiceClock } from './service-clock';

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
  /** Learns the service's clock from every answer; shared across clients of one till. */
  clock?: ServiceClock;
  /** Waits before a GET's retry; a real timer by default (tests record the waits instead). */
  sleep?: (ms: number) => Promise<void>;
}

// A cashier is waiting: a couple of quick retries, then tell them.
const DEFAULT_RETRY: RetryPolicy = { attempts: 3, baseDelayMs: 200, maxWaitMs: 2000 };
const MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

/** One answer of the service in its `/v1` envelope, read and scrubbed of the key. */
export interface Envelope {
  status: number;
  /** The `ETag` header, where the service sent one. */
  etag: string | undefined;
  data: unknown;
  meta: unknown;
  message: string | undefined;
  attempt?: AttemptTiming;
}

export interface RequestSpec {
  method: Method;
  path: string;
  params?: object;
  body?: object;
  retry: boolean;
  /** Report when the request was made (`attempt`), for reconciling a lost answer. */
  timed?: boolean;
  /** Sent as `If-None-Match`; a 304 is then an answer, not an error. */
  ifNoneMatch?: string;
}

/** Requests to the service: one, or a GET with its retries; each ends as an envelope or a `Failure`. */
export interface ServiceTransport {
  /** One request, never retried (the probe). */
  once(spec: RequestSpec): Promise<Envelope | Failure>;
  /** A request, retried as the policy says when `spec.retry` (GETs only). */
  send(spec: RequestSpec): Promise<Envelope | Failure>;
}

/**
 * How the till speaks to the service (`loyalty-api.md`): adds the key, sets a hard deadline,
 * learns the service's clock from every answer and reads the `/v1` envelope. It never throws
 * for anything the network or the service does.
 */
export function createServiceTransport(target: ServiceTarget, options: LoyaltyApiOptions): ServiceTransport {
  const { timeoutMs, log } = options;
  const retry = options.retry ?? DEFAULT_RETRY;
  const clock = options.clock ?? new ServiceClock();
  const waitBeforeRetry = options.sleep ?? sleep;

  /** The attempt's times on the service's clock, with the estimate as it stands after it. */
  function timing(localStart: number, localEnd: number, requestSent: boolean): AttemptTiming {
    const estimate = clock.estimate();
    return {
      localStart,
      localEnd,
      start: estimate ? localStart + estimate.offsetMs : null,
      end: estimate ? localEnd + estimate.offsetMs : null,
      uncertaintyMs: estimate ? estimate.uncertaintyMs : null,
      requestSent,
    };
  }

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
    const localStart = clock.monotonicNow();
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
      const localEnd = clock.monotonicNow();
      log.info(`${spec.method} ${spec.path} -> ${response.status} (${Date.now() - started} ms)`);
      const header = (name: string) => {
        const value: unknown = response.headers[name];
        return typeof value === 'string' ? value : undefined;
      };
      clock.observe(header('date'), localStart, localEnd);
      // Only an asked-for 304 means "unchanged"; otherwise it is an answer we cannot read.
      if (response.status === 304 && spec.ifNoneMatch) {
        return {
          status: 304,
          etag: entityTag(header('etag'), target.apiKey),
          data: null,
          meta: undefined,
          message: undefined,
        };
      }
      const answer = readAnswer(
        response.status,
        response.data,
        header('retry-after'),
        target.apiKey,
        entityTag(header('etag'), target.apiKey),
      );
      return spec.timed ? { ...answer, attempt: timing(localStart, localEnd, true) } : answer;
    } catch (thrown) {
      const localEnd = clock.monotonicNow();
      // Only the error code and whether the request was written are read: axios errors
      // carry the request config, key included.
      const code = axios.isAxiosError(thrown) ? thrown.code : undefined;
      const error = errorFromTransport(code, deadline.signal.aborted);
      const sent = requestWasWritten(thrown);
      log.warn(
        `${spec.method} ${spec.path} -> ${error.kind}${code ? ` (${code})` : ''}${sent ? '' : ', request not sent'} (${Date.now() - started} ms)`,
      );
      return spec.timed ? { ok: false, error, attempt: timing(localStart, localEnd, sent) } : { ok: false, error };
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
      await waitBeforeRetry(wait);
    }
  }

  return { once, send };
}

/** The longest entity tag kept: it is stored per page and sent back with every refresh. */
const MAX_ETAG_LENGTH = 256;

/**
 * An `ETag` as RFC 9110 writes it (`"…"` or `W/"…"`, visible ASCII inside), short, and never
 * holding the key; anything else is dropped, which only costs an unconditional fetch next time.
 */
function entityTag(value: string | undefined, apiKey: string): string | undefined {
  if (value === undefined || value.length > MAX_ETAG_LENGTH) return undefined;
  if (!/^(W\/)?"[\x21\x23-\x7e]*"$/.test(value)) return undefined;
  return apiKey && value.includes(apiKey) ? undefined : value;
}

/**
 * Whether the failed request had been written to the connection in full. Node's request
 * emits 'finish' (and sets `writableFinished`) once its last byte was handed to the socket;
 * a connection refused, or reset before that, leaves it unset.
 */
function requestWasWritten(thrown: unknown): boolean {
  const request = axios.isAxiosError(thrown)
    ? (thrown.request as { writableFinished?: unknown } | undefined)
    : undefined;
  return request?.writableFinished === true;
}

/** Interprets one HTTP answer: the envelope on success, a `Failure` otherwise. */
function readAnswer(
  status: number,
  text: string,
  retryAfter: string | undefined,
  apiKey: string,
  etag?: string,
): Envelope | Failure {
  const parsed = parseJson(text);
  // No answer of the spec nests more than a handful of levels; the bridge carries no deeper result.
  if (parsed !== undefined && nestsDeeperThan(parsed, MAX_RESULT_DEPTH)) {
    return { ok: false, error: badResponse('bridge.tooDeep', status) };
  }
  // The key goes before anything is read, shortened or copied from the answer: a message cut
  // to length could otherwise keep part of an echoed key that no later scrub would match.
  const body = scrubSecrets(parsed, [apiKey]);
  if (status < 200 || status >= 300) {
    return { ok: false, error: errorFromResponse(status, body === undefined ? text : body, retryAfter) };
  }
  if (!isRecord(body)) {
    return { ok: false, error: badResponse('service.notJson', status) };
  }
  if (body.ok !== true || !('data' in body)) {
    return { ok: false, error: badResponse('service.unexpectedFormat', status) };
  }
  return {
    status,
    etag,
    data: body.data,
    meta: body.meta,
    message: plainServiceText(body.message),
  };
}

/** How long to wait before retrying a GET, or null when it should not be retried. */
export function retryDelay(error: BridgeError, attempt: number, policy: RetryPolicy): number | null {
  if (error.kind === 'rate_limited' && error.retryAfterMs !== undefined) {
    return error.retryAfterMs <= policy.maxWaitMs ? error.retryAfterMs : null;
  }
  if (error.kind !== 'offline' && error.kind !== 'server' && error.kind !== 'rate_limited') return null;
  return backoffDelay(attempt, { baseMs: policy.baseDelayMs, maxMs: policy.maxWaitMs });
}

function parseJson(text: string): unknown {
  if (typeof text !== 'string' || text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
