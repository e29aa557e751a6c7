import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readPolicyFile } from '../../../electron/policy/policy-file';
import type { PolicyReading } from '../../../electron/policy/policy-reading';
import { watchPolicy, type PolicyWatch } from '../../../electron/policy/policy-watch';
import { createCapturedLog } from '../../support/captured-log';

describe('watching the policy', () => {
  let dir: string;
  let file: string;
  let watch: PolicyWatch | null = null;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'till-policy-watch-'));
    file = join(dir, 'policy.json');
  });
  afterEach(async () => {
    watch?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('reads at start, and calls back once per change, found by the file event without a poll', async () => {
    const log = createCapturedLog();
    const changes: PolicyReading[] = [];
    watch = await watchPolicy({
      read: () => readPolicyFile(file),
      file,
      pollMs: 3_600_000,
      log,
      onChange: (reading) => changes.push(reading),
    });
    expect(watch.current()).toEqual({ state: 'none' });
    await writeFile(file, JSON.stringify({ schemaVersion: 1, settings: { theme: 'dark' } }));
    await vi.waitFor(() => expect(changes).toHaveLength(1), { timeout: 5000 });
    expect(watch.current()).toMatchObject({ state: 'applied', policy: { settings: { theme: 'dark' } } });
    expect(log.text()).toMatch(/policy from .*policy\.json applies/);
    // The same policy read again is no change.
    await watch.reload();
    expect(changes).toHaveLength(1);
  });

  it('keeps the last policy when a read fails outright, and says so', async () => {
    const log = createCapturedLog();
    let fail = false;
    const applied: PolicyReading = { state: 'applied', policy: { schemaVersion: 1 }, origin: 'test' };
    watch = await watchPolicy({
      read: async () => {
        if (fail) throw new Error('the disk went away');
        return applied;
      },
      pollMs: 3_600_000,
      log,
      onChange: () => undefined,
    });
    fail = true;
    expect(await watch.reload()).toBe(applied);
    expect(log.text()).toMatch(/could not be read again \(.*the disk went away\); the last one still applies/);
  });

  it('finds a policy whose folder is created later, by the poll', async () => {
    const later = join(dir, 'later', 'policy.json');
    const changes: PolicyReading[] = [];
    watch = await watchPolicy({
      read: () => readPolicyFile(later),
      file: later,
      pollMs: 50,
      log: createCapturedLog(),
      onChange: (reading) => changes.push(reading),
    });
    await mkdir(join(dir, 'later'));
    await writeFile(later, '{ "schemaVersion": 1 }');
    await vi.waitFor(() => expect(changes).toHaveLength(1), { timeout: 5000 });
  });
});
