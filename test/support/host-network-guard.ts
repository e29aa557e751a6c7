// The run-time half of "nothing leaves the machine" (docs/tests.md): in a test process whose
// network is the machine's own, joining a multicast group, turning broadcast on, or sending to
// a multicast or broadcast address throws, naming the rule. Inside a test's own namespace
// (test/support/network-namespace.ts), where every interface is loopback or the test's LAN,
// the same calls go through. test/build/no-traffic-off-the-machine.test.ts is the static half.
import dgram from 'node:dgram';
import { isIPv4, isIPv6 } from 'node:net';
import { networkInterfaces } from 'node:os';
import { fileURLToPath } from 'node:url';

/** For `node --import tsx --import <this>` in a test's child processes. */
export const HOST_NETWORK_GUARD_SETUP = fileURLToPath(new URL('./host-network-guard-setup.ts', import.meta.url));

/** The test LAN's range (network-namespace.ts); no interface of a real machine is given it by a test. */
const TEST_LAN = /^10\.213\.0\.\d{1,3}$/;

/** A multicast or broadcast destination: IPv4 224.0.0.0/4 or 255.255.255.255, IPv6 ff00::/8. */
export function isGroupAddress(address: string): boolean {
  if (isIPv4(address)) {
    const first = Number(address.split('.')[0]);
    return (first >= 224 && first <= 239) || address === '255.255.255.255';
  }
  return isIPv6(address) && /^ff[0-9a-f]{2}:/i.test(address);
}

/** Whether every interface this process sees is loopback or the test LAN's: a namespace of a test's own. */
export function onTestNetworkOnly(interfaces: ReturnType<typeof networkInterfaces> = networkInterfaces()): boolean {
  return Object.values(interfaces)
    .flat()
    .every((entry) => entry === undefined || entry.internal || TEST_LAN.test(entry.address));
}

function refuse(what: string): never {
  throw new Error(
    `${what} on the machine's own network: a test may multicast or broadcast only inside a network namespace ` +
      'it makes itself (test/support/network-namespace.ts, docs/tests.md).',
  );
}

let installed = false;

/** Wraps dgram's group calls for the life of this process (a Vitest setup file calls it). */
export function guardHostNetwork(): void {
  if (installed) return;
  installed = true;
  const socket = dgram.Socket.prototype;
  const { addMembership, addSourceSpecificMembership, setBroadcast, send } = socket;
  socket.addMembership = function (this: dgram.Socket, ...args: Parameters<typeof addMembership>) {
    if (!onTestNetworkOnly()) refuse(`Joining the multicast group ${args[0]}`);
    return addMembership.apply(this, args);
  };
  socket.addSourceSpecificMembership = function (
    this: dgram.Socket,
    ...args: Parameters<typeof addSourceSpecificMembership>
  ) {
    if (!onTestNetworkOnly()) refuse(`Joining the multicast group ${args[1]}`);
    return addSourceSpecificMembership.apply(this, args);
  };
  socket.setBroadcast = function (this: dgram.Socket, flag: boolean) {
    if (flag && !onTestNetworkOnly()) refuse('Turning broadcast on');
    return setBroadcast.call(this, flag);
  };
  socket.send = function (this: dgram.Socket, ...args: unknown[]) {
    const group = args.find((arg): arg is string => typeof arg === 'string' && isGroupAddress(arg));
    if (group !== undefined && !onTestNetworkOnly()) refuse(`Sending to ${group}`);
    return (send as (...rest: unknown[]) => void).apply(this, args);
  } as typeof send;
}
