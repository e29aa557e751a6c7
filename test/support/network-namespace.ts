// Hosts of a test's own: Linux network namespaces, so that a test which multicasts (mDNS
// discovery) or needs several hosts (the shop's tills) sends nothing on the machine's own
// network. Only loopback and namespaces a test makes itself may carry a test's traffic
// (docs/tests.md, "Nothing leaves the machine"); test/build/no-traffic-off-the-machine.test.ts
// holds every test and benchmark file to that.
//
// Code that multicasts runs in a child process inside the namespace (`spawnTsx`): Node cannot
// move a running process into another namespace, and the vitest worker stays on the host.
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { HOST_NETWORK_GUARD_SETUP } from './host-network-guard';

const exec = promisify(execFile);
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const IP_PATHS = ['/usr/sbin/ip', '/sbin/ip', '/usr/bin/ip', '/bin/ip'];
/** Every namespace of this helper is named `lt-<pid>-<n>`, so a crashed run's leftovers can be found. */
const PREFIX = 'lt-';
/** The LAN's addresses exist only inside its own namespaces; nothing routes them off the machine. */
const LAN_PREFIX = '10.213.0.';
/** mDNS and every other multicast group. */
const MULTICAST_ROUTE = '224.0.0.0/4';

let made = 0;

/** Why namespaces cannot be made here, in words that name the requirement; null when they can. */
export function networkNamespacesUnavailable(
  platform: NodeJS.Platform = process.platform,
  uid: number | undefined = process.getuid?.(),
  hasIp: boolean = IP_PATHS.some((path) => existsSync(path)),
): string | null {
  if (platform !== 'linux') return `network namespaces need Linux, and this is ${platform}`;
  if (uid !== 0) return 'network namespaces need root (CI runs as root; run the tests as root)';
  if (!hasIp) return "network namespaces need iproute2's `ip` (apt-get install -y iproute2)";
  return null;
}

/**
 * Throws, naming the requirement, where namespaces cannot be made: a test that needs its own
 * hosts fails loudly rather than passing quietly or sending on the machine's network instead.
 */
export function requireNetworkNamespaces(): void {
  const why = networkNamespacesUnavailable();
  if (why !== null) {
    throw new Error(
      `This test runs in network namespaces of its own, so that nothing it sends leaves the machine: ${why}.`,
    );
  }
}

export interface NetworkNamespace {
  readonly name: string;
  /** Runs a TypeScript file with `node --import tsx` inside the namespace, from the repository's root; stdio piped. */
  spawnTsx(script: string, args?: string[], env?: NodeJS.ProcessEnv): ChildProcess;
  /** Runs a command inside the namespace and returns what it printed. */
  run(command: string, args?: string[]): Promise<string>;
  /** Ends what it spawned, then deletes the namespace and its interfaces. */
  remove(): Promise<void>;
}

export interface LanHost extends NetworkNamespace {
  /** Its IPv4 address on the LAN (`10.213.0.<n>`), on its interface `eth0`. */
  readonly address: string;
}

export interface Lan {
  readonly hosts: LanHost[];
  /** Takes a host's link to the switch down: it hears no one and no one hears it. */
  cut(index: number): Promise<void>;
  /** Brings the link back; resolves once the host sees it up. */
  heal(index: number): Promise<void>;
  remove(): Promise<void>;
}

async function ip(...args: string[]): Promise<string> {
  const { stdout } = await exec('ip', args);
  return stdout;
}

function tsxLoader(): string {
  return pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Deletes namespaces a crashed run of this helper left behind (its process is gone). */
async function sweepLeftovers(): Promise<void> {
  let names: string[];
  try {
    names = readdirSync('/run/netns');
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(/^lt-(\d+)-/.exec(name)?.[1]);
    if (Number.isSafeInteger(pid) && pid !== process.pid && !isAlive(pid)) {
      await ip('netns', 'delete', name).catch(() => undefined);
    }
  }
}

function newName(suffix = ''): string {
  made += 1;
  return `${PREFIX}${process.pid}-${made}${suffix}`;
}

function namespaceNamed(name: string): NetworkNamespace {
  const children = new Set<ChildProcess>();
  return {
    name,
    spawnTsx(script, args = [], env = {}) {
      const child = spawn(
        'ip',
        [
          'netns',
          'exec',
          name,
          process.execPath,
          '--import',
          tsxLoader(),
          // Guarded as every test process is: inside the namespace the guard lets multicast through.
          '--import',
          HOST_NETWORK_GUARD_SETUP,
          resolve(ROOT, script),
          ...args,
        ],
        { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] },
      );
      children.add(child);
      child.once('exit', () => children.delete(child));
      return child;
    },
    async run(command, args = []) {
      const { stdout } = await exec('ip', ['netns', 'exec', name, command, ...args]);
      return stdout;
    },
    async remove() {
      await Promise.all(
        [...children].map(
          (child) =>
            new Promise<void>((done) => {
              if (child.exitCode !== null || child.signalCode !== null) return done();
              child.once('exit', () => done());
              child.kill('SIGKILL');
            }),
        ),
      );
      await ip('netns', 'delete', name).catch(() => undefined);
    },
  };
}

/** A namespace with its loopback up; with `multicast`, multicast enabled and routed on that loopback. */
export async function createNetworkNamespace(options: { multicast?: boolean } = {}): Promise<NetworkNamespace> {
  requireNetworkNamespaces();
  await sweepLeftovers();
  const name = newName();
  await ip('netns', 'add', name);
  try {
    await ip('-n', name, 'link', 'set', 'lo', 'up');
    if (options.multicast) {
      await ip('-n', name, 'link', 'set', 'lo', 'multicast', 'on');
      await ip('-n', name, 'route', 'add', MULTICAST_ROUTE, 'dev', 'lo');
    }
  } catch (error) {
    await ip('netns', 'delete', name).catch(() => undefined);
    throw error;
  }
  return namespaceNamed(name);
}

/**
 * `count` hosts on one LAN of their own: each a namespace with `eth0` (veth) joined to a
 * bridge in a switch namespace, multicast on and routed, so mDNS flows between them as on a
 * shop's network. Every interface is made inside the test's namespaces; the machine's own are
 * never touched.
 */
export async function createLan(count: number): Promise<Lan> {
  if (!Number.isSafeInteger(count) || count < 1 || count > 250)
    throw new RangeError(`a LAN of 1 to 250 hosts, not ${count}`);
  requireNetworkNamespaces();
  await sweepLeftovers();
  const switchName = newName('-switch');
  const hosts: LanHost[] = [];
  const remove = async () => {
    await Promise.all(hosts.map((host) => host.remove()));
    await ip('netns', 'delete', switchName).catch(() => undefined);
  };
  try {
    await ip('netns', 'add', switchName);
    // Snooping off: the bridge floods multicast to every port, as a shop's plain switch does.
    await ip('-n', switchName, 'link', 'add', 'br0', 'type', 'bridge', 'mcast_snooping', '0');
    await ip('-n', switchName, 'link', 'set', 'br0', 'up');
    for (let index = 0; index < count; index += 1) {
      const name = newName(`-host${index + 1}`);
      await ip('netns', 'add', name);
      const host: LanHost = { ...namespaceNamed(name), address: `${LAN_PREFIX}${index + 1}` };
      hosts.push(host);
      const port = `port${index + 1}`;
      await ip('link', 'add', 'eth0', 'netns', name, 'type', 'veth', 'peer', 'name', port, 'netns', switchName);
      await ip('-n', switchName, 'link', 'set', port, 'master', 'br0', 'up');
      await ip('-n', name, 'link', 'set', 'lo', 'up');
      // No IPv6 link-local address: the host has its LAN address alone, as the guard expects
      // of a test's own network (host-network-guard.ts).
      await ip('-n', name, 'link', 'set', 'eth0', 'addrgenmode', 'none');
      await ip('-n', name, 'addr', 'add', `${host.address}/24`, 'dev', 'eth0');
      await ip('-n', name, 'link', 'set', 'eth0', 'multicast', 'on', 'up');
      await ip('-n', name, 'route', 'add', MULTICAST_ROUTE, 'dev', 'eth0');
    }
  } catch (error) {
    await remove();
    throw error;
  }
  const portOf = (index: number): string => {
    if (hosts[index] === undefined) throw new RangeError(`no host ${index} on a LAN of ${hosts.length}`);
    return `port${index + 1}`;
  };
  return {
    hosts,
    cut: async (index) => void (await ip('-n', switchName, 'link', 'set', portOf(index), 'down')),
    async heal(index) {
      await ip('-n', switchName, 'link', 'set', portOf(index), 'up');
      // Back once the host's own end says so, with the addresses it failed to resolve while
      // cut forgotten: else a lookup begun during the cut still fails after it, and the host
      // is told its peers are unreachable for a few seconds more.
      const host = hosts[index]!.name;
      for (let waited = 0; waited < 5000; waited += 50) {
        if (/ state UP /.test(await ip('-n', host, '-o', 'link', 'show', 'eth0'))) {
          await ip('-n', host, 'neigh', 'flush', 'dev', 'eth0');
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`The link of host ${index + 1} did not come back up within 5 s.`);
    },
    remove,
  };
}
