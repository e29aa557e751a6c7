import { afterEach, describe, expect, test } from 'vitest';
import { writeFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCoreFixture, type CoreFixture } from '../../support/app-core-fixture';
import { DEFAULT_SETTINGS } from '../../../electron/storage/settings';

const BRANCH = '7a1e9c40-2f3b-4d5e-8a6b-0c1d2e3f4a5b';

const fixtures: CoreFixture[] = [];
afterEach(async () => {
  for (const till of fixtures.splice(0)) await till.dispose();
});

describe('the shop ledger settings', () => {
  test('a settings file from before the ledger loads with its defaults', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'till-core-'));
    try {
      await writeFile(join(dir, 'settings.json'), JSON.stringify({ tillName: 'Old till', branchId: BRANCH }));
      const till = await createCoreFixture({ userDataDir: dir });
      fixtures.push(till);
      const state = await till.call('getState');
      expect(state.ok && state.data.settings).toMatchObject({
        tillName: 'Old till',
        shopLedger: true,
        shopRedeemWhenSplit: true,
        shopPeers: [],
        shopLedgerPort: 47231,
      });
      expect(DEFAULT_SETTINGS).toMatchObject({
        shopLedger: true,
        shopRedeemWhenSplit: true,
        shopPeers: [],
        shopLedgerPort: 47231,
      });
    } finally {
      for (const till of fixtures.splice(0)) await till.dispose();
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('peers and the port are checked', async () => {
    const till = await createCoreFixture();
    fixtures.push(till);
    const good = await till.call('updateSettings', {
      shopPeers: [' till-2.local:47231 ', '192.168.1.12:1', '[fe80::1]:65535', 'TILL3:47231'],
      shopLedgerPort: 50000,
    });
    expect(good.ok && good.data.settings).toMatchObject({
      shopPeers: ['till-2.local:47231', '192.168.1.12:1', '[fe80::1]:65535', 'TILL3:47231'],
      shopLedgerPort: 50000,
    });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ shopPeers: ['till-2'] }, 'shopPeers.0'],
      [{ shopPeers: ['till-2:0'] }, 'shopPeers.0'],
      [{ shopPeers: ['till-2:65536'] }, 'shopPeers.0'],
      [{ shopPeers: ['300.1.1.1:47231'] }, 'shopPeers.0'],
      [{ shopPeers: ['fe80::1:47231'] }, 'shopPeers.0'],
      [{ shopPeers: ['[not-v6]:47231'] }, 'shopPeers.0'],
      [{ shopPeers: ['till\u0000x:47231'] }, 'shopPeers.0'],
      [{ shopPeers: ['till 2:47231'] }, 'shopPeers.0'],
      [{ shopPeers: ['-till:47231'] }, 'shopPeers.0'],
      [{ shopPeers: [42] }, 'shopPeers.0'],
      [{ shopPeers: 'till-2:47231' }, 'shopPeers'],
      [{ shopPeers: Array.from({ length: 17 }, (_, i) => `till-${i}:47231`) }, 'shopPeers'],
      [{ shopLedgerPort: 80 }, 'shopLedgerPort'],
      [{ shopLedgerPort: 65536 }, 'shopLedgerPort'],
      [{ shopLedgerPort: 47231.5 }, 'shopLedgerPort'],
      [{ shopLedgerPort: '47231' }, 'shopLedgerPort'],
      [{ shopLedger: 'yes' }, 'shopLedger'],
      [{ shopRedeemWhenSplit: 1 }, 'shopRedeemWhenSplit'],
    ];
    for (const [patch, field] of cases) {
      const result = await till.call('updateSettings', patch);
      expect(result, JSON.stringify(patch)).toMatchObject({ ok: false, error: { kind: 'validation' } });
      if (!result.ok) expect(Object.keys(result.error.fields ?? {}), JSON.stringify(patch)).toContain(field);
    }
  });
});
