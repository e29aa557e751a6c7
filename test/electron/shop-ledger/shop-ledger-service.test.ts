// Three tills of one shop on loopback (electron/shop-ledger/shop-ledger-service.ts,
// peer-transport.ts): a claim at one is refused at the others, a late till learns earlier
// claims, a stopped till is named within the bounded wait, two claims at one instant give
// one winner everywhere, and another shop's till learns nothing.
import { createServer, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { claimToken } from '../../../electron/shop-ledger/claims';
import { createShopLedger, type ShopLedger } from '../../../electron/shop-ledger/shop-ledger-service';
import type { PeerAddress } from '../../../electron/shop-ledger/peer-transport';
import type { SeenTill } from '../../../electron/shop-ledger/seen-tills';
import type { ShopKeys } from '../../../electron/shop-ledger/shop-secret';
import { freePort, LOOPBACK } from '../../support/free-port';
import { OTHER_SHOP_KEYS, SHOP_KEYS } from '../../support/shop-keys';

const HOST = LOOPBACK;
const CODE = 'RW-LAYLA001';
/** The shop's clock: it moves only when a test moves it. */
const clock = { ms: Date.parse('2026-11-26T10:00:00.000Z') };
const now = () => clock.ms;

const running: ShopLedger[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((till) => till.stop()));
});

type Three<T> = [T, T, T];

/** Tills "Till 1" to "Till 3", each with the two others as peers; none started. */
async function shop(): Promise<{ tills: Three<ShopLedger>; addresses: Three<PeerAddress> }> {
  const port = async () => ({ host: HOST, port: await freePort() });
  const addresses: Three<PeerAddress> = [await port(), await port(), await port()];
  const peersOf = (listen: PeerAddress) => addresses.filter((other) => other !== listen);
  const [a, b, c] = addresses;
  return {
    tills: [till('Till 1', a, peersOf(a)), till('Till 2', b, peersOf(b)), till('Till 3', c, peersOf(c))],
    addresses,
  };
}

function till(
  tillName: string,
  listen: PeerAddress,
  peers: PeerAddress[],
  keys: ShopKeys = SHOP_KEYS,
  askTimeoutMs = 1000,
): ShopLedger {
  return createShopLedger({ keys, tillName, peers, listen, now, askTimeoutMs });
}

async function start(...tills: ShopLedger[]): Promise<void> {
  for (const one of tills) {
    running.push(one);
    await one.start();
  }
}

describe('three tills of one shop', () => {
  test('a claim at till 1 is seen by tills 2 and 3 through check', async () => {
    const { tills } = await shop();
    await start(...tills);
    const { winner: claim, won, unreachable } = await tills[0].claim(CODE);
    expect(claim).toMatchObject({ till: 'Till 1', token: claimToken(SHOP_KEYS, CODE) });
    expect({ won, unreachable }).toEqual({ won: true, unreachable: [] });
    expect(await tills[1].check('rw-layla001')).toEqual({ claimedBy: claim, unreachable: [] });
    expect(await tills[2].check(CODE)).toEqual({ claimedBy: claim, unreachable: [] });
    // The claiming till itself is not told to refuse its own claim.
    expect(await tills[0].check(CODE)).toEqual({ claimedBy: null, unreachable: [] });
  });

  test('a till started later learns the earlier claims at start', async () => {
    const { tills } = await shop();
    await start(tills[0], tills[1]);
    const { winner: claim } = await tills[0].claim(CODE);
    await tills[1].stop(); // till 3 must learn it from till 1 alone, or from both
    await start(tills[2]);
    expect(tills[2].stats().claims).toBe(1);
    // Till 2, gone before Till 3 ever heard from it, is asked at its address and not named:
    // an address nobody has answered at may be nobody's.
    expect(await tills[2].check(CODE, { waitMs: 500 })).toEqual({ claimedBy: claim, unreachable: [] });
  });

  test('a stopped till is named unreachable by its name, within the bounded wait', async () => {
    const { tills, addresses } = await shop();
    await start(...tills);
    // Till 3 started last: this check is the first time till 1 hears from it.
    expect(await tills[0].check(CODE)).toEqual({ claimedBy: null, unreachable: [] });
    await tills[2].stop();
    const started = performance.now();
    const result = await tills[0].check(CODE, { waitMs: 300 });
    expect(performance.now() - started).toBeLessThan(1000);
    // Till 3 answered before: it is named, not its address.
    expect(result).toEqual({ claimedBy: null, unreachable: ['Till 3'] });
    // A claim made meanwhile names it too.
    expect((await tills[0].claim(CODE)).unreachable).toEqual(['Till 3']);
    // Hours later it is no longer one of the shop's tills to wait for, nor named; its address,
    // named in Settings, is still asked, and a till answering there is proven and named again.
    clock.ms += 9 * 60 * 60 * 1000;
    expect((await tills[0].check(CODE, { waitMs: 300 })).unreachable).toEqual([]);
    const back = till('Till 3', addresses[2], []);
    await start(back);
    expect((await tills[0].check(CODE, { waitMs: 300 })).unreachable).toEqual([]);
    await back.stop();
    expect((await tills[0].check(CODE, { waitMs: 300 })).unreachable).toEqual(['Till 3']);
  });

  test('lists the shop’s tills live for Settings: who answers now, and when each last did', async () => {
    const { tills } = await shop();
    await start(...tills);
    const first = await tills[0].tills(300);
    expect(first).toEqual([
      { till: 'Till 2', reachable: true, lastHeardAt: clock.ms },
      { till: 'Till 3', reachable: true, lastHeardAt: clock.ms },
    ]);
    const heard = clock.ms;
    clock.ms += 60_000;
    await tills[2].stop();
    expect(await tills[0].tills(300)).toEqual([
      { till: 'Till 2', reachable: true, lastHeardAt: clock.ms },
      // Named as it answered before, not reachable now, last heard a minute ago.
      { till: 'Till 3', reachable: false, lastHeardAt: heard },
    ]);
  });

  test('a till found by discovery is asked, and still named after it drops out of discovery', async () => {
    const { tills, addresses } = await shop();
    const lone = till('Till 4', { host: HOST, port: 0 }, []);
    await start(tills[0], lone);
    await tills[0].claim(CODE);
    expect((await lone.check(CODE)).claimedBy).toBeNull();
    lone.setDiscovered([addresses[0]]);
    expect((await lone.check(CODE)).claimedBy).toMatchObject({ till: 'Till 1' });
    expect(lone.stats().peers).toBe(1);
    // Unplugged: discovery no longer sees it, yet it answered minutes ago and may hold claims.
    lone.setDiscovered([]);
    await tills[0].stop();
    expect((await lone.check(CODE, { waitMs: 300 })).unreachable).toEqual(['Till 1']);
  });

  test('tills heard from before a restart are still named; the list is kept when it changes', async () => {
    const { tills, addresses } = await shop();
    const kept: SeenTill[][] = [];
    const first = createShopLedger({
      keys: SHOP_KEYS,
      tillName: 'Till 1',
      peers: [],
      listen: { host: HOST, port: 0 },
      now,
      onSeen: (list) => kept.push(list),
    });
    await start(tills[2], first);
    first.setDiscovered([addresses[2]]);
    await first.check(CODE);
    await first.check(CODE);
    // Kept once on hearing of Till 3, not again on every check.
    expect(kept).toEqual([[{ till: 'Till 3', host: HOST, port: addresses[2].port, at: clock.ms }]]);
    await first.stop();
    await tills[2].stop();
    // After a restart, with discovery yet to find anyone: Till 3 is asked, and named.
    const again = createShopLedger({
      keys: SHOP_KEYS,
      tillName: 'Till 1',
      peers: [],
      listen: { host: HOST, port: 0 },
      now,
      seenBefore: kept.at(-1),
    });
    await start(again);
    expect(await again.check(CODE, { waitMs: 300 })).toEqual({ claimedBy: null, unreachable: ['Till 3'] });
  });

  test('holder names another till’s claim without asking anyone', async () => {
    const { tills } = await shop();
    await start(tills[0], tills[1]);
    expect(tills[1].holder(CODE)).toBeNull();
    const { winner } = await tills[0].claim(CODE);
    await tills[0].stop();
    expect(tills[1].holder(CODE)).toEqual(winner);
    // A till's own claim is not "another till's".
    expect(tills[0].holder(CODE)).toBeNull();
  });

  test('a peer that never answers is cut off by the wait', async () => {
    // A host that accepts connections and says nothing: the wait, not the peer, ends the check.
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, HOST, resolve));
    const silentAt = { host: HOST, port: (silent.address() as AddressInfo).port };
    const one = till('Till 1', { host: HOST, port: 0 }, [silentAt], SHOP_KEYS, 200);
    await start(one);
    const started = performance.now();
    // It never answered, so it is no till to name: the wait alone ends the check.
    expect(await one.check(CODE, { waitMs: 200 })).toEqual({ claimedBy: null, unreachable: [] });
    expect(one.stats().peers).toBe(1);
    // The claim that follows does not wait for it a second time: one bounded wait in all.
    expect((await one.claim(CODE)).unreachable).toEqual([]);
    expect(performance.now() - started).toBeLessThan(800);
    silent.close();
  });

  test('two claims at one instant at tills 1 and 2: every till agrees on one winner', async () => {
    const { tills } = await shop();
    await start(...tills);
    const [first, second] = await Promise.all([tills[0].claim(CODE), tills[1].claim(CODE)]);
    // Same `at`: the smaller till name wins, whichever message arrived first; each claimer
    // knows it from its own claim's answers, before it hands anything over.
    expect(first.winner.till).toBe('Till 1');
    expect(second.winner).toEqual(first.winner);
    expect([first.won, second.won]).toEqual([true, false]);
    expect((await tills[0].check(CODE)).claimedBy).toBeNull();
    expect((await tills[1].check(CODE)).claimedBy).toEqual(first.winner);
    expect((await tills[2].check(CODE)).claimedBy).toEqual(first.winner);
  });

  test('racing claims on clocks a millisecond apart: exactly one till wins, every time', async () => {
    // Till 2's clock runs behind, so its claim is the earlier one, whatever the network does.
    const addresses = [
      { host: HOST, port: await freePort() },
      { host: HOST, port: await freePort() },
    ];
    const one = createShopLedger({
      keys: SHOP_KEYS,
      tillName: 'Till 1',
      peers: [addresses[1]!],
      listen: addresses[0]!,
      now,
    });
    const two = createShopLedger({
      keys: SHOP_KEYS,
      tillName: 'Till 2',
      peers: [addresses[0]!],
      listen: addresses[1]!,
      now: () => clock.ms - 1,
    });
    await start(one, two);
    for (let round = 0; round < 20; round += 1) {
      const code = `RW-RACE${String(round).padStart(3, '0')}`;
      const [a, b] = await Promise.all([one.claim(code), two.claim(code)]);
      expect([a.won, b.won]).toEqual([false, true]);
      expect(a.winner).toEqual(b.winner);
    }
  });

  test('a settled reward is no longer refused at the till that settled it', async () => {
    const { tills } = await shop();
    await start(...tills);
    await tills[0].claim(CODE);
    tills[1].settle(CODE);
    expect((await tills[1].check(CODE)).claimedBy).toBeNull();
  });

  test("another shop's till is refused and learns nothing", async () => {
    const { tills, addresses } = await shop();
    await start(...tills);
    await tills[0].claim(CODE);
    const stranger = till('Till 1', { host: HOST, port: 0 }, addresses, OTHER_SHOP_KEYS);
    await start(stranger);
    // No till of its shop answers there: none is proven, so none is named, and none listed.
    expect((await stranger.claim('RW-OTHER001')).unreachable).toEqual([]);
    const result = await stranger.check(CODE, { waitMs: 500 });
    expect(result).toEqual({ claimedBy: null, unreachable: [] });
    expect(await stranger.tills(500)).toEqual([]);
    expect(stranger.stats()).toMatchObject({ claims: 1 });
    for (const one of tills) expect(one.stats().refusals.unreadable).toBeGreaterThanOrEqual(2);
    expect(tills[1].stats().claims).toBe(1);
  });
});

describe('inputs are checked', () => {
  test.each([
    ['a till name with a newline', { tillName: 'Till\n1' }],
    ['a port out of range', { peers: [{ host: HOST, port: 70_000 }] }],
    ['an empty host', { listen: { host: '', port: 0 } }],
    ['an unbounded wait', { askTimeoutMs: 60_000 }],
  ])('%s', (_what, change) => {
    const options = { keys: SHOP_KEYS, tillName: 'Till 1', peers: [], listen: { host: HOST, port: 0 }, ...change };
    expect(() => createShopLedger(options)).toThrow(RangeError);
  });

  test('starting twice, or on a port already taken, fails', async () => {
    const first = till('Till 1', { host: HOST, port: 0 }, []);
    await start(first);
    const taken = await first.start().catch((error: unknown) => error);
    expect(taken).toBeInstanceOf(Error);
    const { tills, addresses } = await shop();
    await start(tills[0]);
    const twin = till('Till 9', addresses[0], []);
    await expect(twin.start()).rejects.toThrow(/EADDRINUSE/);
  });

  test('a wait above the cap', async () => {
    const one = till('Till 1', { host: HOST, port: 0 }, []);
    await expect(one.check(CODE, { waitMs: 60_000 })).rejects.toThrow(RangeError);
  });
});
