/**
 * Entity tags on GET /v1/customers: a till that pages the whole base sends back the tag it
 * stored, and an unchanged page costs a 304 without a body.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { DEMO_FIXTURES, startSandbox, type Sandbox } from '../../sandbox';
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

/** Every page of the whole list at `perPage`, as a till pages it: status, tag and body. */
async function allPages(perPage: number, tags: string[] = []) {
  const pages: Array<{ status: number; tag: string; body: any }> = [];
  for (let n = 1; ; n++) {
    const tag = tags[n - 1];
    const reply = await get(
      sandbox,
      `/v1/customers?page=${n}&per_page=${perPage}`,
      tag === undefined ? {} : { headers: { 'if-none-match': tag } },
    );
    pages.push({ status: reply.status, tag: reply.headers.get('etag')!, body: reply.body });
    const lastPage = reply.status === 304 ? tags.length : reply.body.meta.last_page;
    if (n >= lastPage) return pages;
  }
}

/** The page (of 100) listing a customer, with its tag. */
async function pageListing(customerId: string) {
  const pages = await allPages(100);
  const at = pages.findIndex((p) => p.body.data.some((customer: { id: string }) => customer.id === customerId));
  expect(at).toBeGreaterThanOrEqual(0);
  return { n: at + 1, tag: pages[at]!.tag };
}

test("a redemption changes the tag of the page that shows the customer's card, and only that page's", async () => {
  const { layla } = DEMO_FIXTURES;
  const before = await pageListing(layla.id);
  const others = await allPages(100);
  const redeemed = await post(sandbox, '/v1/rewards/redeem', {
    reward_code: layla.rewards.availablePoints,
    phone: layla.phone,
  });
  expect(redeemed.status).toBe(200);
  const after = await page(before.n, before.tag);
  expect(after.status).toBe(200);
  expect(after.headers.get('etag')).not.toBe(before.tag);
  const card = after.body.data
    .find((customer: { id: string }) => customer.id === layla.id)
    .cards.find((c: { program: { name: string } }) => c.program.name === 'Coffee Club');
  expect(card.points).toBe(redeemed.body.data.card.points);
  // A product reward changes no card: the page is the same, and so is its tag.
  const { omar } = DEMO_FIXTURES;
  const omarPage = await pageListing(omar.id);
  expect((await post(sandbox, '/v1/rewards/redeem', { reward_code: omar.reward, phone: omar.phone })).status).toBe(200);
  expect((await page(omarPage.n, omarPage.tag)).status).toBe(304);
  for (const [i, other] of others.entries()) {
    if (i + 1 !== before.n) expect((await page(i + 1, other.tag)).status).toBe(304);
  }
});

test('a known phone registered on another programme gets a card, which changes the tag of its page', async () => {
  await sandbox.close();
  sandbox = await startSandbox({ keys: { 'demo-key': 'coffee-club', 'bakery-key': 'bakery' } });
  const { soren } = DEMO_FIXTURES;
  const before = await pageListing(soren.id);
  const again = await post(sandbox, '/v1/customers', { name: soren.name, phone: soren.phone });
  expect(again.status).toBe(200);
  expect((await page(before.n, before.tag)).status).toBe(304);
  const carded = await post(sandbox, '/v1/customers', { name: soren.name, phone: soren.phone }, { key: 'bakery-key' });
  expect(carded.status).toBe(200);
  expect(carded.body.data.cards).toHaveLength(2);
  const after = await page(before.n, before.tag);
  expect(after.status).toBe(200);
  expect(after.body.data.find((customer: { id: string }) => customer.id === soren.id).cards).toHaveLength(2);
});

test('a registration that opens a new last page changes the tag of every page', async () => {
  // 305 demo customers fill exactly 61 pages of 5.
  const pages = await allPages(5);
  expect(pages).toHaveLength(61);
  const tags = pages.map((p) => p.tag);
  expect((await allPages(5, tags)).every((p) => p.status === 304)).toBe(true);
  expect((await post(sandbox, '/v1/customers', { name: 'Nora Berg', phone: '+4791234567' })).status).toBe(201);
  const after = await allPages(5, tags);
  expect(after).toHaveLength(62);
  expect(after.every((p) => p.status === 200)).toBe(true);
  expect(after.at(-1)!.body.data.map((customer: { name: string }) => customer.name)).toEqual(['Nora Berg']);
});

test('whatever changes, a page answered 304 is exactly the page the till already has', async () => {
  const { layla, omar, soren, lukasz, isik } = DEMO_FIXTURES;
  const people = [layla, omar, soren, lukasz, isik];
  const change = fc.oneof(
    fc.record({ kind: fc.constant('rename' as const), who: fc.nat(4), name: fc.constantFrom('Ana', 'Bo Li', 'Zoë') }),
    fc.record({ kind: fc.constant('email' as const), who: fc.nat(4), email: fc.constantFrom(null, 'x@example.com') }),
    fc.record({
      kind: fc.constant('redeem' as const),
      code: fc.constantFrom(...Object.values(layla.rewards), omar.reward),
    }),
    fc.record({ kind: fc.constant('register' as const), phone: fc.constantFrom('+4791234567', '+4791234568') }),
  );
  await fc.assert(
    fc.asyncProperty(fc.array(change, { minLength: 1, maxLength: 5 }), async (changes) => {
      await sandbox.close();
      sandbox = await startSandbox();
      let held = await allPages(20);
      for (const step of changes) {
        if (step.kind === 'rename') await put(sandbox, `/v1/customers/${people[step.who]!.id}`, { name: step.name });
        if (step.kind === 'email') await put(sandbox, `/v1/customers/${people[step.who]!.id}`, { email: step.email });
        if (step.kind === 'redeem')
          await post(sandbox, '/v1/rewards/redeem', { reward_code: step.code, phone: layla.phone });
        if (step.kind === 'register') await post(sandbox, '/v1/customers', { name: 'New Person', phone: step.phone });
        const conditional = await allPages(
          20,
          held.map((p) => p.tag),
        );
        const fresh = await allPages(20);
        expect(conditional).toHaveLength(fresh.length);
        for (const [i, answer] of conditional.entries()) {
          const now = fresh[i]!;
          if (answer.status === 304) {
            expect(answer.tag).toBe(now.tag);
            expect(held[i]!.body.data).toEqual(now.body.data);
            expect(held[i]!.body.meta.last_page).toBe(now.body.meta.last_page);
          } else {
            expect(answer.status).toBe(200);
            expect(answer.body.data).toEqual(now.body.data);
          }
        }
        held = fresh;
      }
    }),
    { numRuns: 8 },
  );
});

test('tags come from content: the same data after a restart answers 304, a change made before it does not', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'sandbox-tags-'));
  const dataFile = join(dir, 'data.json');
  try {
    await sandbox.close();
    sandbox = await startSandbox({ dataFile });
    const { layla } = DEMO_FIXTURES;
    const held = await pageListing(layla.id);
    const other = held.n === 1 ? 2 : 1;
    const otherTag = (await page(other)).headers.get('etag')!;
    expect((await put(sandbox, `/v1/customers/${layla.id}`, { name: 'Layla Haddad-Nour' })).status).toBe(200);
    await sandbox.close();
    sandbox = await startSandbox({ dataFile });
    expect((await page(other, otherTag)).status).toBe(304);
    const changed = await page(held.n, held.tag);
    expect(changed.status).toBe(200);
    expect(changed.body.data.map((customer: { name: string }) => customer.name)).toContain('Layla Haddad-Nour');
  } finally {
    await sandbox.close();
    sandbox = await startSandbox();
    await rm(dir, { recursive: true, force: true });
  }
});
