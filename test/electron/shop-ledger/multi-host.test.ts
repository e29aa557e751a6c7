// Three tills of one shop on three hosts: network namespaces this test makes, joined by veth
// pairs to a bridge, finding each other by mDNS (test/support/network-namespace.ts). Each host
// runs the till's shop ledger as the main process does (test/support/netns/shop-till.ts).
// Partitions are made by taking a host's link down; a fourth host replays what the tills said
// and holds connections against them. Nothing leaves the machine: where namespaces cannot be
// made (not Linux, not root, no `ip`), the test fails saying so.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { Claim } from '../../../electron/shop-ledger/claims';
import type { CheckResult, ClaimResult, ShopTillNow } from '../../../electron/shop-ledger/shop-ledger-service';
import { createLan, requireNetworkNamespaces, type Lan, type LanHost } from '../../support/network-namespace';
import { commandChild } from '../../support/netns/command-child';
import { replayFromHost } from '../../support/replaying-host';
import { kindsOf } from '../../support/frame-tap';
import { SHOP_KEYS } from '../../support/shop-keys';

const TILL = 'test/support/netns/shop-till.ts';
const SIEGE = 'test/support/netns/siege-host.ts';
/** The port every till's ledger listens on (shop-till.ts). */
const LEDGER_PORT = 47231;
/** Anti-entropy every second here (three minutes in the app), so that a healed split shows within the test. */
const SYNC_MS = '1000';

interface ShopTill {
  readonly name: string;
  readonly peersSeen: number;
  claim(code: string): Promise<ClaimResult>;
  check(code: string): Promise<CheckResult>;
  holder(code: string): Promise<Claim | null>;
  /** Settings' live list at this till. */
  tills(): Promise<ShopTillNow[]>;
  /** Every ledger frame this till received since it started, base64: what a host recording the LAN holds. */
  captured(): Promise<string[]>;
  stop(): Promise<void>;
}

async function startTill(host: LanHost, name: string, claims: string): Promise<ShopTill> {
  const child = host.spawnTsx(TILL, ['--name', name, '--claims', claims, '--sync-ms', SYNC_MS]);
  const seen = { peers: 0 };
  const { client } = await commandChild(child, `${name} in ${host.name}`, (event) => {
    if (Array.isArray(event.peers)) seen.peers = event.peers.length;
  });
  return {
    name,
    get peersSeen() {
      return seen.peers;
    },
    claim: (code) => client.ask('claim', { code }),
    check: (code) => client.ask('check', { code }),
    holder: (code) => client.ask('holder', { code }),
    tills: () => client.ask('tills'),
    captured: () => client.ask('captured'),
    stop: () => client.stop(),
  };
}

describe('three tills of one shop on three hosts', () => {
  let lan: Lan;
  let dir: string;
  const tills: ShopTill[] = [];
  const claimsOf = (index: number): string => join(dir, `till-${index + 1}-claims.json`);

  beforeAll(async () => {
    // Loud, never quiet: without namespaces this test cannot run, and says why.
    requireNetworkNamespaces();
    dir = await mkdtemp(join(tmpdir(), 'till-lan-'));
    // Three tills, and a fourth host for the replays and the siege.
    lan = await createLan(4);
    for (const [index, host] of lan.hosts.slice(0, 3).entries()) {
      tills.push(await startTill(host, `Till ${index + 1}`, claimsOf(index)));
    }
    // Each finds the two others by mDNS, with no address named anywhere.
    await vi.waitFor(() => expect(tills.map((till) => till.peersSeen)).toEqual([2, 2, 2]), { timeout: 15_000 });
  }, 60_000);

  afterAll(async () => {
    await Promise.all(tills.map((till) => till.stop().catch(() => undefined)));
    await lan?.remove();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test('the check at Till 2 names a reward Till 1 redeemed', async () => {
    expect((await tills[0]!.claim('RW-LAN0001')).unreachable).toEqual([]);
    const result = await tills[1]!.check('RW-LAN0001');
    expect(result).toMatchObject({ claimedBy: { till: 'Till 1' }, unreachable: [] });
  }, 30_000);

  test('a fourth host replays what it recorded at start-up and around a claim: no till is fooled', async () => {
    const frames = (await Promise.all(tills.map((till) => till.captured()))).flat();
    // The start-up (asks and their answers) and the claim (queries, the claim, answers) crossed the LAN.
    const kinds = new Set(
      kindsOf(
        frames.map((frame) => Buffer.from(frame, 'base64')),
        SHOP_KEYS,
      ),
    );
    expect([...kinds].sort()).toEqual(['answer', 'ask', 'claim', 'query']);
    const targets = lan.hosts.slice(0, 3).map((host) => `${host.address}:${LEDGER_PORT}`);
    const replayed = await replayFromHost(lan.hosts[3]!, frames, targets, { dir, rounds: 2 });
    expect(replayed.sent).toBe(frames.length * targets.length * 2);
    // No replayed request is answered.
    expect(replayed.answeredAt).toEqual({});
    for (const [index, till] of tills.entries()) {
      const others = ['Till 1', 'Till 2', 'Till 3'].filter((name) => name !== till.name);
      // Settings' list: the two real tills, reachable; never the replaying host, never itself.
      const listed = (await till.tills()).map(({ till: name, reachable }) => ({ name, reachable }));
      expect(listed).toEqual(others.map((name) => ({ name, reachable: true })));
      // Every real till answers, and nothing else is named: no question, no refusal.
      expect(await till.check(`RW-GHOST${index}`)).toEqual({ claimedBy: null, unreachable: [] });
    }
    // The claim recorded stands, and a claim made now still reaches the others.
    expect((await tills[2]!.check('RW-LAN0001')).claimedBy?.till).toBe('Till 1');
    expect((await tills[1]!.claim('RW-LAN0005')).unreachable).toEqual([]);
    expect((await tills[2]!.check('RW-LAN0005')).claimedBy?.till).toBe('Till 2');
  }, 60_000);

  test('Till 1 redeems with its link to Till 2 down, restarts, and the link comes back: Till 2 refuses it', async () => {
    await lan.cut(1);
    // Named by its till name, heard in the sealed hello, not by an address.
    expect((await tills[0]!.claim('RW-LAN0002')).unreachable).toEqual(['Till 2']);
    await tills[0]!.stop();
    tills[0] = await startTill(lan.hosts[0]!, 'Till 1', claimsOf(0));
    await lan.heal(1);
    await vi.waitFor(
      async () => expect(await tills[1]!.check('RW-LAN0002')).toMatchObject({ claimedBy: { till: 'Till 1' } }),
      { timeout: 15_000 },
    );
  }, 60_000);

  test('a siege from one host: 40 idle connections to each till, and the checks still reach every till', async () => {
    const hostile = lan.hosts[3]!;
    const targets = lan.hosts.slice(0, 3).map((host) => `${host.address}:${LEDGER_PORT}`);
    const siege = hostile.spawnTsx(SIEGE, ['--per-port', '40', ...targets]);
    let holding = 0;
    createInterface({ input: siege.stdout! }).on('line', (line) => {
      holding = (JSON.parse(line) as { holding: number }).holding;
    });
    try {
      // The host holds all it can: a few connections on each till, renewed as they are closed.
      await vi.waitFor(() => expect(holding).toBeGreaterThan(0), { timeout: 10_000 });
      for (let round = 0; round < 10; round += 1) {
        const started = performance.now();
        const result = await tills[1]!.check(`RW-SIEGE${round}`);
        expect(result.unreachable).toEqual([]);
        expect(performance.now() - started).toBeLessThan(1500);
      }
    } finally {
      siege.kill('SIGKILL');
    }
  }, 60_000);

  test('a split heals: every till knows every claim, asking nothing itself', async () => {
    await lan.cut(2);
    expect((await tills[2]!.claim('RW-LAN0003')).unreachable.sort()).toEqual(['Till 1', 'Till 2']);
    expect((await tills[0]!.claim('RW-LAN0004')).unreachable).toEqual(['Till 3']);
    await lan.heal(2);
    // Anti-entropy: no check, no claim; each till learns what the others hold.
    await vi.waitFor(
      async () => {
        expect((await tills[0]!.holder('RW-LAN0003'))?.till).toBe('Till 3');
        expect((await tills[1]!.holder('RW-LAN0003'))?.till).toBe('Till 3');
        expect((await tills[2]!.holder('RW-LAN0004'))?.till).toBe('Till 1');
        expect((await tills[2]!.holder('RW-LAN0002'))?.till).toBe('Till 1');
      },
      { timeout: 20_000, interval: 500 },
    );
  }, 60_000);
});
