import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readProfilePolicy } from '../../../electron/policy/mac-profile';

describe('the macOS configuration profile', () => {
  let dir: string;
  let plist: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'till-profile-'));
    plist = join(dir, 'app.loyaltytill.desktop.plist');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('is no policy without the managed preferences file, and runs nothing', async () => {
    const reading = await readProfilePolicy(() => Promise.reject(new Error('must not run')), plist);
    expect(reading).toEqual({ state: 'none' });
  });

  it("reads the profile's keys through plutil, leaving out the MDM's Payload keys", async () => {
    await writeFile(plist, 'binary plist stands here');
    const reading = await readProfilePolicy(async (program, args) => {
      expect([program, ...args]).toEqual(['plutil', '-convert', 'json', '-o', '-', plist]);
      return JSON.stringify({
        PayloadUUID: '5D2B…',
        schemaVersion: 1,
        settings: { branchId: '7a1e9c40-2f3b-4d5e-8a6b-0c1d2e3f4a5b', theme: 'light' },
      });
    }, plist);
    expect(reading).toMatchObject({ state: 'applied', policy: { settings: { theme: 'light' } } });
  });

  it('refuses a profile with unknown keys, or one plutil cannot convert', async () => {
    await writeFile(plist, 'x');
    const unknown = await readProfilePolicy(async () => JSON.stringify({ schemaVersion: 1, colour: 'red' }), plist);
    expect(unknown).toMatchObject({ state: 'refused', problem: { kind: 'invalid' } });
    const broken = await readProfilePolicy(() => Promise.reject(Object.assign(new Error('x'), { exitCode: 1 })), plist);
    expect(broken).toMatchObject({ state: 'refused', problem: { kind: 'unreadable', code: 'exit 1' } });
  });
});
