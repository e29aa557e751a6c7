// A neighbour on the LAN that records the tills' traffic and sends it back from its own address
// (docs/shop-ledger.md, "What a LAN neighbour can and cannot do"): frames captured while three
// tills start and around a claim, replayed to every till's port. No replayed request is
// answered, no till is added to any till's book (least of all a till's own name), every check
// still reaches every real till, and a claim made after the replays is still seen.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { PeerAddress } from '../../../electron/shop-ledger/peer-transport';
import { createShopLedger, type ShopLedger } from '../../../electron/shop-ledger/shop-ledger-service';
import { replayFrames } from '../../support/frame-replay';
import { kindsOf, tapLedgerFrames, type FrameTap } from '../../support/frame-tap';
import { freePort, LOOPBACK } from '../../support/free-port';
import { SHOP_KEYS } from '../../support/shop-keys';

/** Linux routes all of 127/8 to loopback: the neighbour replays from an address of its own. */
const NEIGHBOUR = '127.0.0.9';
const CLAIMED = 'RW-REPLAY01';
const NAMES = ['Till 1', 'Till 2', 'Till 3'];
/** The shop's clock: it moves only when a test moves it, so every replay is well inside the window. */
const START = Date.parse('2026-11-26T10:00:00.000Z');
const clock = { ms: START };
const now = () => clock.ms;

let tills: ShopLedger[];
let at: PeerAddress[];
let tap: FrameTap;

beforeEach(async () => {
  clock.ms = START;
  at = [];
  for (let index = 0; index < 3; index += 1) at.push({ host: LOOPBACK, port: await freePort() });
  const ports = new Set(at.map((address) => address.port));
  tap = tapLedgerFrames((port) => ports.has(port));
  tills = at.map((listen, index) =>
    createShopLedger({
      keys: SHOP_KEYS,
      tillName: NAMES[index]!,
      listen,
      peers: at.filter((other) => other !== listen),
      now,
      askTimeoutMs: 1000,
    }),
  );
  // Start-up: each till asks the others for what they hold (and proves where they are).
  for (const till of tills) await till.start();
  // Around a claim: Till 1 checks and claims a reward; Till 2 checks it.
  expect((await tills[0]!.check(CLAIMED)).unreachable).toEqual([]);
  expect((await tills[0]!.claim(CLAIMED)).unreachable).toEqual([]);
  expect((await tills[1]!.check(CLAIMED)).claimedBy?.till).toBe('Till 1');
  tap.stop();
});

afterEach(async () => {
  tap.stop();
  await Promise.all(tills.map((till) => till.stop()));
});

describe('frames captured at start-up and around a claim, replayed from another address', () => {
  test('none is answered, no till is added, every check reaches every real till', async () => {
    const frames = tap.frames();
    // Start-up and the claim crossed the LAN: asks, queries, the claim and their answers.
    expect([...new Set(kindsOf(frames, SHOP_KEYS))].sort()).toEqual(['answer', 'ask', 'claim', 'query']);
    const replayed = await replayFrames(frames, at, { localAddress: NEIGHBOUR, rounds: 2 });
    expect(replayed.sent).toBe(frames.length * at.length * 2);
    expect(replayed.answeredAt).toEqual({});

    for (const [index, till] of tills.entries()) {
      const others = NAMES.filter((name) => name !== NAMES[index]);
      // Settings' live list: the two real tills, reachable; never the neighbour's address, never itself.
      const listed = await till.tills(1000);
      expect(listed.map(({ till: name, reachable }) => ({ name, reachable }))).toEqual(
        others.map((name) => ({ name, reachable: true })),
      );
      expect(till.stats().peers).toBe(2);
      // No split question, no refusal: every real till answers, and nothing else is named.
      expect(await till.check(`RW-AFTER${index}`)).toEqual({ claimedBy: null, unreachable: [] });
      // The replays reached the till and were refused before it did anything.
      const { refusals } = till.stats();
      expect((refusals.replayed ?? 0) + (refusals.misaddressed ?? 0)).toBeGreaterThan(0);
    }
    // The claim made before the replays still stands everywhere, and a new one still travels.
    expect((await tills[2]!.check(CLAIMED)).claimedBy?.till).toBe('Till 1');
    expect((await tills[1]!.claim('RW-REPLAY02')).unreachable).toEqual([]);
    expect((await tills[2]!.check('RW-REPLAY02')).claimedBy?.till).toBe('Till 2');
  });

  test('replayed again once the shop’s clock has moved past the window: refused as old', async () => {
    const frames = tap.frames();
    clock.ms += 10 * 60 * 1000;
    const replayed = await replayFrames(frames, at, { localAddress: NEIGHBOUR });
    expect(replayed.answeredAt).toEqual({});
    for (const till of tills) {
      expect(till.stats().refusals['outside-window']).toBeGreaterThan(0);
      expect((await till.check('RW-LATER01')).unreachable).toEqual([]);
    }
  });
});
