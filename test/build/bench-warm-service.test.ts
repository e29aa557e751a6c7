import { afterEach, expect, test } from 'vitest';
import { startSandbox } from '../../sandbox';
import { warmService } from '../bench/warm-service';
import { get } from '../sandbox/support/http';

const KEY = 'warm-test-key';
let close: (() => Promise<void>) | null = null;
afterEach(async () => {
  await close?.();
  close = null;
});

async function sandboxWith(customers: number) {
  const sandbox = await startSandbox({ customers, keys: { [KEY]: 'coffee-club' } });
  close = sandbox.close;
  return sandbox;
}

test("the bench's warm-up asks for every page of the customer list once", async () => {
  const sandbox = await sandboxWith(1_050);
  const total = (await get(sandbox, '/v1/customers?per_page=1', { key: KEY })).body.meta.total as number;
  expect(await warmService(sandbox.url, KEY)).toEqual({ pages: Math.ceil(total / 100), customers: total });
});

test('a warm-up the sandbox refuses stops the bench with the page and status', async () => {
  const sandbox = await sandboxWith(0);
  await expect(warmService(sandbox.url, 'not-a-key')).rejects.toThrow('page 1 answered 401');
});
