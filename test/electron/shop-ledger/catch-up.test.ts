// How tills of one shop catch up (electron/shop-ledger/shop-ledger-service.ts, claim-ledger.ts):
// claims kept across a restart, a link that comes back, anti-entropy on a timer, and the sealed
// hello that names a till which only ever dialled us.
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { LedgerSnapshot } from '../../../electron/shop-ledger/claim-ledger';
import type { PeerAddress } from '../../../electron/shop-ledger/peer-transport';
import {
  createShopLedger,
  type ShopLedger,
  type ShopLedgerOptions,
} from '../../../electron/shop-ledger/shop-ledger-service';
import { freePort, LOOPBACK } from '../../support/free-port';
import { SHOP_KEYS } from '../../support/shop-keys';

const CODE = 'RW-CATCH001';
const clock = { ms: Date.parse('2026-11-26T10:00:00.000Z') };
const now = () => clock.ms;

const running: ShopLedger[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((till) => till.stop()));
});

async function address(): Promise<PeerAddress> {
  return { host: LOOPBACK, port: await freePort() };
}

async function started(
  tillName: string,
  listen: PeerAddress,
  peers: PeerAddress[],
  more: Partial<ShopLedgerOptions> = {},
): Promise<ShopLedger> {
  const till = createShopLedger({ keys: SHOP_KEYS, tillName, listen, peers, now, askTimeoutMs: 500, ...more });
  running.push(till);
  await till.start();
  return till;
}

async function stop(till: ShopLedger): Promise<void> {
  running.splice(running.indexOf(till), 1);
  await till.stop();
}

describe('a till restarted while its link was down', () => {
  async function restartCase(kept: boolean): Promise<Awaited<ReturnType<ShopLedger['check']>>> {
    const [at1, at2] = [await address(), await address()];
    const one = await started('Till 1', at1, [at2]);
    // The link to Till 2 is down when Till 1 redeems: Till 2, never heard from, is not named.
    const { unreachable } = await one.claim(CODE);
    expect(unreachable).toEqual([]);
    const snapshot: LedgerSnapshot = JSON.parse(JSON.stringify(one.snapshot()));
    await stop(one);
    // Till 1 restarts, with what it kept on disk; then the link comes back.
    await started('Till 1', at1, [at2], kept ? { keptClaims: snapshot } : {});
    const two = await started('Till 2', at2, [at1]);
    return two.check(CODE);
  }

  test('its claim comes back from disk, and Till 2 refuses the reward', async () => {
    const result = await restartCase(true);
    expect(result.claimedBy?.till).toBe('Till 1');
    expect(result.unreachable).toEqual([]);
  });

  test('(without the kept claims, Till 2 would hear of none: the case the disk is for)', async () => {
    expect((await restartCase(false)).claimedBy).toBeNull();
  });

  test('every change of the claims is reported, for the store to write', async () => {
    const onClaimsChanged = vi.fn();
    const one = await started('Till 1', await address(), [], { onClaimsChanged });
    await one.claim(CODE);
    expect(onClaimsChanged).toHaveBeenCalledTimes(1);
    one.settle(CODE);
    expect(onClaimsChanged).toHaveBeenCalledTimes(2);
    expect(one.snapshot().settled).toHaveLength(1);
  });
});

describe('after a split heals, every till knows every claim', () => {
  test('a till back on the LAN is heard from, and the other fetches what it holds, asking nothing itself', async () => {
    const [at1, at2] = [await address(), await address()];
    const one = await started('Till 1', at1, [at2]);
    // Split: Till 2 is away while Till 1 claims one reward, and Till 1 away while Till 2 claims another.
    await one.claim('RW-SPLIT001');
    const away = await started('Till 2', at2, []);
    await away.claim('RW-SPLIT002');
    const kept = away.snapshot();
    await stop(away);
    // Till 2 comes back: its start asks Till 1, whose hello tells Till 1 the link is back.
    const two = await started('Till 2', at2, [at1], { keptClaims: kept });
    expect(two.holder('RW-SPLIT001')?.till).toBe('Till 1');
    await vi.waitFor(() => expect(one.holder('RW-SPLIT002')?.till).toBe('Till 2'), { timeout: 2000 });
  });

  test('anti-entropy on a timer: claims reach a till that asked nothing', async () => {
    const [at1, at2, at3] = [await address(), await address(), await address()];
    // Till 3 knows Till 1 only by its timer's rounds; nobody announces anything to it.
    const three = await started('Till 3', at3, [at1], { syncEveryMs: 50 });
    const one = await started('Till 1', at1, [at2]);
    await started('Till 2', at2, [at1]);
    await one.claim(CODE);
    await vi.waitFor(() => expect(three.holder(CODE)?.till).toBe('Till 1'), { timeout: 2000 });
  });

  test('a settled reward still names its till at the others until the shift is over', async () => {
    const [at1, at2] = [await address(), await address()];
    const one = await started('Till 1', at1, [at2]);
    await one.claim(CODE);
    one.settle(CODE); // the service took Till 1's redemption
    // Till 2 was away all along, and comes back after Till 1 settled.
    const two = await started('Till 2', at2, [at1]);
    expect(two.holder(CODE)?.till).toBe('Till 1');
  });
});

describe('the sealed hello', () => {
  test('a till that only ever dialled us is named by its till name, and asked', async () => {
    const [at1, at3] = [await address(), await address()];
    const one = await started('Till 1', at1, []);
    const three = await started('Till 3', at3, [at1]);
    await three.claim(CODE);
    expect(one.holder(CODE)?.till).toBe('Till 3');
    // The hello names Till 3; Till 1 dials the address back, and Till 3's answer proves it.
    await vi.waitFor(async () => expect(await one.tills(300)).toMatchObject([{ till: 'Till 3', reachable: true }]));
    await stop(three);
    // Till 1 names no peer in Settings, yet asks Till 3 and names it by its name.
    expect((await one.check('RW-OTHER001', { waitMs: 300 })).unreachable).toEqual(['Till 3']);
  });
});
