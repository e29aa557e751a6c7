/**
 * The refresh's page fetcher (renderer/offline/refresh/page-fetcher.ts): an answer that comes
 * while the cashier's own work runs (a redemption being queued, a search) is prepared only once
 * that work is done, so the cashier's requests do not wait behind the preparing.
 */
import { expect, test } from 'vitest';
import { PageFetcher } from '../../../../renderer/offline/refresh/page-fetcher';
import { customer } from '../support/fixtures';

test('an answer that comes while the cashier is busy is prepared once they are done', async () => {
  let idle: () => void = () => undefined;
  let busy = true;
  const fetcher = new PageFetcher({
    api: {
      customerPage: async () => ({
        ok: true as const,
        notModified: false as const,
        data: [customer('c-1', 'Layla Haddad', '+966 50 123 4567')],
        meta: { current_page: 1, last_page: 1, per_page: 100, total: 1 },
      }),
    },
    cache: {
      expectedSearchIn: () => null,
      whenSearchesIdle: () => (busy ? new Promise<void>((resolve) => (idle = resolve)) : Promise.resolve()),
    },
    perPage: 100,
    now: () => new Date('2026-11-29T09:00:00Z'),
    stopRequested: () => false,
  });
  let fetched = false;
  const page = fetcher.fetchPage(1, null).then((result) => {
    fetched = true;
    return result;
  });
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(fetched).toBe(false);
  busy = false;
  idle();
  const result = await page;
  expect(result.customers.items.map((item) => item.id)).toEqual(['c-1']);
});
