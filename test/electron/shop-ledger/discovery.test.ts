// Tills of a shop finding each other by mDNS (electron/shop-ledger/discovery.ts). The tills
// run as child processes inside a network namespace this test makes, with multicast on that
// namespace's loopback: their queries and announcements never reach the machine's network
// (docs/tests.md, "Nothing leaves the machine").
import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { peerOf } from '../../../electron/shop-ledger/discovery';
import type { PeerAddress } from '../../../electron/shop-ledger/peer-transport';
import { createLan, createNetworkNamespace, type Lan, type NetworkNamespace } from '../../support/network-namespace';

const TILL = 'test/support/netns/discovery-till.ts';
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

/** A till's discovery in the namespace, and every peer list it has reported. */
interface TillProcess {
  seen: PeerAddress[][];
  errors: string[];
  stopped: Promise<void>;
  stop(): Promise<void>;
}

function startTill(
  namespace: NetworkNamespace,
  tag: string,
  port: number,
  mdnsPort: number,
  extra: string[] = [],
): Promise<TillProcess> {
  const child: ChildProcess = namespace.spawnTsx(TILL, [
    '--tag',
    tag,
    '--port',
    String(port),
    '--mdns-port',
    String(mdnsPort),
    ...extra,
  ]);
  const till: TillProcess = {
    seen: [],
    errors: [],
    stopped: new Promise((done) => child.once('close', () => done())),
    async stop() {
      child.stdin?.write('stop\n');
      await till.stopped;
    },
  };
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((ready, fail) => {
    child.once('exit', (code) =>
      fail(new Error(`the till in ${namespace.name} exited (${code}) before it was ready: ${stderr}`)),
    );
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const event = JSON.parse(line) as { ready?: true; peers?: PeerAddress[]; error?: string };
      if (event.ready) {
        // From now on an exit is the till's end, stopped or not: recorded, never a failure of start.
        child.removeAllListeners('exit');
        child.once('exit', (code) => code === 0 || till.errors.push(`exited (${code}): ${stderr}`));
        ready(till);
      }
      if (event.peers) till.seen.push(event.peers);
      if (event.error) till.errors.push(event.error);
    });
  });
}

describe('tills of a shop on a network the test made itself', () => {
  let namespace: NetworkNamespace;
  beforeAll(async () => {
    namespace = await createNetworkNamespace({ multicast: true });
  });
  afterAll(async () => {
    await namespace?.remove();
  });

  test('each finds the other, a till of another shop is ignored, and a stopped till drops out', async () => {
    // The standard mDNS port: inside the namespace no real responder can answer.
    const mdnsPort = 5353;
    const [a, b, stranger] = await Promise.all([
      startTill(namespace, 'aaaaaaaaaaaaaaaa', 47001, mdnsPort),
      startTill(namespace, 'aaaaaaaaaaaaaaaa', 47002, mdnsPort),
      startTill(namespace, 'bbbbbbbbbbbbbbbb', 47003, mdnsPort),
    ]);

    await vi.waitFor(() => expect(a.seen.at(-1)?.map((peer) => peer.port)).toEqual([47002]), { timeout: 10_000 });
    await vi.waitFor(() => expect(b.seen.at(-1)?.map((peer) => peer.port)).toEqual([47001]), { timeout: 10_000 });
    // The records came over the namespace's loopback, and no other way.
    expect(a.seen.at(-1)?.[0]?.host).toBe('127.0.0.1');
    // Never itself, never the other shop's till.
    expect(a.seen.flat().map((peer) => peer.port)).not.toContain(47001);
    expect(a.seen.flat().map((peer) => peer.port)).not.toContain(47003);
    expect(stranger.seen.flat()).toEqual([]);

    await b.stop();
    await vi.waitFor(() => expect(a.seen.at(-1)).toEqual([]), { timeout: 10_000 });
    expect([...a.errors, ...b.errors, ...stranger.errors]).toEqual([]);
    await Promise.all([a.stop(), stranger.stop()]);
  }, 40_000);
});

/** Whether `from` can open a TCP connection to host:port within a second ("up" or "down"). */
async function reach(from: NetworkNamespace, host: string, port: number): Promise<string> {
  const script = `const s = require('node:net').connect(${port}, '${host}');
    s.setTimeout(1000, () => { console.log('down'); process.exit(0); });
    s.on('connect', () => { console.log('up'); process.exit(0); });
    s.on('error', () => { console.log('down'); process.exit(0); });`;
  return (await from.run(process.execPath, ['-e', script])).trim();
}

describe('tills on a LAN of three hosts the test made itself', () => {
  let lan: Lan;
  beforeAll(async () => {
    lan = await createLan(3);
  });
  afterAll(async () => {
    await lan?.remove();
  });

  test('each finds the others at their LAN addresses, and a cut link parts a host until it is healed', async () => {
    const tills = await Promise.all(
      lan.hosts.map((host, index) => startTill(host, 'cccccccccccccccc', 47101 + index, 5353, ['--lan'])),
    );
    const [one, two, three] = lan.hosts.map((host) => host.address);
    await vi.waitFor(
      () =>
        expect(tills[0]!.seen.at(-1)).toEqual(
          expect.arrayContaining([
            { host: two, port: 47102 },
            { host: three, port: 47103 },
          ]),
        ),
      { timeout: 10_000 },
    );
    await vi.waitFor(() => expect(tills[2]!.seen.at(-1)).toContainEqual({ host: one, port: 47101 }), {
      timeout: 10_000,
    });

    expect(await reach(lan.hosts[0]!, two!, 47102)).toBe('up');
    await lan.cut(1);
    expect(await reach(lan.hosts[0]!, two!, 47102)).toBe('down');
    expect(await reach(lan.hosts[0]!, three!, 47103)).toBe('up');
    await lan.heal(1);
    await vi.waitFor(async () => expect(await reach(lan.hosts[0]!, two!, 47102)).toBe('up'), { timeout: 10_000 });
    expect(tills.flatMap((till) => till.errors)).toEqual([]);
    await Promise.all(tills.map((till) => till.stop()));
  }, 40_000);
});
