import { afterEach, expect, test } from 'vitest';
import { startSandboxThread, type SandboxThread } from '../bench/sandbox-thread';
import { get } from '../sandbox/support/http';

const KEY = 'thread-test-key';
let open: SandboxThread | null = null;
afterEach(async () => {
  await open?.close();
  open = null;
});

test("the fill section's sandbox thread serves the customers and keys it was given", async () => {
  open = await startSandboxThread({ customers: 250, keys: { [KEY]: 'coffee-club' } });
  const page = await get(open, '/v1/customers?per_page=100', { key: KEY });
  expect(page.status).toBe(200);
  expect(page.body.meta.total).toBeGreaterThanOrEqual(250);
  expect((await get(open, '/v1/customers', { key: 'not-a-key' })).status).toBe(401);
});

test('its faults are set and reset from the bench, and it stops answering once closed', async () => {
  const sandbox = await startSandboxThread({ customers: 0, keys: { [KEY]: 'coffee-club' } });
  open = sandbox;
  await sandbox.faults.set({ latencyMs: 300 });
  let started = performance.now();
  expect((await get(sandbox, '/v1/customers', { key: KEY })).status).toBe(200);
  expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  await sandbox.faults.reset();
  started = performance.now();
  await get(sandbox, '/v1/customers', { key: KEY });
  expect(performance.now() - started).toBeLessThan(290);
  open = null;
  await sandbox.close();
  await expect(get(sandbox, '/v1/customers', { key: KEY })).rejects.toThrow();
});

test('a sandbox that cannot start fails the bench with its reason', async () => {
  await expect(startSandboxThread({ keys: { [KEY]: 'no-such-programme' } })).rejects.toThrow(
    /sandbox thread: Unknown programme "no-such-programme"/,
  );
});
