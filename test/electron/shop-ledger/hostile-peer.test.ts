// What a hostile host on the LAN can send to a till's shop-ledger port
// (electron/shop-ledger/peer-transport.ts, frames.ts, address-rate-limit.ts): each is refused,
// counted by reason, and the till keeps answering the real till of its shop.
import { createConnection } from 'node:net';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { encodeFrame } from '../../../electron/shop-ledger/frames';
import { newClaim } from '../../../electron/shop-ledger/claims';
import type { PeerAddress, TransportRefusal } from '../../../electron/shop-ledger/peer-transport';
import { createShopLedger, type ShopLedger } from '../../../electron/shop-ledger/shop-ledger-service';
import { sealMessage, type ShopMessage } from '../../../electron/shop-ledger/wire';
import type { ShopKeys } from '../../../electron/shop-ledger/shop-secret';
import { freePort, LOOPBACK } from '../../support/free-port';
import { OTHER_SHOP_KEYS, SHOP_KEYS } from '../../support/shop-keys';

const clock = { ms: Date.parse('2026-11-26T10:00:00.000Z') };
const now = () => clock.ms;
const LIMITS = {
  readTimeoutMs: 200,
  maxConnections: 6,
  reservedConnections: 3,
  openPerAddress: 2,
  connectionsPerAddress: 10,
  rateWindowMs: 10_000,
};
/** Linux routes all of 127/8 to loopback: the hostile host gets addresses of its own. */
const HOSTILE = '127.0.0.2';

let till1: ShopLedger;
let till2: ShopLedger;
let at1: PeerAddress;

beforeEach(async () => {
  at1 = { host: LOOPBACK, port: await freePort() };
  const at2 = { host: LOOPBACK, port: await freePort() };
  const options = { keys: SHOP_KEYS, now, askTimeoutMs: 1000, limits: LIMITS };
  till1 = createShopLedger({ ...options, tillName: 'Till 1', listen: at1, peers: [at2] });
  till2 = createShopLedger({ ...options, tillName: 'Till 2', listen: at2, peers: [at1] });
  await till1.start();
  await till2.start();
});

afterEach(async () => {
  await Promise.all([till1.stop(), till2.stop()]);
});

/** Opens a connection from `localAddress`, writes `bytes`, and waits for the till to close it. */
function sendRaw(bytes: Uint8Array, localAddress = HOSTILE): Promise<{ reply: Buffer; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const chunks: Buffer[] = [];
    const socket = createConnection({ ...at1, localAddress });
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve({ reply: Buffer.concat(chunks), ms: performance.now() - started }));
    socket.once('connect', () => socket.write(bytes));
    setTimeout(() => reject(new Error('the till kept the connection open')), 2000).unref();
  });
}

/** Sealed as a till of the shop seals a message to Till 1's port (the hostile host holds the keys only where a test says so). */
function sealed(message: ShopMessage, from = 'Till 2', keys: ShopKeys = SHOP_KEYS, to = at1): Buffer {
  return sealMessage(message, keys, { from, to: `${to.host}:${to.port}`, now: new Date(clock.ms) });
}

const ASK: ShopMessage = { kind: 'ask', since: new Date(0).toISOString() };

function refusals(reason: TransportRefusal): number {
  return till1.stats().refusals[reason] ?? 0;
}

let codes = 0;
/** The real till 2 claims a new reward, and till 1 is asked about it. */
async function stillServesTheShop(): Promise<void> {
  codes += 1;
  const code = `RW-REAL${codes}`;
  await till2.claim(code);
  expect((await till1.check(code)).claimedBy?.till).toBe('Till 2');
}

describe('a hostile peer is refused, counted, and the shop still served', () => {
  test('a connection from outside the LAN is closed before a byte is read', async () => {
    // 127.0.0.2 stands in for a public address: the till answers only the addresses it is told are the LAN's.
    const guarded = createShopLedger({
      keys: SHOP_KEYS,
      now,
      tillName: 'Till 9',
      listen: { host: LOOPBACK, port: 0 },
      peers: [],
      acceptRemote: (address) => address !== HOSTILE,
    });
    const at = await guarded.start();
    try {
      const reply = await new Promise<Buffer>((resolve) => {
        const chunks: Buffer[] = [];
        const socket = createConnection({ ...at, localAddress: HOSTILE });
        socket.on('data', (chunk: Buffer) => chunks.push(chunk));
        socket.on('error', () => undefined);
        socket.on('close', () => resolve(Buffer.concat(chunks)));
        socket.once('connect', () => socket.write(encodeFrame(sealed(ASK, 'Till 2', SHOP_KEYS, at))));
      });
      expect(reply.length).toBe(0);
      expect(guarded.stats().refusals['not-lan']).toBe(1);
    } finally {
      await guarded.stop();
    }
  });

  test('a message sealed with another shop’s secret', async () => {
    const claim = newClaim(OTHER_SHOP_KEYS, 'RW-EVIL1', 'Till 2', new Date(clock.ms));
    const { reply } = await sendRaw(encodeFrame(sealed({ kind: 'claim', claim }, 'Till 2', OTHER_SHOP_KEYS)));
    expect(reply.length).toBe(0);
    expect(refusals('unreadable')).toBe(1);
    expect(till1.stats().claims).toBe(0);
    await stillServesTheShop();
  });

  test('a replayed message', async () => {
    const frame = encodeFrame(sealed(ASK));
    expect((await sendRaw(frame)).reply.length).toBeGreaterThan(0); // the first is answered
    expect((await sendRaw(frame)).reply.length).toBe(0);
    expect(refusals('replayed')).toBe(1);
    await stillServesTheShop();
  });

  test('a forged till name: changed on the wire, or by a holder of the box key after sealing', async () => {
    // On the wire the box cannot be read, only changed, and a changed box does not open.
    const box = sealed(ASK);
    box[box.length - 20] = box[box.length - 20]! ^ 0x01;
    await sendRaw(encodeFrame(box));
    expect(refusals('unreadable')).toBe(1);
    // Re-boxed after changing the sender: the MAC, under a key of its own, still refuses it.
    const message = JSON.parse(SHOP_KEYS.unbox(sealed(ASK))!.toString('utf8'));
    message.from = 'Till 3';
    await sendRaw(encodeFrame(SHOP_KEYS.box(Buffer.from(JSON.stringify(message)))), '127.0.0.3');
    expect(refusals('forged')).toBe(1);
    await stillServesTheShop();
  });

  test('an oversized frame, refused from its header before it is sent', async () => {
    const header = Buffer.alloc(4);
    header.writeUInt32BE(64 * 1024 * 1024);
    const { ms } = await sendRaw(header);
    expect(ms).toBeLessThan(LIMITS.readTimeoutMs);
    expect(refusals('frame-too-large')).toBe(1);
    await stillServesTheShop();
  });

  test('garbage bytes, framed or not', async () => {
    await sendRaw(encodeFrame(Buffer.from([0xff, 0xfe, 0x00, 0x7b])));
    await sendRaw(Buffer.from('GET / HTTP/1.1\r\nHost: till\r\n\r\n'));
    await sendRaw(Buffer.concat([encodeFrame(sealed(ASK)), Buffer.from('more')]));
    expect(till1.stats().refusals).toMatchObject({ unreadable: 1, 'frame-too-large': 1, 'bad-frame': 1 });
    await stillServesTheShop();
  });

  test('an answer nobody asked for', async () => {
    await sendRaw(encodeFrame(sealed({ kind: 'answer', inReplyTo: 'AAAAAAAAAAAAAAAAAAAAAA', claims: [] })));
    expect(refusals('unexpected-kind')).toBe(1);
    await stillServesTheShop();
  });

  test('a connection that sends nothing is closed after the read timeout', async () => {
    const { ms } = await sendRaw(Buffer.alloc(0));
    expect(ms).toBeGreaterThanOrEqual(LIMITS.readTimeoutMs - 20);
    expect(refusals('timeout')).toBe(1);
    await stillServesTheShop();
  });

  test('a till of the shop heard from this shift is not rate-limited, however often it asks', async () => {
    for (let round = 0; round < LIMITS.connectionsPerAddress * 2; round += 1) {
      expect((await till2.check(`RW-OFTEN${round}`)).unreachable).toEqual([]);
    }
    expect(refusals('rate-limited')).toBe(0);
  });

  test('a flood from one address is rate-limited; other addresses are served', async () => {
    const flood = Array.from({ length: 25 }, () => sendRaw(encodeFrame(Buffer.from('{}'))));
    await Promise.all(flood);
    expect(refusals('rate-limited')).toBeGreaterThanOrEqual(15);
    await stillServesTheShop();
  });

  test('idle connections: a few per address, strangers never take the places kept for the shop’s tills', async () => {
    // Three silent connections from each of three addresses: two per address at most, and the
    // three places strangers may hold; the rate limit is not what stops them.
    const idle = ['127.0.0.3', '127.0.0.4', '127.0.0.5'].flatMap((address) => [
      sendRaw(Buffer.alloc(0), address),
      sendRaw(Buffer.alloc(0), address),
      sendRaw(Buffer.alloc(0), address),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    // During the siege, Till 2 (heard from at start) still reaches Till 1 through its reserved places.
    await stillServesTheShop();
    await Promise.all(idle);
    expect(refusals('address-busy') + refusals('too-many-connections')).toBe(6);
    expect(refusals('timeout')).toBe(3);
  });
});
