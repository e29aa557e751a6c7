/**
 * scrubSecrets copies only what holds a secret: a clean page of customers is handed back as
 * itself (no deep copy per bridge call), a dirty one as a copy, and the input never changes.
 */
import { expect, test } from 'vitest';
import { scrubSecrets } from '../../../electron/log/scrub-secrets';

const KEY = 'sk-live-0123456789abcdef';

const page = () => ({
  ok: true,
  data: [
    { id: 'a', name: 'Layla', cards: [{ id: 'c1', program: { id: 'p', name: 'Coffee Club' } }] },
    { id: 'b', name: 'Omar', cards: [] },
  ],
  meta: { current_page: 1 },
});

test('a value without the secret comes back as itself', () => {
  const value = page();
  expect(scrubSecrets(value, [KEY])).toBe(value);
});

test('only the path to a secret is copied; the input is left as it was', () => {
  const value = page();
  value.data[1]!.name = `Omar ${KEY}`;
  const before = structuredClone(value);
  const scrubbed = scrubSecrets(value, [KEY]);
  expect(value).toEqual(before);
  expect(scrubbed).not.toBe(value);
  expect(scrubbed.data).not.toBe(value.data);
  expect(scrubbed.data[1]!.name).toBe('Omar [redacted]');
  // What held no secret is shared, not copied.
  expect(scrubbed.data[0]).toBe(value.data[0]);
  expect(scrubbed.meta).toBe(value.meta);
  expect(JSON.stringify(scrubbed)).not.toContain(KEY);
});

test('a secret in a property name, or deep in an array, is scrubbed and the order of properties kept', () => {
  const value = { first: 1, [KEY]: 2, last: [[['x', KEY]]] };
  const scrubbed = scrubSecrets(value, [KEY]);
  expect(Object.keys(scrubbed)).toEqual(['first', '[redacted]', 'last']);
  expect(scrubbed.last).toEqual([[['x', '[redacted]']]]);
  expect(value.last[0]![0]![1]).toBe(KEY);
});

test('an own __proto__ property (as JSON.parse makes one) stays a property, scrubbed, and sets no prototype', () => {
  const value = JSON.parse(`{"__proto__": {"polluted": "${KEY}"}, "other": "${KEY}"}`) as Record<string, unknown>;
  const scrubbed = scrubSecrets(value, [KEY]);
  expect(Object.getPrototypeOf(scrubbed)).toBe(Object.prototype);
  expect(Object.keys(scrubbed)).toEqual(['__proto__', 'other']);
  expect(JSON.stringify(scrubbed)).not.toContain(KEY);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
});

test('anything but a plain object is never passed on as it is', () => {
  class Holder {
    secret = KEY;
  }
  const holder = new Holder();
  const scrubbed = scrubSecrets({ holder }, [KEY]);
  expect(scrubbed.holder).not.toBe(holder);
  expect(scrubbed.holder).toEqual({ secret: '[redacted]' });
});
