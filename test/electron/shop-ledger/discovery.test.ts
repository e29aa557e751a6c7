// Tills of a shop finding each other by mDNS (electron/shop-ledger/discovery.ts), over the
// machine's real multicast, on a port of the tests' own so as not to meet a real responder.
import { afterEach, describe, expect, test, vi } from 'vitest';
import { peerOf, startDiscovery, type Discovery } from '../../../electron/shop-ledger/discovery';
import type { PeerAddress } from '../../../electron/shop-ledger/peer-transport';
import { freePort } from '../../support/free-port';

const running: Discovery[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((one) => one.stop()));
});

describe('where a discovered till is dialled', () => {
  test('the address its answer came from, when that is on the LAN', () => {
    expect(peerOf({ port: 47231, referer: { address: '192.168.1.7', family: 'IPv4', port: 5353, size: 1 } })).toEqual({
      host: '192.168.1.7',
      port: 47231,
    });
  });

  test('else the first address it lists that can be dialled on the LAN', () => {
    const referer = { address: '203.0.113.9', family: 'IPv4' as const, port: 5353, size: 1 };
    expect(peerOf({ port: 47231, referer, addresses: ['fe80::1', '8.8.8.8', 'fd00::2', '10.0.0.3'] })).toEqual({
      host: 'fd00::2',
      port: 47231,
    });
  });

  test('nowhere, for a public address only or a port out of range', () => {
    expect(peerOf({ port: 47231, addresses: ['8.8.8.8', '2001:db8::1'] })).toBeNull();
    expect(peerOf({ port: 0, addresses: ['10.0.0.3'] })).toBeNull();
    expect(peerOf({ port: 70_000, addresses: ['10.0.0.3'] })).toBeNull();
  });
});

describe('two tills of a shop on one network', () => {
  test('each finds the other, a till of another shop is ignored, and a stopped till drops out', async () => {
    const mdns = { port: await freePort() };
    // This machine's own addresses may be documentation or public ranges: what is tested here
    // is what the records say; which addresses are dialled is tested above.
    const seen = { a: [] as PeerAddress[][], b: [] as PeerAddress[][] };
    const a = startDiscovery({
      tag: 'aaaaaaaaaaaaaaaa',
      port: 47001,
      mdns,
      onPeers: (p) => seen.a.push(p),
      dialable: () => true,
    });
    const b = startDiscovery({
      tag: 'aaaaaaaaaaaaaaaa',
      port: 47002,
      mdns,
      onPeers: (p) => seen.b.push(p),
      dialable: () => true,
    });
    const stranger = startDiscovery({
      tag: 'bbbbbbbbbbbbbbbb',
      port: 47003,
      mdns,
      onPeers: () => undefined,
      dialable: () => true,
    });
    running.push(a, stranger);

    await vi.waitFor(() => expect(seen.a.at(-1)?.map((peer) => peer.port)).toEqual([47002]), { timeout: 8000 });
    await vi.waitFor(() => expect(seen.b.at(-1)?.map((peer) => peer.port)).toEqual([47001]), { timeout: 8000 });
    // Never itself, never the other shop's till.
    expect(seen.a.flat().map((peer) => peer.port)).not.toContain(47001);
    expect(seen.a.flat().map((peer) => peer.port)).not.toContain(47003);

    await b.stop();
    await vi.waitFor(() => expect(seen.a.at(-1)).toEqual([]), { timeout: 8000 });
  });
});
