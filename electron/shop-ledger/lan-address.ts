import { BlockList, isIPv4, isIPv6 } from 'node:net';

/**
 * The addresses a shop's tills can have on their own network: private IPv4 (RFC 1918),
 * link-local, unique-local IPv6, and loopback. The ledger's port answers only these, so a
 * till whose port is reachable from the internet (a public address, a forwarded port) still
 * talks to no one outside the shop's LAN. Node's BlockList also matches IPv4-mapped IPv6
 * (`::ffff:10.0.0.7`), which is how a dual-stack listener sees IPv4 peers.
 */
const LAN = new BlockList();
for (const [network, prefix] of [
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['169.254.0.0', 16],
  ['127.0.0.0', 8],
] as const) {
  LAN.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['fc00::', 7],
  ['fe80::', 10],
  ['::1', 128],
] as const) {
  LAN.addSubnet(network, prefix, 'ipv6');
}

/** Whether `address` (as a socket reports it) is one a till of the shop can have. */
export function isLanAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  // A link-local IPv6 address may carry its interface (`fe80::1%eth0`).
  const bare = address.split('%')[0]!;
  if (isIPv4(bare)) return LAN.check(bare, 'ipv4');
  if (isIPv6(bare)) return LAN.check(bare, 'ipv6');
  return false;
}

/**
 * Whether a discovered address can be dialled as it is: on the LAN, and not link-local IPv6,
 * which needs the interface's zone that a service record does not carry.
 */
export function isDialableLanAddress(address: string): boolean {
  return isLanAddress(address) && !(isIPv6(address) && /^fe[89ab]/i.test(address));
}
