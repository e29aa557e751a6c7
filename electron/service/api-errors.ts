import { MAX_RETRY_AFTER_MS } from '../../common/backoff';
import { isRecord } from '../../common/is-record';
import type { BridgeError, ErrorKind } from '../../common/contract';
import { replaceControlCharacters } from '../validation/control-characters';
import { plainServiceText } from './service-text';
import { ENGLISH, describe, type MainMessageKey, type Wording } from '../messages';

/**
 * Turns whatever came back from a loyalty service into the bridge's closed set of error
 * kinds. Tolerant by design: the sandbox answers `{ ok:false, error:{ code, message,
 * fields } }`, but a real service may answer Laravel-style `{ message, errors:{ f:[msg] } }`,
 * a bare string, an HTML error page, or nothing at all.
 *
 * Nothing here sees request headers, so the API key cannot leak through an error.
 */

// A service's field errors are shown beside the till's own fields: a few short names are plenty.
const MAX_FIELD_NAME = 64;
const MAX_FIELDS = 20;

export interface ErrorBodyParts {
  code?: string;
  message?: string;
  fields?: Record<string, string>;
}

/** Reads the useful parts of an error body of any shape; never throws. */
export function readErrorBody(body: unknown): ErrorBodyParts {
  if (typeof body === 'string') {
    const text = body.trim();
    if (!text || looksLikeMarkup(text)) return {};
    const message = plainServiceText(text);
    return message ? { message } : {};
  }
  if (!isRecord(body)) return {};
  const parts: ErrorBodyParts = {};
  const nested = isRecord(body.error) ? body.error : undefined;
  const code = nested?.code ?? body.code ?? (typeof body.error === 'string' ? body.error : undefined);
  if (typeof code === 'string' && /^[A-Za-z0-9_.-]{1,64}$/.test(code)) parts.code = code;
  const message = nested?.message ?? body.message ?? body.detail ?? body.title;
  const plain = plainServiceText(message);
  if (plain) parts.message = plain;
  const fields = readFields(nested?.fields ?? body.errors ?? body.fields);
  if (fields) parts.fields = fields;
  return parts;
}

function readFields(value: unknown): Record<string, string> | undefined {
  if (!isRecord(value)) return undefined;
  // A Map, then own properties: a field called `__proto__` or `constructor` is a field like any other.
  const fields = new Map<string, string>();
  for (const [rawName, messages] of Object.entries(value)) {
    if (fields.size >= MAX_FIELDS) break;
    // Longer names are not ours and are left out, never cut: a cut could leave part of a secret unmatched.
    const name = replaceControlCharacters(rawName, '').trim();
    if (name.length > MAX_FIELD_NAME) continue;
    const first = Array.isArray(messages) ? messages.find((m) => typeof m === 'string') : messages;
    const message = plainServiceText(first);
    if (name && message && !fields.has(name)) fields.set(name, message);
  }
  return fields.size > 0 ? Object.fromEntries(fields) : undefined;
}

/** The error for an HTTP answer that was not a success. */
export function errorFromResponse(status: number, body: unknown, retryAfterHeader?: string): BridgeError {
  const parts = readErrorBody(body);
  const kind = kindForStatus(status, parts.code);
  const error: BridgeError =
    parts.message !== undefined
      ? { kind, status, message: parts.message }
      : worded({ kind, status }, defaultWords(kind, status));
  if (parts.code) error.code = parts.code;
  if (parts.fields && (kind === 'validation' || kind === 'reward_unavailable')) error.fields = parts.fields;
  if (kind === 'rate_limited') {
    const retryAfterMs = parseRetryAfter(retryAfterHeader);
    if (retryAfterMs !== undefined) error.retryAfterMs = retryAfterMs;
  }
  return error;
}

export function kindForStatus(status: number, code?: string): ErrorKind {
  if (status === 401 || status === 403) return 'unauthorized';
  if (status === 404 || status === 410) return 'not_found';
  if (status === 408) return 'timeout';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'server';
  if (code === 'reward_unavailable') return 'reward_unavailable';
  if (status === 400 || status === 409 || status === 413 || status === 415 || status === 422) return 'validation';
  return 'bad_response';
}

function defaultWords(kind: ErrorKind, status: number): OwnWords {
  switch (kind) {
    case 'unauthorized':
      return { key: 'service.refusedKey' };
    case 'not_found':
      return { key: 'service.notFound' };
    case 'timeout':
      return { key: 'service.tookTooLong' };
    case 'rate_limited':
      return { key: 'service.busy' };
    case 'server':
      return { key: 'service.problem', params: { status: String(status) } };
    case 'reward_unavailable':
      return { key: 'service.rewardUnavailable' };
    case 'validation':
      return { key: 'service.notAccepted' };
    default:
      return { key: 'service.unexpectedAnswer', params: { status: String(status) } };
  }
}

/**
 * The till's own words for a failure, where the service said nothing: the error's message
 * is English (for the log and for tests), and `inInterfaceLanguage` rewords it at the
 * bridge. Kept beside the error, not in it, so nothing extra crosses the bridge.
 */
interface OwnWords {
  key: MainMessageKey;
  params?: Record<string, string>;
}

const ownWords = new WeakMap<BridgeError, OwnWords>();

function worded<E extends BridgeError>(error: Omit<E, 'message'>, words: OwnWords): E {
  const full = { ...error, message: describe(ENGLISH, words.key, words.params) } as E;
  ownWords.set(full, words);
  return full;
}

/** `error` with the till's own message in `wording`'s language; a service's message is kept. */
export function inInterfaceLanguage(error: BridgeError, wording: Wording): BridgeError {
  const words = ownWords.get(error);
  return words ? { ...error, message: describe(wording, words.key, words.params) } : error;
}

/** `Retry-After` as milliseconds, at most `MAX_RETRY_AFTER_MS`: delta-seconds or an HTTP date. */
export function parseRetryAfter(header: string | undefined, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Math.min(MAX_RETRY_AFTER_MS, Number(text) * 1000);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.min(MAX_RETRY_AFTER_MS, Math.max(0, date - now));
}

export function badResponse(key: MainMessageKey, status?: number): BridgeError {
  return worded(status !== undefined ? { kind: 'bad_response', status } : { kind: 'bad_response' }, { key });
}

/**
 * The error for a request that got no HTTP answer. Takes only the error's `code` and
 * whether our own deadline fired: an axios error carries the request config, headers
 * and all, and must never be passed on.
 */
export function errorFromTransport(code: string | undefined, deadlineFired: boolean): BridgeError {
  if (deadlineFired || code === 'ETIMEDOUT' || code === 'ECONNABORTED' || code === 'ERR_CANCELED') {
    return worded({ kind: 'timeout' }, { key: 'service.noAnswerInTime' });
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return worded({ kind: 'offline', code }, { key: 'service.dns' });
  }
  if (code === 'ERR_FR_MAX_CONTENT_LENGTH_EXCEEDED' || code === 'ERR_BAD_RESPONSE') {
    return badResponse('service.unreadable');
  }
  if (code && /^(CERT_|ERR_TLS|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_)/.test(code)) {
    return worded({ kind: 'offline', code }, { key: 'service.certificate' });
  }
  const error: BridgeError = worded({ kind: 'offline' }, { key: 'service.unreachable' });
  if (code && /^[A-Z_]{2,40}$/.test(code)) error.code = code;
  return error;
}

function looksLikeMarkup(text: string): boolean {
  return /^<(!doctype|html|\?xml|head|body)/i.test(text) || /<\/(html|body|div|p)>/i.test(text);
}
