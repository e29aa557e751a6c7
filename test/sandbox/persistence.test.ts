/**
 * The data file: written atomically (never half-written, no temporary files left behind),
 * every acknowledged change on disk, and a damaged file refused rather than replaced.
 */
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEMO_FIXTURES, startSandbox } from '../../sandbox';
import { byPhone, get, post, put } from './support/http';

// Real HTTP on a shared machine: generous limits, so that load is not taken for a failure.
vi.setConfig({ testTimeout: 30_000, hookTimeout: 60_000 });

const { layla, omar } = DEMO_FIXTURES;
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sandbox-persist-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A distinct valid UK mobile for each index. */
const ukMobile = (i: number) => `+4474009${String(10000 + i).slice(-5)}`;

describe('the data file', () => {
  it('is always whole, valid JSON while a burst of concurrent writes runs, and no temporary file is left behind', async () => {
    const dataFile = join(dir, 'data.json');
    const sandbox = await startSandbox({ dataFile });
    const initial = JSON.parse(await readFile(dataFile, 'utf8'));
    const writes = 60;

    let done = false;
    const burst = Promise.all([
      ...Array.from({ length: writes }, (_, i) =>
        post(sandbox, '/v1/customers', { name: `Burst ${i}`, phone: ukMobile(i) }),
      ),
      post(sandbox, '/v1/rewards/redeem', { reward_code: omar.reward, phone: omar.phone }),
      put(sandbox, `/v1/customers/${layla.id}`, { email: 'layla.new@example.com' }),
    ]).finally(() => {
      done = true;
    });

    // Read the file again and again while the writes land; every read must parse.
    const counts: number[] = [];
    while (!done) {
      const text = await readFile(dataFile, 'utf8');
      const data = JSON.parse(text);
      expect(data.version).toBe(1);
      counts.push(data.customers.length);
    }
    const replies = await burst;
    expect(replies.every((reply) => reply.status === 200 || reply.status === 201)).toBe(true);
    expect(counts.length).toBeGreaterThan(0);
    // Each snapshot is a moment of the state: it only grows.
    for (let i = 1; i < counts.length; i++) expect(counts[i]).toBeGreaterThanOrEqual(counts[i - 1] as number);

    // Every acknowledged change is on disk before close.
    const after = JSON.parse(await readFile(dataFile, 'utf8'));
    expect(after.customers).toHaveLength(initial.customers.length + writes);
    expect(after.rewards.find((r: any) => r.code === omar.reward).redeemed_at).not.toBeNull();
    expect(after.customers.find((c: any) => c.id === layla.id).email).toBe('layla.new@example.com');

    await sandbox.close();
    expect(await readdir(dir)).toEqual(['data.json']);
  });

  it('holds an acknowledged change as soon as it is answered', async () => {
    const dataFile = join(dir, 'data.json');
    const sandbox = await startSandbox({ dataFile });
    try {
      const reply = await post(sandbox, '/v1/customers', { name: 'Durable Dana', phone: ukMobile(500) });
      expect(reply.status).toBe(201);
      const data = JSON.parse(await readFile(dataFile, 'utf8'));
      expect(data.customers.map((c: any) => c.id)).toContain(reply.body.data.id);
    } finally {
      await sandbox.close();
    }
  });

  it('is not rewritten when a known customer who already has a card here registers again', async () => {
    const dataFile = join(dir, 'data.json');
    const sandbox = await startSandbox({ dataFile });
    try {
      const { layla } = DEMO_FIXTURES;
      const before = await stat(dataFile);
      const reply = await post(sandbox, '/v1/customers', { name: layla.name, phone: layla.phone });
      expect(reply.status).toBe(200);
      const after = await stat(dataFile);
      expect(after.mtimeMs).toBe(before.mtimeMs);
      expect(after.ino).toBe(before.ino);
    } finally {
      await sandbox.close();
    }
  });

  it('carries registrations, updates and redemptions over to a new sandbox on the same file', async () => {
    const dataFile = join(dir, 'nested', 'deeper', 'data.json');
    const first = await startSandbox({ dataFile });
    const registered = await post(first, '/v1/customers', { name: 'Persisted Pia', phone: ukMobile(600) });
    await put(first, `/v1/customers/${layla.id}`, { birthday: '1991-05-13' });
    await post(first, '/v1/rewards/redeem', {
      reward_code: layla.rewards.availablePoints,
      phone: layla.phone,
      order_reference: 'KEEP-1',
    });
    const laylaBefore = (await get(first, `/v1/customers/${layla.id}`)).body.data;
    await first.close();

    const second = await startSandbox({ dataFile });
    try {
      const found = await get(second, `/v1/customers?${byPhone(ukMobile(600))}`);
      expect(found.body.data).toEqual([registered.body.data]);
      expect((await get(second, `/v1/customers/${layla.id}`)).body.data).toEqual(laylaBefore);
      expect(laylaBefore.birthday).toBe('1991-05-13');
      const check = await post(second, '/v1/rewards/check', {
        reward_code: layla.rewards.availablePoints,
        phone: layla.phone,
      });
      expect(check.body.data.status).toBe('redeemed');
      // The log of this run starts empty; the earlier redemption is in the data, not replayed.
      expect(second.redemptions()).toEqual([]);
    } finally {
      await second.close();
    }
  });

  it('a damaged file is refused with an error, and left as it was for a person to look at', async () => {
    const dataFile = join(dir, 'data.json');
    for (const damaged of ['{"version": 1, "customers": [', '{"version": 2}', '[]']) {
      await writeFile(dataFile, damaged);
      await expect(startSandbox({ dataFile })).rejects.toThrow();
      expect(await readFile(dataFile, 'utf8')).toBe(damaged);
    }
    expect(await readdir(dir)).toEqual(['data.json']);
  });
});
