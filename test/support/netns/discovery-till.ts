// One till's mDNS discovery, run inside a test's network namespace by
// test/support/network-namespace.ts (`spawnTsx`), never on the machine's own network.
//
//   discovery-till.ts --tag <shop tag> --port <ledger port> --mdns-port <port> [--interface <address>] [--lan]
//
// With --lan (a host of createLan()) it dials only what a till would, LAN addresses, and
// listens on its ledger port, so a test can see whether a link is up. Without it (a lone
// namespace, loopback only), any address the records give.
//
// It prints one JSON line per event: {"ready":true} once advertising, {"peers":[{host,port}]}
// whenever the shop's other tills change, {"error":"…"} for a socket error, and
// {"stopped":true} after a goodbye. A line "stop" on standard input (or SIGTERM) says the
// goodbye, so the others drop this till at once, and exits.
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { startDiscovery } from '../../../electron/shop-ledger/discovery';

const { values } = parseArgs({
  options: {
    tag: { type: 'string' },
    port: { type: 'string' },
    'mdns-port': { type: 'string' },
    interface: { type: 'string' },
    lan: { type: 'boolean' },
  },
});
const tag = values.tag;
const port = Number(values.port);
const mdnsPort = Number(values['mdns-port']);
if (tag === undefined || !Number.isSafeInteger(port) || !Number.isSafeInteger(mdnsPort)) {
  console.error('usage: discovery-till.ts --tag <tag> --port <port> --mdns-port <port> [--interface <address>]');
  process.exit(2);
}

const say = (line: object): void => void process.stdout.write(`${JSON.stringify(line)}\n`);

const discovery = startDiscovery({
  tag,
  port,
  mdns: { port: mdnsPort, ...(values.interface ? { interface: values.interface } : {}) },
  // On loopback alone every address is the test's own; which addresses a till dials is
  // tested on its own (discovery.test.ts, "where a discovered till is dialled").
  ...(values.lan ? {} : { dialable: () => true }),
  onPeers: (peers) => say({ peers }),
  onError: (error) => say({ error: String(error) }),
});
// A caller that only checks the link resets its connection: that is no error of the till's.
const listener = values.lan
  ? createServer((socket) => socket.on('error', () => undefined).end('till\n')).listen(port)
  : null;
say({ ready: true });

let stopping = false;
const stop = (): void => {
  if (stopping) return;
  stopping = true;
  listener?.close();
  void discovery.stop().then(() => {
    say({ stopped: true });
    process.exit(0);
  });
};
createInterface({ input: process.stdin }).on('line', (line) => {
  if (line.trim() === 'stop') stop();
});
process.on('SIGTERM', stop);
