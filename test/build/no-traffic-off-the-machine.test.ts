// Tests, the benchmark and CI send nothing beyond loopback or network namespaces the test makes
// itself (docs/tests.md, "Nothing leaves the machine"). Two halves: every test and benchmark
// file is read for multicast and broadcast use outside the namespace helper (static), and every
// test process refuses such calls on the machine's own network (test/support/host-network-guard.ts).
import dgram from 'node:dgram';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { isGroupAddress, onTestNetworkOnly } from '../support/host-network-guard';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SOURCE = /\.(?:[cm]?[jt]s|vue)$/;

/** What sends to a group, or starts something that does (mDNS discovery, bonjour, multicast-dns). */
const GROUP_USES: readonly { what: string; pattern: RegExp }[] = [
  { what: 'an IPv4 multicast address', pattern: /\b2(?:2[4-9]|3\d)\.\d{1,3}\.\d{1,3}\.\d{1,3}\b/ },
  { what: 'the IPv4 broadcast address', pattern: /\b255\.255\.255\.255\b/ },
  { what: 'an IPv6 multicast address', pattern: /\bff[0-9a-f]{2}::/i },
  { what: 'a multicast membership', pattern: /\badd(?:SourceSpecific)?Membership\b/ },
  { what: 'broadcast', pattern: /\bsetBroadcast\b/ },
  { what: 'bonjour', pattern: /\bBonjour\s*\(|['"](?:bonjour-service|multicast-dns)['"]/ },
  { what: "the till's mDNS discovery", pattern: /\bstartDiscovery\b/ },
];

/** Where group traffic may be started: the namespace helper and what it runs inside a namespace. */
const ALLOWED = [
  /^test\/support\/network-namespace\.ts$/,
  /^test\/support\/netns\//,
  /^test\/support\/host-network-guard/,
];
const THIS_FILE = 'test/build/no-traffic-off-the-machine.test.ts';

/** Each group use in a file's text, as "what (line N)". */
export function groupUses(text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, index) => {
    for (const { what, pattern } of GROUP_USES) if (pattern.test(line)) found.push(`${what} (line ${index + 1})`);
  });
  return found;
}

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && SOURCE.test(entry.name))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)).replaceAll('\\', '/'));
}

describe('no test or benchmark file multicasts or broadcasts outside a namespace', () => {
  test('every file under test/ (the benchmark included) is clean, or is the namespace helper', () => {
    const files = filesUnder(join(ROOT, 'test'));
    expect(files).toContain('test/bench/run.ts');
    const offenders = files
      .filter((file) => file !== THIS_FILE && !ALLOWED.some((allowed) => allowed.test(file)))
      .flatMap((file) => groupUses(readFileSync(join(ROOT, file), 'utf8')).map((use) => `${file}: ${use}`));
    expect(offenders, 'run it inside createNetworkNamespace() or createLan() (docs/tests.md)').toEqual([]);
  });

  test('what it looks for is found, and ordinary code is not', () => {
    const caught = [
      "socket.send(query, 5353, '224.0.0.251')",
      "socket.addMembership('239.255.255.250')",
      'socket.setBroadcast(true)',
      "socket.send(message, 9, '255.255.255.255')",
      "const group = 'ff02::fb'",
      'const mdns = new Bonjour({}, onError)',
      "import makeMdns from 'multicast-dns'",
      'const finding = startDiscovery({ tag, port, onPeers })',
    ];
    for (const line of caught) expect(groupUses(line), line).not.toEqual([]);
    const clean = ["await fetch('http://127.0.0.1:4455/')", 'const price = 224.5', "host: '::1'", 'peerOf(service)'];
    for (const line of clean) expect(groupUses(line), line).toEqual([]);
  });

  test('the namespace helper and its children are the only places allowed', () => {
    expect(ALLOWED.some((allowed) => allowed.test('test/support/netns/discovery-till.ts'))).toBe(true);
    expect(ALLOWED.some((allowed) => allowed.test('test/electron/shop-ledger/discovery.test.ts'))).toBe(false);
  });
});

describe('every test process refuses group traffic on the machine network', () => {
  test('group and broadcast destinations are told apart from unicast', () => {
    for (const address of ['224.0.0.251', '239.255.255.250', '255.255.255.255', 'ff02::fb', 'FF05::1:3']) {
      expect(isGroupAddress(address), address).toBe(true);
    }
    for (const address of ['127.0.0.1', '10.213.0.1', '192.0.2.1', '::1', 'fe80::1', 'not an address']) {
      expect(isGroupAddress(address), address).toBe(false);
    }
  });

  test('only loopback and the test LAN count as a namespace of a test', () => {
    const lo = { address: '127.0.0.1', netmask: '255.0.0.0', family: 'IPv4', mac: '', internal: true, cidr: null };
    const lan = { ...lo, address: '10.213.0.2', internal: false };
    const host = { ...lo, address: '192.0.2.2', internal: false };
    expect(onTestNetworkOnly({ lo: [lo] } as never)).toBe(true);
    expect(onTestNetworkOnly({ lo: [lo], eth0: [lan] } as never)).toBe(true);
    expect(onTestNetworkOnly({ lo: [lo], eth0: [host] } as never)).toBe(false);
  });

  test('on this process network, joining a group, broadcasting and sending to a group throw naming the rule', () => {
    const socket = dgram.createSocket('udp4');
    try {
      if (onTestNetworkOnly()) {
        // A machine with loopback alone: nothing can leave it, and the guard lets the calls be.
        expect(() => socket.setBroadcast(true)).toThrow(/not running|EBADF/);
        return;
      }
      const rule = /only inside a network namespace it makes itself/;
      expect(() => socket.addMembership('224.0.0.251')).toThrow(rule);
      expect(() => socket.setBroadcast(true)).toThrow(rule);
      expect(() => socket.send('hello', 5353, '224.0.0.251')).toThrow(rule);
    } finally {
      socket.close();
    }
  });
});
