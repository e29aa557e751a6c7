/**
 * Dialects: how the sandbox writes its answers. Requests are read the same way in every one.
 *
 * The spec fixes the success envelope and each resource's fields, and leaves much else open
 * ("not shown"): the error body, extra fields, how precise a timestamp is. The app must read
 * any faithful service, so the sandbox can speak two dialects:
 *
 * - `spec`: the sandbox's own choices, documented in docs/sandbox.md.
 * - `laravel`: what a service built from the same spec on Laravel sends by the framework's
 *   defaults: errors as its exception handler renders them for JSON, the paginator's extra
 *   keys, Carbon timestamps, a `date`-cast birthday as a date-time, numbers as the text PDO
 *   hands over, and the columns a migration adds (`updated_at`, `deleted_at`, keys).
 *
 * Routes build the spec's wire forms; the server gives every answer, success or error, to
 * its dialect's writer just before sending it, so the dialects differ here and nowhere else.
 */
import { FIELD_REQUIRED, ServiceError, type FieldErrors } from './errors';
import { laravelPagination } from './laravel-paginator';
import type { cardJson, PageMeta, rewardJson } from './model';
import type { LoyaltyStore, StoredRecords } from './store';

export const DIALECTS = ['spec', 'laravel'] as const;
export type Dialect = (typeof DIALECTS)[number];

export const isDialect = (value: unknown): value is Dialect => DIALECTS.includes(value as Dialect);

/** A successful answer in the spec's terms: `data` holds the spec's wire forms. */
export interface Success {
  message?: string;
  data: unknown;
  meta?: PageMeta;
}

export interface AnswerWriter {
  /** The body of a successful answer; `url` is the request's, which links to other pages start from. */
  success(answer: Success, url: URL): unknown;
  error(error: ServiceError): unknown;
}

export function answerWriter(dialect: Dialect, records: StoredRecords): AnswerWriter {
  return dialect === 'laravel' ? laravelWriter(records) : SPEC_WRITER;
}

/** The spec's success envelope; `links` is only ever the laravel paginator's. */
function envelope(message: string | undefined, data: unknown, meta?: unknown, links?: unknown) {
  return { ok: true, ...(message ? { message } : {}), data, ...(links ? { links } : {}), ...(meta ? { meta } : {}) };
}

const SPEC_WRITER: AnswerWriter = {
  success: ({ message, data, meta }) => envelope(message, data, meta),
  error: (error) => error.body(),
};

function laravelWriter(records: StoredRecords): AnswerWriter {
  const resources = laravelResources(records);
  return {
    // The envelope stays the spec's (the spec fixes it); a page gains the paginator's keys.
    success: ({ message, data, meta }, url) => {
      const page = meta && laravelPagination(meta, Array.isArray(data) ? data.length : 0, url);
      return envelope(message, resources(data), page?.meta, page?.links);
    },
    error: laravelError,
  };
}

/** Errors as Laravel's exception handler renders them for a JSON request, debug off. */
function laravelError(error: ServiceError) {
  // Without debug, Laravel never shows a server error's own message.
  if (error.status >= 500) return { message: 'Server Error' };
  switch (error.code) {
    case 'unauthorized':
      return { message: 'Unauthenticated.' };
    case 'rate_limited':
      return { message: 'Too Many Attempts.' };
    case 'validation_failed':
      return validationError(error.fields ?? {});
    case 'reward_unavailable':
      // The one error code the spec names: a service built from it sends the code as well.
      return { message: error.message, code: error.code };
    default:
      return { message: error.message };
  }
}

/** A ValidationException: every field's messages, and the first one with a count of the others. */
function validationError(fields: FieldErrors) {
  const errors = Object.fromEntries(
    Object.entries(fields).map(([field, messages]) => [
      field,
      // Laravel's messages name the field ("The reward code field is required.").
      messages.map((text) => (text === FIELD_REQUIRED ? `The ${field.replaceAll('_', ' ')} field is required.` : text)),
    ]),
  );
  const [first = 'The given data was invalid.', ...others] = Object.values(errors).flat();
  const more =
    others.length === 1 ? ' (and 1 more error)' : others.length > 1 ? ` (and ${others.length} more errors)` : '';
  return { message: `${first}${more}`, errors };
}

type RewardWire = ReturnType<typeof rewardJson>;
type CardWire = ReturnType<typeof cardJson>;
type CustomerWire = ReturnType<LoyaltyStore['register']>['customer'] & { rewards?: RewardWire[] };

/** Carbon's JSON form, Laravel's default for every date: the same instant, to the microsecond, with `Z`. */
const carbon = (timestamp: string | null) =>
  timestamp === null ? null : new Date(timestamp).toISOString().replace(/Z$/, '000Z');

/** The spec's resources as Eloquent models serialise them. */
function laravelResources(records: StoredRecords): (data: unknown) => unknown {
  const stored = <T>(record: T | undefined, what: string): T => {
    if (record === undefined) throw new ServiceError(500, 'server_error', `No stored ${what} behind the answer.`);
    return record;
  };

  const reward = (shown: RewardWire) => {
    const { record, row } = stored(records.reward(shown.code), 'reward');
    return {
      id: row,
      ...shown,
      // PDO hands a decimal column over as text, with its scale.
      ...(shown.price === undefined ? {} : { price: shown.price.toFixed(2) }),
      allowed_products: { ...shown.allowed_products, quantity: String(shown.allowed_products.quantity) },
      card_id: record.card_id,
      earned_at: carbon(shown.earned_at),
      expires_at: carbon(shown.expires_at),
      redeemed_at: carbon(shown.redeemed_at),
    };
  };

  const card = ({ id, ...shown }: CardWire) => {
    const record = stored(records.card(id), 'card');
    const program = stored(records.program(shown.program.id), 'programme');
    return {
      id,
      customer_id: record.customer_id,
      ...shown,
      program: { ...shown.program, slug: program.slug },
      // MySQL's integers reach PHP as text unless PDO is told to use native types.
      visits: String(shown.visits),
      points: String(shown.points),
      spent: String(shown.spent),
      // The demo data's cards were made with their customer.
      created_at: carbon(record.created_at ?? records.customer(record.customer_id)?.created_at ?? null),
    };
  };

  const customer = ({ rewards, ...shown }: CustomerWire) => {
    const record = stored(records.customer(shown.id), 'customer');
    return {
      ...shown,
      // A `date` cast is a Carbon at midnight UTC, serialised like every other date.
      birthday: shown.birthday === null ? null : carbon(`${shown.birthday}T00:00:00Z`),
      cards: shown.cards.map(card),
      created_at: carbon(shown.created_at),
      last_visit_at: carbon(shown.last_visit_at),
      updated_at: carbon(record.updated_at ?? record.created_at),
      // A model with soft deletes; a deleted customer is never shown.
      deleted_at: null,
      ...(rewards ? { rewards: rewards.map(reward) } : {}),
    };
  };

  /** Each resource is told by a field only it has: a customer's cards, a card's serial number, a reward's code. */
  const resource = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(resource);
    if (value === null || typeof value !== 'object') return value;
    if ('cards' in value) return customer(value as CustomerWire);
    if ('serial_number' in value) return card(value as CardWire);
    if ('code' in value) return reward(value as RewardWire);
    // A redemption's `{ reward, card }`.
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, resource(inner)]));
  };
  return resource;
}
