import { afterEach, describe, expect, test } from 'vitest';
import { createServer } from 'node:net';
import { configureService, createCoreFixture, type CoreFixture } from '../../support/app-core-fixture';
import { freePort } from '../../support/free-port';

// Two tills of one shop on loopback (docs/shop-ledger.md): the same service, key and branch,
// each naming the other's port. No service needs to answer: the ledger is the tills' own.
const BASE_URL = 'http://127.0.0.1:4010';
const API_KEY = 'shop-ledger-test-key-1234';
const BRANCH = '7a1e9c40-2f3b-4d5e-8a6b-0c1d2e3f4a5b';
const OTHER_BRANCH = '0b2c4d6e-8f01-4a23-8b45-6c7d8e9f0a1b';
const CODE = 'RW-SHOP42';

const fixtures: CoreFixture[] = [];
afterEach(async () => {
  for (const till of fixtures.splice(0)) await till.dispose();
});

async function shopTill(options: { tillName: string; port: number; peers: number[]; branchId?: string }) {
  const till = await createCoreFixture({ shopCheckWaitMs: 1000 });
  fixtures.push(till);
  await configureService(till, BASE_URL, API_KEY);
  const saved = await till.call('updateSettings', {
    tillName: options.tillName,
    shopLedger: true,
    branchId: options.branchId ?? BRANCH,
    shopLedgerPort: options.port,
    shopPeers: options.peers.map((port) => `127.0.0.1:${port}`),
  });
  expect(saved.ok).toBe(true);
  await till.core.shopLedgerSettled();
  return till;
}

function expectNoKey(...tills: CoreFixture[]): void {
  for (const till of tills) expect(till.log.text()).not.toContain(API_KEY);
}

describe('the shop ledger behind the bridge', () => {
  test('a claim at one till is named by a check at another till of the shop', async () => {
    const [portA, portB] = [await freePort(), await freePort()];
    const a = await shopTill({ tillName: 'Till A', port: portA, peers: [portB] });
    const b = await shopTill({ tillName: 'Till B', port: portB, peers: [portA] });

    const before = await b.call('shopCheck', { reward_code: CODE });
    expect(before).toEqual({ ok: true, data: { enabled: true, claimedBy: null, unreachable: [] } });

    const claimed = await a.call('shopClaim', { reward_code: CODE });
    expect(claimed).toEqual({
      ok: true,
      data: { enabled: true, winner: { till: 'Till A', at: expect.any(String) }, won: true, unreachable: [] },
    });
    // Typed in lower case at the other till: the same reward.
    const checked = await b.call('shopCheck', { reward_code: 'rw-shop42' });
    expect(checked.ok && checked.data).toEqual({
      enabled: true,
      claimedBy: { till: 'Till A', at: claimed.ok ? claimed.data.winner?.at : '' },
      unreachable: [],
    });
    // The claiming till itself is not told to refuse its own claim.
    expect(await a.call('shopCheck', { reward_code: CODE })).toMatchObject({ ok: true, data: { claimedBy: null } });

    const answers = JSON.stringify([before, claimed, checked]);
    expect(answers).not.toContain(API_KEY);
    expectNoKey(a, b);
    expect(a.log.text() + b.log.text()).not.toMatch(/SHOP42/i);
  });

  test('a till of another branch learns nothing, and names no till it never heard from', async () => {
    const [portA, portC, silent] = [await freePort(), await freePort(), await freePort()];
    const a = await shopTill({ tillName: 'Till A', port: portA, peers: [portC] });
    const c = await shopTill({ tillName: 'Till C', port: portC, peers: [portA, silent], branchId: OTHER_BRANCH });

    await a.call('shopClaim', { reward_code: CODE });
    const checked = await c.call('shopCheck', { reward_code: CODE });
    expect(checked.ok && checked.data.enabled).toBe(true);
    expect(checked.ok && checked.data.claimedBy).toBeNull();
    // Till A refuses the other branch's messages, so it does not answer; nor does the silent port.
    // Neither was ever proven a till of Till C's shop: neither is named, nor listed in Settings.
    expect(checked.ok && checked.data.unreachable).toEqual([]);
    expect(await c.call('shopTills')).toEqual({ ok: true, data: { enabled: true, tills: [] } });
    expectNoKey(a, c);
  });

  test('turned off in Settings, or without a branch, there is no ledger and the answer is at once', async () => {
    const [portA, portB] = [await freePort(), await freePort()];
    const a = await shopTill({ tillName: 'Till A', port: portA, peers: [portB] });
    const b = await shopTill({ tillName: 'Till B', port: portB, peers: [portA] });
    await a.call('shopClaim', { reward_code: CODE });

    expect((await b.call('updateSettings', { shopLedger: false })).ok).toBe(true);
    await b.core.shopLedgerSettled();
    const started = performance.now();
    expect(await b.call('shopCheck', { reward_code: CODE })).toEqual({
      ok: true,
      data: { enabled: false, claimedBy: null, unreachable: [] },
    });
    expect(performance.now() - started).toBeLessThan(200);
    expect(await b.call('shopClaim', { reward_code: CODE })).toEqual({
      ok: true,
      data: { enabled: false, winner: null, won: true, unreachable: [] },
    });

    // On again: the ledger restarts, catches up, and knows Till A's claim.
    expect((await b.call('updateSettings', { shopLedger: true })).ok).toBe(true);
    await b.core.shopLedgerSettled();
    const back = await b.call('shopCheck', { reward_code: CODE });
    expect(back.ok && back.data.claimedBy?.till).toBe('Till A');

    // No branch, or no key: no shop.
    await a.call('updateSettings', { branchId: null });
    await a.core.shopLedgerSettled();
    expect(await a.call('shopCheck', { reward_code: CODE })).toMatchObject({ ok: true, data: { enabled: false } });
    await b.call('clearApiKey');
    await b.core.shopLedgerSettled();
    expect(await b.call('shopCheck', { reward_code: CODE })).toMatchObject({ ok: true, data: { enabled: false } });
    expectNoKey(a, b);
  });

  test('settled at one till, the claim no longer counts there; the other till still names it', async () => {
    const [portA, portB] = [await freePort(), await freePort()];
    const a = await shopTill({ tillName: 'Till A', port: portA, peers: [portB] });
    const b = await shopTill({ tillName: 'Till B', port: portB, peers: [portA] });
    expect(await b.call('shopHolder', { reward_code: CODE })).toEqual({ ok: true, data: { holder: null } });
    const claimed = await a.call('shopClaim', { reward_code: CODE });
    const at = claimed.ok ? claimed.data.winner?.at : undefined;
    // Asking no one: Till B's ledger took the claim when Till A announced it.
    expect(await b.call('shopHolder', { reward_code: CODE })).toEqual({
      ok: true,
      data: { holder: { till: 'Till A', at } },
    });
    expect(await a.call('shopHolder', { reward_code: CODE })).toEqual({ ok: true, data: { holder: null } });
    expect(await a.call('shopSettle', { reward_code: CODE })).toEqual({ ok: true, data: null });
    expect(await b.call('shopHolder', { reward_code: CODE })).toMatchObject({
      ok: true,
      data: { holder: { till: 'Till A' } },
    });
    // Till B settles it too (its replay was answered): it no longer refuses it.
    await b.call('shopSettle', { reward_code: CODE });
    expect(await b.call('shopCheck', { reward_code: CODE })).toMatchObject({ ok: true, data: { claimedBy: null } });
  });

  test('tills found by discovery are asked, and the advertisement carries only the tag and port', async () => {
    const [portA, portB] = [await freePort(), await freePort()];
    const advertised: Array<{ tag: string; port: number }> = [];
    const feeds: Array<(peers: Array<{ host: string; port: number }>) => void> = [];
    const a = await createCoreFixture({
      shopCheckWaitMs: 1000,
      shopDiscovery: ({ tag, port, onPeers }) => {
        advertised.push({ tag, port });
        feeds.push(onPeers);
        return { stop: async () => undefined };
      },
    });
    fixtures.push(a);
    await configureService(a, BASE_URL, API_KEY);
    await a.call('updateSettings', { tillName: 'Till A', branchId: BRANCH, shopLedgerPort: portA });
    await a.core.shopLedgerSettled();
    // Till B names no peer, Till A none either: only discovery joins them.
    const b = await shopTill({ tillName: 'Till B', port: portB, peers: [] });
    await b.call('shopClaim', { reward_code: CODE });
    expect(await a.call('shopCheck', { reward_code: CODE })).toMatchObject({ ok: true, data: { claimedBy: null } });

    expect(advertised).toEqual([{ tag: expect.stringMatching(/^[0-9a-f]{16}$/), port: portA }]);
    expect(advertised[0]!.tag).not.toContain(BRANCH.slice(0, 8));
    feeds[0]!([{ host: '127.0.0.1', port: portB }]);
    expect(await a.call('shopCheck', { reward_code: CODE })).toMatchObject({
      ok: true,
      data: { claimedBy: { till: 'Till B' }, unreachable: [] },
    });
    expectNoKey(a, b);
  });

  test('a till restarted during the outage still names the till it can no longer reach', async () => {
    const [portA, portB] = [await freePort(), await freePort()];
    const a = await shopTill({ tillName: 'Till A', port: portA, peers: [portB] });
    const b = await shopTill({ tillName: 'Till B', port: portB, peers: [] });
    // Till B hears from Till A once (as discovery would have it find Till A)…
    expect((await a.call('shopCheck', { reward_code: CODE })).ok).toBe(true);
    await b.call('updateSettings', { shopPeers: [`127.0.0.1:${portA}`] });
    await b.core.shopLedgerSettled();
    expect(await b.call('shopCheck', { reward_code: CODE })).toMatchObject({ ok: true, data: { unreachable: [] } });
    // …then Till A is gone, Till B no longer names it in Settings, and Till B restarts.
    await a.dispose();
    fixtures.splice(fixtures.indexOf(a), 1);
    await b.call('updateSettings', { shopPeers: [] });
    await b.restart();
    await b.core.shopLedgerSettled();
    const checked = await b.call('shopCheck', { reward_code: CODE });
    expect(checked).toMatchObject({ ok: true, data: { enabled: true, unreachable: ['Till A'] } });
    expectNoKey(b);
  });

  test('a port already taken is logged in one line and the till works alone', async () => {
    const port = await freePort();
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(port, '127.0.0.1', resolve));
    try {
      const a = await shopTill({ tillName: 'Till A', port, peers: [] });
      expect(await a.call('shopCheck', { reward_code: CODE })).toMatchObject({ ok: true, data: { enabled: false } });
      const lines = a.log.lines.filter((line) => line.includes('shop ledger'));
      expect(lines).toEqual([
        `warn The shop ledger could not start on 127.0.0.1:${port} (EADDRINUSE); this till works alone.`,
      ]);
      expect((await a.call('getState')).ok).toBe(true);
    } finally {
      await new Promise<void>((resolve) => taken.close(() => resolve()));
    }
  });

  test('bad payloads are refused before the ledger is asked', async () => {
    const till = await createCoreFixture();
    fixtures.push(till);
    for (const operation of ['shopCheck', 'shopClaim'] as const) {
      for (const payload of [
        undefined,
        {},
        { reward_code: 'not a code' },
        { reward_code: 'RW-\u0000X' },
        { reward_code: `RW-${'A'.repeat(64)}` },
        { reward_code: CODE, phone: '+966500000000' },
      ]) {
        const result = await till.call(operation, payload);
        expect(result, `${operation} ${JSON.stringify(payload)}`).toMatchObject({
          ok: false,
          error: { kind: 'validation' },
        });
      }
    }
  });
});

describe('the shop’s report behind the bridge', () => {
  const counts = { done: 2, queued: 0, conflict: 0, failed: 0, refused: 1, points: 100 };
  const PART = {
    totals: { ...counts, registrations: 0, registrationsQueued: 0, registrationsFailed: 0, corrections: 0 },
    byReward: [{ reward: 'Coffee', ...counts }],
    byCashier: [{ cashier: 'Omar', ...counts, registrations: 0, corrections: 0 }],
  };
  const SINCE = '2026-11-26T06:00:00.000Z';

  test('the other till’s page answers the request; a till without an answering page is named silent', async () => {
    const [portA, portB, portC] = [await freePort(), await freePort(), await freePort()];
    const a = await shopTill({ tillName: 'Till A', port: portA, peers: [portB, portC] });
    const b = await shopTill({ tillName: 'Till B', port: portB, peers: [portA] });
    await shopTill({ tillName: 'Till C', port: portC, peers: [portA] });
    // Till B's page keeps its call waiting, as the app does; Till C's page never asks.
    const pageB = (async () => {
      const waiting = await b.call('shopReportRequest', undefined);
      const request = waiting.ok ? waiting.data.request : null;
      expect(request).toMatchObject({ since: SINCE });
      expect(await b.call('shopReportAnswer', { id: request!.id, report: PART })).toEqual({ ok: true, data: null });
    })();
    const gathered = await a.call('shopReports', { since: SINCE });
    await pageB;
    expect(gathered).toEqual({
      ok: true,
      data: { enabled: true, tills: [{ till: 'Till B', report: PART }], silent: ['Till C'] },
    });
  }, 20_000);

  test('a report that is not one, or a start that is not a time, is refused with a clear error', async () => {
    const a = await shopTill({ tillName: 'Till A', port: await freePort(), peers: [] });
    const bad = await a.call('shopReportAnswer', { id: 1, report: { ...PART, phone: '+966501234567' } });
    expect(bad).toMatchObject({ ok: false, error: { kind: 'validation' } });
    expect(await a.call('shopReports', { since: 'yesterday' })).toMatchObject({
      ok: false,
      error: { kind: 'validation' },
    });
    // An end that is not a time is named as the end, not as the start.
    expect(await a.call('shopReports', { since: SINCE, until: 'tomorrow' })).toMatchObject({
      ok: false,
      error: { kind: 'validation', fields: { until: expect.stringContaining('end') } },
    });
  });

  test('with a manager PIN set, the shop’s report needs the manager’s approval', async () => {
    const a = await shopTill({ tillName: 'Till A', port: await freePort(), peers: [] });
    expect((await a.call('setManagerPin', { pin: '2468' })).ok).toBe(true);
    await a.call('endManagerApproval', undefined);
    expect(await a.call('shopReports', { since: SINCE })).toMatchObject({
      ok: false,
      error: { kind: 'unauthorized', code: 'manager_pin_required' },
    });
    expect(await a.call('verifyManagerPin', { pin: '2468' })).toMatchObject({ ok: true, data: { accepted: true } });
    expect(await a.call('shopReports', { since: SINCE })).toEqual({
      ok: true,
      data: { enabled: true, tills: [], silent: [] },
    });
  });
});
