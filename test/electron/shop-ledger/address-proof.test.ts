// A hello names a till; it does not move it (electron/shop-ledger/peer-book.ts,
// address-proofs.ts, peer-exchanges.ts): a till is placed at an address only once it has
// answered, there, a question the listening till chose. Messages here are sealed with the
// shop's keys, fresh and for Till 1's own port, as a till of the shop would send them: what a
// misconfigured or misplaced till can say, beyond what any replay can.
import { createConnection, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { encodeFrame } from '../../../electron/shop-ledger/frames';
import type { PeerAddress } from '../../../electron/shop-ledger/peer-transport';
import { createShopLedger, type ShopLedger } from '../../../electron/shop-ledger/shop-ledger-service';
import { sealMessage } from '../../../electron/shop-ledger/wire';
import { createCapturedLog, type CapturedLog } from '../../support/captured-log';
import { LOOPBACK } from '../../support/free-port';
import { SHOP_KEYS } from '../../support/shop-keys';

/** Linux routes all of 127/8 to loopback: the sender has an address of its own. */
const ELSEWHERE = '127.0.0.7';
const clock = { ms: Date.parse('2026-11-26T10:00:00.000Z') };
const now = () => clock.ms;

let one: ShopLedger;
let at: PeerAddress;
let log: CapturedLog;
/** A port at ELSEWHERE that takes connections and says nothing: where a hello says its till listens. */
let silent: Server;
let silentPort: number;
let dialled: number;
/** Connections to it that Till 1 gave up on. */
let given: number;
const held = new Set<Socket>();

beforeEach(async () => {
  log = createCapturedLog();
  one = createShopLedger({
    keys: SHOP_KEYS,
    tillName: 'Till 1',
    listen: { host: LOOPBACK, port: 0 },
    peers: [],
    now,
    askTimeoutMs: 300,
    log,
  });
  at = await one.start();
  dialled = 0;
  given = 0;
  silent = createServer((socket) => {
    dialled += 1;
    held.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => (given += 1));
    // Read (and drop) what comes, so the far end's closing is seen.
    socket.resume();
  });
  await new Promise<void>((resolve) => silent.listen(0, ELSEWHERE, resolve));
  silentPort = (silent.address() as AddressInfo).port;
});

afterEach(async () => {
  await one.stop();
  for (const socket of held) socket.destroy();
  await new Promise<void>((resolve) => silent.close(() => resolve()));
});

/** A fresh `query` sealed by `from` for Till 1's port, saying it listens on `port`, sent from ELSEWHERE; the bytes back. */
function hello(from: string, port: number): Promise<number> {
  const bytes = sealMessage({ kind: 'query', token: 'A'.repeat(43) }, SHOP_KEYS, {
    from,
    to: `${at.host}:${at.port}`,
    port,
    now: new Date(clock.ms),
  });
  return new Promise((resolve) => {
    let back = 0;
    const socket = createConnection({ ...at, localAddress: ELSEWHERE });
    socket.on('data', (chunk: Buffer) => (back += chunk.length));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(back));
    socket.once('connect', () => socket.end(encodeFrame(bytes)));
  });
}

describe('an address is proven before it is believed', () => {
  test('a hello from where no till answers: dialled once, and no till placed there', async () => {
    // A fresh request of the shop is answered: the asker is a till of the shop, wherever it is.
    expect(await hello('Till 2', silentPort)).toBeGreaterThan(0);
    // Till 1 dials the address the hello names, with a question of its own, and gives up
    // when nothing answers within its wait…
    await expect.poll(() => given, { timeout: 5_000 }).toBe(1);
    expect(dialled).toBe(1);
    // …and more hellos from there, its proof having failed a moment ago, cost no more dials.
    for (let again = 0; again < 5; again += 1) await hello('Till 2', silentPort);
    // Nothing answered it: Till 2 is not at that address, not named, not listed.
    expect(await one.tills(300)).toEqual([]);
    expect(one.stats().peers).toBe(0);
    expect(await one.check('RW-PROOF01', { waitMs: 300 })).toEqual({ claimedBy: null, unreachable: [] });
    expect(dialled).toBe(1);
  });

  test('a hello bearing this till’s own name is ignored, and the log says so once', async () => {
    expect(await hello('Till 1', silentPort)).toBeGreaterThan(0);
    expect(await hello('Till 1', silentPort)).toBeGreaterThan(0);
    expect(await one.tills(300)).toEqual([]);
    expect(dialled).toBe(0);
    const said = log.lines.filter((line) => line.includes('own name'));
    expect(said).toEqual([expect.stringContaining(`came from ${ELSEWHERE}:${silentPort}`)]);
  });

  test('a till that answers at its own address, named in Settings, is never booked as another', async () => {
    const loop = createShopLedger({
      keys: SHOP_KEYS,
      tillName: 'Till 5',
      listen: { host: LOOPBACK, port: 0 },
      peers: [],
      now,
      askTimeoutMs: 300,
      log,
    });
    const loopAt = await loop.start();
    try {
      // Its own address found (a Settings list copied from till to till, or discovery seeing itself).
      loop.setDiscovered([loopAt]);
      expect(await loop.check('RW-PROOF02', { waitMs: 300 })).toEqual({ claimedBy: null, unreachable: [] });
      expect(await loop.tills(300)).toEqual([]);
      expect(log.lines.filter((line) => line.includes('own name'))).toHaveLength(1);
    } finally {
      await loop.stop();
    }
  });
});
