import { z } from 'zod';
import type { LinkRequest, LinkRoute } from '../../common/contract';
import { cashierName, name, orderReference, phone, rewardCode, searchText } from '../validation/bridge-payloads';
import { countrySchema } from '../storage/settings';
import { fieldErrors } from '../validation/validation-errors';
import { LINK_SCHEME } from './link-scheme';
import { ENGLISH, describe, msg, type MainMessageKey, type Wording } from '../messages';

/**
 * Reading a `loyalty-till://` link. Any web page and any program on the till can open one,
 * so a link is read as hostile input: parsed with `URL`, each value checked with the same
 * zod schemas as the bridge's payloads, and anything unexpected (an unknown route or
 * parameter, a repeated parameter, a control character, a fragment, a user name) refuses
 * the whole link. A link only ever says what to open and what to fill in.
 */

export { LINK_SCHEME };
/** Longer than any honest link (the longest value allowed is 200 characters). */
export const MAX_LINK_LENGTH = 2048;

/**
 * A refused link says why in English (`reason`, for the log) and in the interface's
 * language when asked (`reasonIn`, for the cashier's notice).
 */
export type LinkParse =
  | { ok: true; request: LinkRequest }
  | { ok: false; route?: LinkRoute; reason: string; reasonIn: (wording: Wording) => string };

/** Why a link was refused, worded on demand. */
type Refusal = (wording: Wording) => string;

const says =
  (key: MainMessageKey, params?: Record<string, string | number>): Refusal =>
  (wording) =>
    describe(wording, key, params);

// Control characters, and the Unicode marks that reorder or hide text on screen.
const INVISIBLE = /[\p{Cc}\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/u;

// Each route: its parameters, validated by the bridge's own field schemas (and the country
// and the cashier as Settings reads them). Strict: an unknown parameter (`redeem=1`,
// `confirm=yes`) refuses the link. Every route may name the cashier at the POS.
const country = countrySchema;
const cashier = cashierName.optional();
const routes = {
  customer: z
    .strictObject({ phone, country: country.optional(), cashier })
    .transform((link) => ({ route: 'customer' as const, ...dropUndefined(link) })),
  reward: z
    .strictObject({
      code: rewardCode,
      phone: phone.optional(),
      country: country.optional(),
      order: orderReference.optional(),
      cashier,
    })
    .refine((link) => link.country === undefined || link.phone !== undefined, {
      path: ['country'],
      message: msg('link.countryNeedsPhone'),
    })
    .transform((link) => ({ route: 'reward' as const, ...dropUndefined(link) })),
  register: z
    .strictObject({ name: name.optional(), phone: phone.optional(), country: country.optional(), cashier })
    .refine((link) => link.country === undefined || link.phone !== undefined, {
      path: ['country'],
      message: msg('link.countryNeedsPhone'),
    })
    .transform((link) => ({ route: 'register' as const, ...dropUndefined(link) })),
  find: z
    .strictObject({ q: searchText, cashier })
    .transform((link) => ({ route: 'find' as const, ...dropUndefined(link) })),
} satisfies Record<LinkRoute, z.ZodType<LinkRequest>>;

export const LINK_ROUTES = Object.keys(routes) as LinkRoute[];

// Every parameter any route takes; anything else (`__proto__`, `constructor`, `redeem`) is
// refused before it reaches an object. Which route takes which is the schemas' business.
const LINK_PARAMETERS = new Set(['phone', 'country', 'code', 'order', 'name', 'q', 'cashier']);

function isRoute(host: string): host is LinkRoute {
  return Object.hasOwn(routes, host);
}

/** Reads one link. Never throws: a link that cannot be read is refused with a reason. */
export function parseTillLink(raw: unknown): LinkParse {
  if (typeof raw !== 'string') return refuse(says('link.notText'));
  if (raw.length > MAX_LINK_LENGTH) return refuse(says('link.tooLong', { max: MAX_LINK_LENGTH }));
  if (!raw.toLowerCase().startsWith(`${LINK_SCHEME}:`))
    return refuse(says('link.wrongScheme', { scheme: LINK_SCHEME }));
  if (INVISIBLE.test(raw)) return refuse(says('link.controlCharacters'));

  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse(says('link.malformed'));
  }
  if (url.protocol !== `${LINK_SCHEME}:`) return refuse(says('link.wrongScheme', { scheme: LINK_SCHEME }));
  if (!raw.slice(LINK_SCHEME.length + 1).startsWith('//')) return refuse(says('link.noRoute', { scheme: LINK_SCHEME }));
  if (url.username || url.password || url.port) return refuse(says('link.credentials'));
  if (url.hash || raw.includes('#')) return refuse(says('link.fragment'));
  if (url.pathname !== '' && url.pathname !== '/') return refuse(says('link.path'));

  const host = url.hostname.toLowerCase();
  if (!isRoute(host))
    return refuse(says('link.unknownRoute', { route: printable(host), routes: LINK_ROUTES.join(', ') }));

  const params = readParameters(url.search, host);
  if (!params.ok) return refuse(params.reason, host);

  const parsed = routes[host].safeParse(params.values);
  if (!parsed.success) {
    const { error } = parsed;
    return refuse((wording) => describeProblems(fieldErrors(error, wording), wording), host);
  }
  return { ok: true, request: parsed.data };
}

type Parameters = { ok: true; values: Record<string, string> } | { ok: false; reason: Refusal };

/**
 * The query, decoded by hand rather than with URLSearchParams: a repeated parameter must be
 * refused, not silently resolved to its first or last value, and the `+` of an international
 * phone number must survive (URLSearchParams turns every `+` into a space).
 */
function readParameters(search: string, route: LinkRoute): Parameters {
  const values: Record<string, string> = Object.create(null) as Record<string, string>;
  const query = search.startsWith('?') ? search.slice(1) : search;
  for (const pair of query.split('&')) {
    if (pair === '') continue;
    const cut = pair.indexOf('=');
    const rawKey = cut < 0 ? pair : pair.slice(0, cut);
    const rawValue = cut < 0 ? '' : pair.slice(cut + 1);
    const key = decode(rawKey.replace(/\+/g, ' '));
    if (key === null) return { ok: false, reason: says('link.parameterEncoding') };
    if (!LINK_PARAMETERS.has(key))
      return { ok: false, reason: says('link.unknownParameter', { parameter: printable(key), route }) };
    if (Object.hasOwn(values, key)) return { ok: false, reason: says('link.repeatedParameter', { parameter: key }) };
    const value = decode(key === 'phone' ? phonePluses(rawValue) : rawValue.replace(/\+/g, ' '));
    if (value === null) return { ok: false, reason: says('link.valueEncoding', { parameter: key }) };
    if (INVISIBLE.test(value)) return { ok: false, reason: says('link.valueControlCharacters', { parameter: key }) };
    values[key] = value;
  }
  return { ok: true, values: { ...values } };
}

/** In a phone, a leading `+` is the international prefix; any other `+` is a form-encoded space. */
function phonePluses(raw: string): string {
  return raw.startsWith('+') ? `+${raw.slice(1).replace(/\+/g, ' ')}` : raw.replace(/\+/g, ' ');
}

function decode(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/** For messages: short, and nothing a log reader could mistake for markup or a new line. */
function printable(text: string): string {
  const clean = text.replace(/[^\w.-]/g, '?');
  return clean.length > 40 ? `${clean.slice(0, 40)}…` : clean;
}

/** Every problem with its parameter, in one line: "code: A reward code looks like RW-…". */
function describeProblems(fields: Record<string, string>, wording: Wording): string {
  return Object.entries(fields)
    .map(([field, message]) => (field === '_' ? message : describe(wording, 'problem.ofField', { field, message })))
    .join(' ');
}

function refuse(reasonIn: Refusal, route?: LinkRoute): LinkParse {
  const reason = reasonIn(ENGLISH);
  return route ? { ok: false, route, reason, reasonIn } : { ok: false, reason, reasonIn };
}

function dropUndefined<T extends Record<string, unknown>>(value: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as never;
}

/** The `loyalty-till:` arguments of a command line (Windows passes the link in argv). */
export function linksInArgv(argv: readonly string[]): string[] {
  return argv.filter((arg) => typeof arg === 'string' && arg.toLowerCase().startsWith(`${LINK_SCHEME}:`));
}
