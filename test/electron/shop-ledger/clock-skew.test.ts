// Tills whose clocks disagree (electron/shop-ledger/replay-cache.ts `MESSAGE_WINDOW_MS`,
// docs/shop-ledger.md "The window and the clocks"): two minutes off either way, claims still
// cross in both directions; beyond the five-minute window, a till's messages are refused as
// old or early, counted, and it is never named, since it never answered.
import { afterEach, describe, expect, test } from 'vitest';
import { MESSAGE_WINDOW_MS } from '../../../electron/shop-ledger/replay-cache';
import { createShopLedger, type ShopLedger } from '../../../electron/shop-ledger/shop-ledger-service';
import type { PeerAddress } from '../../../electron/shop-ledger/peer-transport';
import { freePort, LOOPBACK } from '../../support/free-port';
import { SHOP_KEYS } from '../../support/shop-keys';

const BASE = Date.parse('2026-11-26T10:00:00.000Z');
const MINUTE = 60 * 1000;

const running: ShopLedger[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((till) => till.stop()));
});

/** Tills named `Till 1`… on loopback, each off the shop's clock by its `offsets` entry, each naming the others. */
async function tillsOff(offsets: number[]): Promise<ShopLedger[]> {
  const at: PeerAddress[] = [];
  for (const _offset of offsets) at.push({ host: LOOPBACK, port: await freePort() });
  const tills = offsets.map((offset, index) =>
    createShopLedger({
      keys: SHOP_KEYS,
      tillName: `Till ${index + 1}`,
      listen: at[index]!,
      peers: at.filter((_, other) => other !== index),
      now: () => BASE + offset,
      askTimeoutMs: 500,
    }),
  );
  for (const till of tills) {
    running.push(till);
    await till.start();
  }
  return tills;
}

describe('tills whose clocks disagree', () => {
  test('two minutes ahead and two behind (four apart): every claim still crosses, both ways', async () => {
    const [right, ahead, behind] = await tillsOff([0, 2 * MINUTE, -2 * MINUTE]);
    expect((await ahead!.claim('RW-SKEW0001')).unreachable).toEqual([]);
    expect((await behind!.claim('RW-SKEW0002')).unreachable).toEqual([]);
    expect((await right!.claim('RW-SKEW0003')).unreachable).toEqual([]);
    for (const [till, others] of [
      [right!, ['RW-SKEW0001', 'RW-SKEW0002']],
      [ahead!, ['RW-SKEW0002', 'RW-SKEW0003']],
      [behind!, ['RW-SKEW0001', 'RW-SKEW0003']],
    ] as const) {
      for (const code of others) {
        const checked = await till.check(code);
        expect(checked.unreachable).toEqual([]);
        expect(checked.claimedBy).not.toBeNull();
      }
      expect(till.stats().refusals['outside-window']).toBeUndefined();
      expect((await till.tills(500)).map((seen) => seen.reachable)).toEqual([true, true]);
    }
  });

  test('beyond the window: refused both ways and counted, and, never having answered, never named', async () => {
    const [right, late] = await tillsOff([0, MESSAGE_WINDOW_MS + MINUTE]);
    await late!.claim('RW-SKEW0004');
    expect(await right!.check('RW-SKEW0004')).toEqual({ claimedBy: null, unreachable: [] });
    expect(right!.stats().refusals['outside-window']).toBeGreaterThan(0);
    expect(late!.stats().refusals['outside-window']).toBeGreaterThan(0);
    expect(await right!.tills(500)).toEqual([]);
  });
});
