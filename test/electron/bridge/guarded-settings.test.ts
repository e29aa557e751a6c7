import { readFile } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../sandbox';
import type { SettingsPatch } from '../../../common/contract';
import { GUARDED_ACTIONS, GUARDED_SETTINGS, type GuardedAction } from '../../../common/guarded-actions';
import { createCoreFixture } from '../../support/app-core-fixture';
import { startCountingProxy, type StubServer } from '../../support/stub-servers';

const PIN = '739164';
const KEY = 'sk_live_guarded_settings_0001';
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ keys: { [KEY]: 'coffee-club' } });
});
afterAll(() => sandbox.close());

/** A loyalty service at an address of its own that records who asked (the sandbox behind it). */
async function service(): Promise<StubServer> {
  const server = await startCountingProxy(sandbox.url);
  cleanups.push(() => server.close());
  return server;
}

async function configuredTill(options: { pin: boolean }) {
  let now = 9_000_000;
  const till = await createCoreFixture({ pinNow: () => now });
  cleanups.push(() => till.dispose());
  const own = await service();
  expect(await till.call('updateSettings', { baseUrl: own.url })).toMatchObject({ ok: true });
  expect(await till.call('setApiKey', { apiKey: KEY })).toMatchObject({ ok: true });
  if (options.pin) {
    expect(await till.call('setManagerPin', { pin: PIN })).toMatchObject({ ok: true });
    expect(await till.call('endManagerApproval')).toMatchObject({ ok: true });
  }
  return { till, own, pass: (ms: number) => (now += ms) };
}

const REQUIRED = { ok: false, error: { kind: 'unauthorized', code: 'manager_pin_required' } };

/** A change of each guarded setting, away from its default. */
const CHANGES: Record<(typeof GUARDED_SETTINGS)[number], SettingsPatch> = {
  baseUrl: { baseUrl: 'https://attacker.example' },
  posCallbackUrl: { posCallbackUrl: 'https://collector.example/outcomes' },
  branchId: { branchId: '6f1c1d8e-2a55-4c1b-9a43-0c0f6a4b1e77' },
  shopLedger: { shopLedger: false },
  shopRedeemWhenSplit: { shopRedeemWhenSplit: false },
  shopPeers: { shopPeers: ['192.168.1.66:47231'] },
  shopLedgerPort: { shopLedgerPort: 47000 },
  allowOfflineRedemption: { allowOfflineRedemption: false },
  cashiers: { cashiers: [{ name: 'Mallory', number: '66' }] },
};

describe('the settings that move the key, a customer or the shop’s promise off the till', () => {
  it('a new service address without the PIN is refused, and the key never goes there', async () => {
    const { till, own } = await configuredTill({ pin: true });
    const attacker = await service();
    const refused = await till.call('updateSettings', { baseUrl: attacker.url });
    expect(refused).toMatchObject({ ...REQUIRED, error: { ...REQUIRED.error, action: 'changeService' } });
    expect(await till.call('searchCustomers', { search: 'Amal' })).toMatchObject({ ok: true });
    expect(attacker.requests).toEqual([]);
    expect(own.requests.at(-1)?.authorization).toBe(`Bearer ${KEY}`);
  });

  it('refuses every guarded setting without the PIN, and a refused patch changes nothing at all', async () => {
    const { till } = await configuredTill({ pin: true });
    const before = await till.call('getState');
    for (const change of Object.values(CHANGES)) {
      // The unguarded till name rides along: it is not saved either.
      expect(await till.call('updateSettings', { ...change, tillName: 'Till 9' })).toMatchObject(REQUIRED);
    }
    const after = await till.call('getState');
    expect(after.ok && after.data.settings).toEqual(before.ok && before.data.settings);
  });

  it('asks nothing for the same values sent again (the whole form saved), nor for what is not guarded', async () => {
    const { till, own } = await configuredTill({ pin: true });
    const state = await till.call('getState');
    if (!state.ok) throw new Error('no state');
    const { settings } = state.data;
    // The service address as people paste it: normalised, it is the same address.
    expect(
      await till.call('updateSettings', {
        baseUrl: `${own.url}/v1/`,
        branchId: settings.branchId,
        allowOfflineRedemption: settings.allowOfflineRedemption,
        shopLedger: settings.shopLedger,
        shopPeers: settings.shopPeers,
        cashiers: settings.cashiers,
        tillName: 'Till 2',
        theme: 'dark',
      }),
    ).toMatchObject({ ok: true, data: { settings: { tillName: 'Till 2', theme: 'dark' } } });
  });

  it('with the PIN given, the service address changes and the key goes to the one approved', async () => {
    const { till } = await configuredTill({ pin: true });
    const approved = await service();
    expect(await till.call('verifyManagerPin', { pin: PIN })).toMatchObject({ data: { accepted: true } });
    expect(await till.call('updateSettings', { baseUrl: approved.url })).toMatchObject({ ok: true });
    expect(await till.call('searchCustomers', { search: 'Amal' })).toMatchObject({ ok: true });
    expect(approved.requests.at(-1)?.authorization).toBe(`Bearer ${KEY}`);
    for (const change of Object.values(CHANGES).slice(1)) {
      expect(await till.call('updateSettings', change)).toMatchObject({ ok: true });
    }
  });

  it('without a PIN set, a cashier changes every setting as before', async () => {
    const { till } = await configuredTill({ pin: false });
    for (const change of Object.values(CHANGES).slice(1)) {
      expect(await till.call('updateSettings', change)).toMatchObject({ ok: true, data: { settings: change } });
    }
  });
});

describe('docs/security.md’s table of guarded actions', () => {
  it('names every action of the one list once, where it is enforced, and every guarded setting', async () => {
    const text = await readFile(new URL('../../../docs/security.md', import.meta.url), 'utf8');
    const section = text.split("## The manager's guarded actions")[1]?.split('\n## ')[0] ?? '';
    const rows = [...section.matchAll(/^\| `(\w+)` +\| (.+?) \| (.+?) \|/gm)].map(([, action, covers, where]) => ({
      action: action as GuardedAction,
      covers: covers!,
      where: where!.trim(),
    }));
    expect(rows.map((row) => row.action).sort()).toEqual(Object.keys(GUARDED_ACTIONS).sort());
    for (const row of rows) {
      const { enforcedIn, settings } = GUARDED_ACTIONS[row.action];
      expect(row.where, row.action).toMatch(enforcedIn === 'main' ? /^main process/ : /^the page alone$/);
      for (const setting of settings) expect(row.covers, row.action).toContain(`\`${setting}\``);
    }
    expect(GUARDED_SETTINGS.length).toBe(9);
  });
});
