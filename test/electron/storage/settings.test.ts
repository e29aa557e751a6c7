import { afterEach, describe, expect, test } from 'vitest';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createCoreFixture, type CoreFixture } from '../../support/app-core-fixture';
import { DEFAULT_SETTINGS } from '../../../electron/storage/settings';

const fixtures: CoreFixture[] = [];
async function freshTill(): Promise<CoreFixture> {
  const till = await createCoreFixture();
  fixtures.push(till);
  return till;
}

afterEach(async () => {
  for (const till of fixtures.splice(0)) await till.dispose();
});

describe('settings', () => {
  test('a fresh till starts with defaults and unconfigured', async () => {
    const till = await freshTill();
    const state = await till.call('getState');
    expect(state.ok && state.data).toEqual({
      settings: DEFAULT_SETTINGS,
      key: { set: false, lastFour: null, protection: 'os' },
      dataKey: { state: 'ready', protection: 'os', kept: true },
      mode: 'unconfigured',
      systemLanguages: [],
      managed: { locked: [], problem: null, revision: 0 },
      pinSet: false,
      pinManaged: false,
    });
  });

  test('the interface language defaults to the OS (passed on as clean tags) and can be chosen, with Arabic digits', async () => {
    const till = await createCoreFixture({ systemLanguages: ['ar_SA.UTF-8', 'en-us', '', 'not a tag!'] });
    fixtures.push(till);
    const state = await till.call('getState');
    expect(state.ok && state.data.systemLanguages).toEqual(['ar-SA', 'en-US']);
    expect(state.ok && state.data.settings.language).toBeNull();
    expect(state.ok && state.data.settings.arabicDigits).toBe('arab');

    const chosen = await till.call('updateSettings', { language: 'en', arabicDigits: 'latn' });
    expect(chosen.ok && chosen.data.settings).toMatchObject({ language: 'en', arabicDigits: 'latn' });
    const back = await till.call('updateSettings', { language: null });
    expect(back.ok && back.data.settings.language).toBeNull();

    const refused = await till.call('updateSettings', { language: 'xx', arabicDigits: 'roman' });
    expect(refused.ok).toBe(false);
    expect(!refused.ok && Object.keys(refused.error.fields ?? {}).sort()).toEqual(['arabicDigits', 'language']);
  });

  test('valid values are normalised, saved as JSON, and survive a restart', async () => {
    const till = await freshTill();
    const result = await till.call('updateSettings', {
      baseUrl: ' https://loyalty.example.com/api/v1/ ',
      defaultCountry: 'gb',
      branchId: '7c0e5d1a-2b3c-4d5e-8f90-0123456789ab',
      tillName: '  Front counter ',
      allowOfflineRedemption: false,
      theme: 'dark',
      currency: ' gbp ',
    });
    const expected = {
      baseUrl: 'https://loyalty.example.com/api',
      defaultCountry: 'GB',
      branchId: '7c0e5d1a-2b3c-4d5e-8f90-0123456789ab',
      tillName: 'Front counter',
      allowOfflineRedemption: false,
      programId: null,
      posCallbackUrl: null,
      theme: 'dark',
      currency: 'GBP',
      language: null,
      arabicDigits: 'arab',
      // Not sent: the default, once a day inside a night window.
      cacheRefresh: { everyHours: 24, windowFromHour: 2, windowToHour: 5 },
      // Not sent either: the shop ledger on, redemptions going ahead (with a warning) while a
      // till is out of reach, its port, no tills named.
      shopLedger: true,
      shopRedeemWhenSplit: true,
      shopPeers: [],
      shopLedgerPort: 47231,
      cashiers: [],
      // No customer display until a screen is chosen; back to idle after 30 s.
      customerDisplayId: null,
      displayIdleSeconds: 30,
      // The journal's personal details, 90 days (docs/privacy.md).
      journalPersonalDays: 90,
    };
    expect(result.ok && result.data.settings).toEqual(expected);
    expect(JSON.parse(await readFile(join(till.userDataDir, 'settings.json'), 'utf8'))).toEqual(expected);
    await till.restart();
    const state = await till.call('getState');
    expect(state.ok && state.data.settings).toEqual(expected);
  });

  test('plain http is allowed only for this machine', async () => {
    const till = await freshTill();
    for (const url of ['http://127.0.0.1:8080', 'http://localhost:3000']) {
      expect((await till.call('updateSettings', { baseUrl: url })).ok).toBe(true);
    }
    const refused = await till.call('updateSettings', { baseUrl: 'http://192.168.1.10:8080' });
    expect(refused).toMatchObject({
      ok: false,
      error: { kind: 'validation', fields: { baseUrl: expect.stringMatching(/https/) } },
    });
  });

  test('a bad value gives a validation failure with fields and changes nothing, not even the good values beside it', async () => {
    const till = await freshTill();
    await till.call('updateSettings', { tillName: 'Till A' });
    const before = await readFile(join(till.userDataDir, 'settings.json'), 'utf8');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ tillName: 'Till B', baseUrl: 'ftp://loyalty.example.com' }, 'baseUrl'],
      [{ tillName: 'Till B', baseUrl: 'https://user:pass@loyalty.example.com' }, 'baseUrl'],
      [{ tillName: 'Till B', baseUrl: 'not a url' }, 'baseUrl'],
      [{ tillName: 'Till B', defaultCountry: 'XX' }, 'defaultCountry'],
      [{ tillName: 'Till B', defaultCountry: 'Saudi' }, 'defaultCountry'],
      [{ tillName: 'Till B', branchId: 'branch 1' }, 'branchId'],
      [{ tillName: '' }, 'tillName'],
      [{ tillName: 'T'.repeat(61) }, 'tillName'],
      [{ tillName: 'Till B', allowOfflineRedemption: 'yes' }, 'allowOfflineRedemption'],
      [{ tillName: 'Till B', apiKey: 'sneaky' }, 'apiKey'],
      [{ tillName: 'Till B', programId: 'coffee-club' }, 'programId'],
      [{ tillName: 'Till B', programId: 42 }, 'programId'],
      [{ tillName: 'Till B', theme: 'blue' }, 'theme'],
      [{ tillName: 'Till B', currency: 'XYZ' }, 'currency'],
      [{ tillName: 'Till B', currency: 'pounds' }, 'currency'],
    ];
    for (const [patch, field] of cases) {
      const result = await till.call('updateSettings', patch);
      expect(result, JSON.stringify(patch)).toMatchObject({ ok: false, error: { kind: 'validation' } });
      if (!result.ok) expect(result.error.fields?.[field], JSON.stringify(patch)).toEqual(expect.any(String));
    }
    expect(await readFile(join(till.userDataDir, 'settings.json'), 'utf8')).toBe(before);
    const state = await till.call('getState');
    expect(state.ok && state.data.settings.tillName).toBe('Till A');
  });

  test('null clears the base URL and branch', async () => {
    const till = await freshTill();
    await till.call('updateSettings', {
      baseUrl: 'https://loyalty.example.com',
      branchId: '7c0e5d1a-2b3c-4d5e-8f90-0123456789ab',
    });
    const result = await till.call('updateSettings', { baseUrl: null, branchId: null });
    expect(result.ok && result.data.settings).toMatchObject({ baseUrl: null, branchId: null });
  });

  test("this till's programme: none by default, a uuid is kept across a restart, null clears it, anything else is refused", async () => {
    const till = await freshTill();
    const fresh = await till.call('getState');
    expect(fresh.ok && fresh.data.settings.programId).toBeNull();

    const coffeeClub = '6f1c2d9e-3b4a-4c5d-8e7f-1a2b3c4d5e01';
    const chosen = await till.call('updateSettings', { programId: coffeeClub });
    expect(chosen.ok && chosen.data.settings.programId).toBe(coffeeClub);
    await till.restart();
    const after = await till.call('getState');
    expect(after.ok && after.data.settings.programId).toBe(coffeeClub);

    const file = join(till.userDataDir, 'settings.json');
    const before = await readFile(file, 'utf8');
    for (const bad of ['Coffee Club', '', `${coffeeClub}x`]) {
      const refused = await till.call('updateSettings', { programId: bad });
      expect(refused, bad).toMatchObject({
        ok: false,
        error: { kind: 'validation', fields: { programId: expect.stringMatching(/UUID/) } },
      });
    }
    expect(await readFile(file, 'utf8')).toBe(before);
    const unchanged = await till.call('getState');
    expect(unchanged.ok && unchanged.data.settings.programId).toBe(coffeeClub);

    const cleared = await till.call('updateSettings', { programId: null });
    expect(cleared.ok && cleared.data.settings.programId).toBeNull();
  });

  test('the cashiers: none by default; a list of names with optional numbers is kept; bad entries refused whole', async () => {
    const till = await freshTill();
    const fresh = await till.call('getState');
    expect(fresh.ok && fresh.data.settings.cashiers).toEqual([]);
    const list = [
      { name: ' Sara Ali ', number: '12' },
      { name: 'عمر', number: null },
    ];
    const saved = await till.call('updateSettings', { cashiers: list });
    expect(saved.ok && saved.data.settings.cashiers).toEqual([
      { name: 'Sara Ali', number: '12' },
      { name: 'عمر', number: null },
    ]);
    await till.restart();
    const after = await till.call('getState');
    expect(after.ok && after.data.settings.cashiers).toHaveLength(2);
    const tooMany = Array.from({ length: 51 }, (_, i) => ({ name: `Cashier ${i}`, number: null }));
    for (const bad of [
      [{ name: '', number: null }],
      [{ name: 'Sara', number: '12 34' }],
      [{ name: 'Sara\u202e', number: null }],
      [{ name: 'Sara' }],
      [{ name: 'Sara', number: null, pin: '1234' }],
      tooMany,
    ]) {
      const refused = await till.call('updateSettings', { cashiers: bad });
      expect(refused, JSON.stringify(bad)).toMatchObject({ ok: false, error: { kind: 'validation' } });
    }
    const unchanged = await till.call('getState');
    expect(unchanged.ok && unchanged.data.settings.cashiers).toHaveLength(2);
  });

  test('the cache refresh schedule: once a day at night by default; a sane interval and hours are kept, others refused', async () => {
    const till = await freshTill();
    const defaults = await till.call('getState');
    expect(defaults.ok && defaults.data.settings.cacheRefresh).toEqual({
      everyHours: 24,
      windowFromHour: 2,
      windowToHour: 5,
    });
    const hourly = await till.call('updateSettings', {
      cacheRefresh: { everyHours: 6, windowFromHour: 22, windowToHour: 4 },
    });
    expect(hourly.ok && hourly.data.settings.cacheRefresh).toEqual({
      everyHours: 6,
      windowFromHour: 22,
      windowToHour: 4,
    });
    for (const bad of [
      { everyHours: 0, windowFromHour: 2, windowToHour: 5 },
      { everyHours: 24, windowFromHour: 24, windowToHour: 5 },
      { everyHours: 1.5, windowFromHour: 2, windowToHour: 5 },
      { everyHours: 24 },
    ]) {
      const refused = await till.call('updateSettings', { cacheRefresh: bad } as never);
      expect(refused.ok).toBe(false);
    }
    await till.restart();
    const kept = await till.call('getState');
    expect(kept.ok && kept.data.settings.cacheRefresh).toEqual({ everyHours: 6, windowFromHour: 22, windowToHour: 4 });
  });

  test('an unreadable settings file is kept aside and defaults are used', async () => {
    const till = await freshTill();
    await writeFile(join(till.userDataDir, 'settings.json'), '{ "tillName": ');
    await till.restart();
    const state = await till.call('getState');
    expect(state.ok && state.data.settings).toEqual(DEFAULT_SETTINGS);
    expect((await readdir(till.userDataDir)).some((name) => name.startsWith('settings.json.unreadable-'))).toBe(true);
    expect(till.log.text()).toMatch(/settings file could not be read/);
  });
});

describe('overlapping saves', () => {
  test('changes sent at the same moment are all kept, in memory and on disk', async () => {
    const till = await freshTill();
    const results = await Promise.all([
      till.call('updateSettings', { tillName: 'Counter 7' }),
      till.call('updateSettings', { defaultCountry: 'DK' }),
      till.call('updateSettings', { allowOfflineRedemption: false }),
      till.call('updateSettings', { branchId: '7c0e5d1a-2b3c-4d5e-8f90-0123456789ab' }),
    ]);
    expect(results.every((result) => result.ok)).toBe(true);
    const expected = {
      tillName: 'Counter 7',
      defaultCountry: 'DK',
      allowOfflineRedemption: false,
      branchId: '7c0e5d1a-2b3c-4d5e-8f90-0123456789ab',
    };
    const state = await till.call('getState');
    expect(state.ok && state.data.settings).toMatchObject(expected);
    expect(JSON.parse(await readFile(join(till.userDataDir, 'settings.json'), 'utf8'))).toMatchObject(expected);
  });
});
