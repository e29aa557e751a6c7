/**
 * Entity tags on GET /v1/customers: a till that pages the whole base sends back the tag it
 * stored, and an unchanged page costs a 304 without a body.
 */
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox';
import { get, post, put } from './support/http';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 60_000 });

let sandbox: Sandbox;
beforeEach(async () => {
  sandbox = await startSandbox();
});
afterEach(() => sandbox.close());

const page = (n: number, tag?: string) =>
  get(sandbox, `/v1/customers?page=${n}&per_page=100`, tag === undefined ? {} : { headers: { 'if-none-match': tag } });

test('a list page carries a strong tag; the same tag back is a 304 with no body, weak or in a list too', async () => {
  const first = await page(1);
  expect(first.status).toBe(200);
  const tag = first.headers.get('etag');
  expect(tag).toMatch(/^"[A-Za-z0-9_-]+"$/);
  expect((await page(1)).headers.get('etag')).toBe(tag);

  const again = await page(1, tag!);
  expect(again.status).toBe(304);
  expect(again.text).toBe('');
  expect(again.headers.get('etag')).toBe(tag);
  expect((await page(1, `W/${tag}`)).status).toBe(304);
  expect((await page(1, `"other", ${tag}`)).status).toBe(304);
  expect((await page(1, '*')).status).toBe(304);
  // Another page's tag, or a stale one, gets the page.
  const second = await page(2);
  expect(second.headers.get('etag')).not.toBe(tag);
  expect((await page(1, second.headers.get('etag')!)).status).toBe(200);
});

test('a registration changes the tag of the page it lands on, not of the pages before it', async () => {
  const first = await page(1);
  const lastPage: number = first.body.meta.last_page;
  const last = await page(lastPage);
  expect(last.body.data.length).toBeLessThan(100);
  const created = await post(sandbox, '/v1/customers', { name: 'Nora Berg', phone: '+4791234567' });
  expect(created.status).toBe(201);
  expect((await page(1, first.headers.get('etag')!)).status).toBe(304);
  const changed = await page(lastPage, last.headers.get('etag')!);
  expect(changed.status).toBe(200);
  expect(changed.body.data.map((customer: { name: string }) => customer.name)).toContain('Nora Berg');
});

test('a correction changes the tag of the page that lists the customer', async () => {
  const first = await page(1);
  const id: string = first.body.data[0].id;
  const updated = await put(sandbox, `/v1/customers/${id}`, { name: 'Renamed Customer' });
  expect(updated.status).toBe(200);
  expect((await page(1, first.headers.get('etag')!)).status).toBe(200);
});
