/**
 * The resource shapes of loyalty-api.md, asserted field by field: exact field names (no
 * more, no fewer) and the type of each. One place, so every conformance test checks the
 * same thing the spec lists.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { expect } from 'vitest';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** ISO 8601 date-time with an explicit offset (`Z` or `+hh:mm`). */
export const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
export const DATE = /^\d{4}-\d{2}-\d{2}$/;

const CUSTOMER_FIELDS = ['id', 'name', 'phone', 'email', 'birthday', 'status', 'cards', 'created_at', 'last_visit_at'];
const CARD_FIELDS = ['id', 'serial_number', 'status', 'program', 'visits', 'points', 'spent'];
const PROGRAM_FIELDS = ['id', 'name', 'type'];
const REWARD_FIELDS = [
  'code',
  'status',
  'name',
  'description',
  'type',
  'allowed_products',
  'customer_id',
  'earned_at',
  'expires_at',
  'redeemed_at',
];

const sorted = (list: string[]) => [...list].sort();

export function expectTimestamp(value: unknown): void {
  expect(value).toMatch(TIMESTAMP);
  expect(Number.isNaN(Date.parse(value as string))).toBe(false);
}

/** International form with a leading `+` and grouped digits, exactly as libphonenumber-js groups it. */
export function expectShownPhone(value: unknown): void {
  expect(value).toMatch(/^\+\d+( \d+)+$/);
  const parsed = parsePhoneNumberFromString(value as string);
  expect(parsed?.isValid()).toBe(true);
  expect(parsed?.formatInternational()).toBe(value);
}

export function expectProgram(program: any): void {
  expect(sorted(Object.keys(program))).toEqual(sorted(PROGRAM_FIELDS));
  expect(program.id).toMatch(UUID);
  expect(typeof program.name).toBe('string');
  expect(program.type).toBe('point');
}

export function expectCard(card: any): void {
  expect(sorted(Object.keys(card))).toEqual(sorted(CARD_FIELDS));
  expect(card.id).toMatch(UUID);
  expect(typeof card.serial_number).toBe('string');
  expect(card.serial_number.length).toBeGreaterThan(0);
  expect(card.status).toBe('active');
  expectProgram(card.program);
  for (const field of ['visits', 'points', 'spent']) {
    expect(Number.isInteger(card[field]), `card.${field} is an integer`).toBe(true);
  }
}

export function expectReward(reward: any): void {
  const fields = reward.type === 'points' ? [...REWARD_FIELDS, 'price'] : REWARD_FIELDS;
  expect(sorted(Object.keys(reward))).toEqual(sorted(fields));
  expect(reward.code).toMatch(/^RW-[A-Za-z0-9]+$/);
  expect(['available', 'redeemed', 'expired']).toContain(reward.status);
  expect(typeof reward.name).toBe('string');
  expect(reward.description === null || typeof reward.description === 'string').toBe(true);
  expect(['product', 'points']).toContain(reward.type);
  if (reward.type === 'points') expect(Number.isInteger(reward.price) && reward.price > 0).toBe(true);
  expect(sorted(Object.keys(reward.allowed_products))).toEqual(['products_list', 'quantity']);
  expect(Number.isInteger(reward.allowed_products.quantity)).toBe(true);
  expect(Array.isArray(reward.allowed_products.products_list)).toBe(true);
  for (const product of reward.allowed_products.products_list) expect(product).toMatch(UUID);
  expect(reward.customer_id).toMatch(UUID);
  expectTimestamp(reward.earned_at);
  if (reward.expires_at !== null) expectTimestamp(reward.expires_at);
  if (reward.redeemed_at !== null) expectTimestamp(reward.redeemed_at);
  // The state and the timestamps agree.
  expect(reward.redeemed_at !== null).toBe(reward.status === 'redeemed');
}

export function expectCustomer(customer: any, { withRewards }: { withRewards: boolean }): void {
  const fields = withRewards ? [...CUSTOMER_FIELDS, 'rewards'] : CUSTOMER_FIELDS;
  expect(sorted(Object.keys(customer))).toEqual(sorted(fields));
  expect(customer.id).toMatch(UUID);
  expect(typeof customer.name).toBe('string');
  expectShownPhone(customer.phone);
  // The spec types email as a string; the sandbox sends null when it is unset.
  expect(customer.email === null || typeof customer.email === 'string').toBe(true);
  if (customer.birthday !== null) expect(customer.birthday).toMatch(DATE);
  expect(customer.status).toBe('active');
  expect(Array.isArray(customer.cards)).toBe(true);
  for (const card of customer.cards) expectCard(card);
  expectTimestamp(customer.created_at);
  expectTimestamp(customer.last_visit_at);
  if (withRewards) {
    expect(Array.isArray(customer.rewards)).toBe(true);
    for (const reward of customer.rewards) {
      expectReward(reward);
      // Only the rewards awaiting redemption are listed.
      expect(reward.status).toBe('available');
      expect(reward.customer_id).toBe(customer.id);
    }
  }
}

/** The error body every failure answers with: `{ ok: false, error: { code, message, fields? } }`. */
export function expectError(reply: { status: number; body: any }, status: number, code: string): void {
  expect(reply.status, JSON.stringify(reply.body)).toBe(status);
  expect(reply.body?.ok).toBe(false);
  expect(reply.body.error.code).toBe(code);
  expect(typeof reply.body.error.message).toBe('string');
  expect(reply.body.error.message.length).toBeGreaterThan(0);
  expect(Object.keys(reply.body).sort()).toEqual(['error', 'ok']);
}

/** A 422 `validation_failed` whose `fields` names the given field with at least one message. */
export function expectFieldError(reply: { status: number; body: any }, field: string): void {
  expectError(reply, 422, 'validation_failed');
  const messages = reply.body.error.fields?.[field];
  expect(messages, `fields.${field} in ${JSON.stringify(reply.body.error.fields)}`).toBeInstanceOf(Array);
  expect(messages.length).toBeGreaterThan(0);
  for (const message of messages) expect(typeof message).toBe('string');
}
