import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCoreFixture, type CoreFixture } from '../../support/app-core-fixture';
import { hashPin } from '../../../electron/storage/manager-pin';

/**
 * The organisation's policy through the bridge: what it locks, Settings is told and the
 * bridge refuses; what is wrong with it, nothing applies and Settings and the log say why;
 * a change on disk applies while the till runs.
 */
const BRANCH = '7a1e9c40-2f3b-4d5e-8a6b-0c1d2e3f4a5b';
const POLICY = {
  schemaVersion: 1,
  settings: {
    baseUrl: 'https://loyalty.example.com',
    branchId: BRANCH,
    tillName: 'Till {computerName}',
    allowOfflineRedemption: false,
  },
};

async function writePolicy(file: string, value: unknown): Promise<void> {
  // As deployment tools do: written beside, then moved into place.
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  await writeFile(`${file}.new`, text);
  await rename(`${file}.new`, file);
}

describe('the policy at the bridge', () => {
  let till: CoreFixture;
  let policyFile: string;
  let policyDir: string;

  beforeEach(async () => {
    policyDir = await mkdtemp(join(tmpdir(), 'till-machine-'));
    policyFile = join(policyDir, 'policy.json');
    await writePolicy(policyFile, POLICY);
    till = await createCoreFixture({ policyFile, computerName: 'SHOP12-TILL3' });
  });
  afterEach(async () => {
    await till.dispose();
    await rm(policyDir, { recursive: true, force: true });
  });

  it('locks what it says: the state shows the values and names them as managed', async () => {
    const state = await till.call('getState');
    expect(state).toMatchObject({
      ok: true,
      data: {
        settings: {
          baseUrl: 'https://loyalty.example.com',
          branchId: BRANCH,
          tillName: 'Till SHOP12-TILL3',
          allowOfflineRedemption: false,
        },
        managed: { locked: ['baseUrl', 'branchId', 'tillName', 'allowOfflineRedemption'], problem: null },
      },
    });
  });

  it('refuses a change to a locked setting, saving nothing of that change', async () => {
    const refused = await till.call('updateSettings', { baseUrl: 'https://elsewhere.example.com', theme: 'dark' });
    expect(refused).toMatchObject({
      ok: false,
      error: { kind: 'validation', fields: { baseUrl: expect.stringMatching(/organisation sets this/) } },
    });
    const state = await till.call('getState');
    expect(state).toMatchObject({ data: { settings: { baseUrl: 'https://loyalty.example.com', theme: 'system' } } });
    // Nor does the till's own file take it, for when the policy is withdrawn.
    await rm(policyFile);
    await till.core.reloadPolicy();
    expect(await till.call('getState')).toMatchObject({ data: { settings: { baseUrl: null, theme: 'system' } } });
  });

  it('accepts the whole form when the locked fields carry the locked values', async () => {
    const saved = await till.call('updateSettings', {
      baseUrl: 'https://loyalty.example.com/v1',
      branchId: BRANCH,
      tillName: 'Till SHOP12-TILL3',
      theme: 'dark',
    });
    expect(saved).toMatchObject({
      ok: true,
      data: { settings: { theme: 'dark', baseUrl: 'https://loyalty.example.com' } },
    });
  });

  it('answers refusals in the interface language', async () => {
    await till.call('updateSettings', { language: 'ar' });
    const refused = await till.call('updateSettings', { tillName: 'Mine' });
    expect(refused).toMatchObject({
      ok: false,
      error: { fields: { tillName: expect.stringMatching(/[\u0600-\u06ff]/) } },
    });
  });

  it.each([
    ['not JSON', '{"schemaVersion": 1,', /not valid JSON/],
    ['of wrong types', { schemaVersion: 1, settings: { branchId: 42 } }, /settings\.branchId/],
    ['with unknown keys', { schemaVersion: 1, settings: { ...POLICY.settings, colour: 'red' } }, /settings\.colour/],
    ['too large', `{"schemaVersion":1,"x":"${'y'.repeat(70_000)}"}`, /larger than 64 KiB/],
  ])('applies nothing of a policy %s, and Settings and the log say why', async (_what, policy, why) => {
    await writePolicy(policyFile, policy);
    await till.core.reloadPolicy();
    const state = await till.call('getState');
    expect(state).toMatchObject({
      ok: true,
      data: { settings: { baseUrl: null, branchId: null, tillName: 'Till 1' }, managed: { locked: [] } },
    });
    const problem = (state as { data: { managed: { problem: string } } }).data.managed.problem;
    expect(problem).toMatch(why);
    expect(problem).toMatch(/This till uses its own settings/);
    expect(till.log.text()).toMatch(why);
    // The till keeps working with its own settings.
    expect(await till.call('updateSettings', { tillName: 'Counter 2' })).toMatchObject({ ok: true });
  });

  it('applies nothing of an unreadable policy (a folder in its place)', async () => {
    await rm(policyFile);
    await mkdir(policyFile);
    await till.core.reloadPolicy();
    const state = await till.call('getState');
    expect(state).toMatchObject({
      data: { managed: { locked: [], problem: expect.stringMatching(/could not be read/) } },
    });
    await rm(policyFile, { recursive: true });
  });

  it('takes a changed policy while running, without a restart, and raises the revision', async () => {
    const before = await till.call('noteActivity', { customerOpen: false, inFlight: 0, outboxDurable: true });
    expect(before).toEqual({ ok: true, data: { policyRevision: 0 } });
    await writePolicy(policyFile, { schemaVersion: 1, settings: { theme: 'dark' } });
    // No reload asked for: the watcher (file events, and the poll) finds it.
    await expect
      .poll(async () => (await till.call('getState')) as any, { timeout: 5000 })
      .toMatchObject({ data: { settings: { theme: 'dark', baseUrl: null }, managed: { locked: ['theme'] } } });
    const after = await till.call('noteActivity', { customerOpen: false, inFlight: 0, outboxDurable: true });
    expect(after).toMatchObject({ ok: true, data: { policyRevision: 1 } });
  });

  it('checks the activity report like every payload', async () => {
    for (const bad of [
      { customerOpen: 'no', inFlight: 0, outboxDurable: true },
      { customerOpen: false, inFlight: -1, outboxDurable: true },
      { customerOpen: false, inFlight: 0, outboxDurable: true, extra: 1 },
      null,
    ]) {
      expect(await till.call('noteActivity', bad)).toMatchObject({ ok: false, error: { kind: 'validation' } });
    }
  });
});

describe('the manager PIN from the policy', () => {
  it('is the PIN while the policy gives it: checked, never changed on the till, never shown', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'till-machine-'));
    const file = join(dir, 'policy.json');
    // As an IT department makes it: the PHC string the till itself writes, at the floor's cost.
    const managerPinHash = await hashPin('482913', { N: 2 ** 15, r: 8, p: 1 });
    await writePolicy(file, { schemaVersion: 1, managerPinHash });
    const till = await createCoreFixture({ policyFile: file });
    try {
      const state = await till.call('getState');
      expect(state.ok && state.data.pinSet).toBe(true);
      expect(state.ok && state.data.pinManaged).toBe(true);
      expect(await till.call('verifyManagerPin', { pin: '111111' })).toMatchObject({
        ok: true,
        data: { accepted: false },
      });
      // Past the wait a wrong try set (the guard's own tests cover the waits).
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect(await till.call('verifyManagerPin', { pin: '482913' })).toMatchObject({
        ok: true,
        data: { accepted: true },
      });
      // Approved, yet the organisation's PIN is not the till's to change or remove.
      const changed = await till.call('setManagerPin', { pin: '999999' });
      expect(changed).toMatchObject({ ok: false, error: { kind: 'validation' } });
      expect(await till.call('setManagerPin', { pin: null })).toMatchObject({ ok: false });
      const answers = JSON.stringify([state, changed]) + till.log.text();
      expect(answers).not.toContain(managerPinHash);
      expect(answers).not.toContain('482913');
    } finally {
      await till.dispose();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('with a cost or lengths outside what the till checks, refuses the policy whole and says why', async () => {
    const salt = 'c2FsdHNhbHRzYWx0c2FsdA'; // 16 bytes
    const hash32 = Buffer.alloc(32, 7).toString('base64').replace(/=+$/, '');
    const hash100 = Buffer.alloc(100, 7).toString('base64').replace(/=+$/, '');
    const unacceptable = {
      // A 6-digit PIN falls in seconds.
      weak: `$scrypt$ln=1,r=1,p=1$${salt}$${hash32}`,
      belowFloor: `$scrypt$ln=14,r=8,p=1$${salt}$${hash32}`,
      // No PIN could ever match: the till would be locked for good.
      tooCostly: `$scrypt$ln=25,r=8,p=1$${salt}$${hash32}`,
      longHash: `$scrypt$ln=15,r=8,p=1$${salt}$${hash100}`,
      // Seconds, or gigabytes, a try.
      slow: `$scrypt$ln=16,r=8,p=8$${salt}$${hash32}`,
      huge: `$scrypt$ln=20,r=32,p=16$${salt}$${hash32}`,
    };
    const dir = await mkdtemp(join(tmpdir(), 'till-machine-'));
    const file = join(dir, 'policy.json');
    const till = await createCoreFixture({ policyFile: file });
    try {
      for (const [name, managerPinHash] of Object.entries(unacceptable)) {
        await writePolicy(file, { schemaVersion: 1, settings: { tillName: 'Till 7' }, managerPinHash });
        await till.core.reloadPolicy();
        const state = await till.call('getState');
        expect(state.ok && state.data, name).toMatchObject({
          pinSet: false,
          pinManaged: false,
          settings: { tillName: 'Till 1' },
          managed: { locked: [], problem: expect.stringMatching(/ln=15 or 16/) },
        });
        expect(till.log.text()).toMatch(/manager PIN hash’s cost/);
      }
      // The floor itself and the ceiling are taken.
      for (const cost of ['ln=15,r=8,p=1', 'ln=16,r=8,p=1', 'ln=15,r=8,p=2']) {
        await writePolicy(file, { schemaVersion: 1, managerPinHash: `$scrypt$${cost}$${salt}$${hash32}` });
        await till.core.reloadPolicy();
        expect(await till.call('getState'), cost).toMatchObject({ ok: true, data: { pinSet: true, pinManaged: true } });
      }
    } finally {
      await till.dispose();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
