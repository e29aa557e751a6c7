// One whole till's main process inside a host of createLan() (test/support/network-namespace.ts,
// `spawnTsx`): its app core behind the browser shell's page server (test/e2e/till-server.ts),
// the page served on this host's 127.0.0.1, and the shop ledger listening on every address of
// the host with mDNS discovery, as the shells run it. The page itself is opened by the test in
// a Chromium started inside the same namespace (test/e2e/lan-tills.ts). Never run on the
// machine's own network.
//
//   app-till.ts --user-data <folder> --renderer <folder> --bridges <file.json> --service <host:port> [--port <n>]
//
// The service on the LAN is reached at http://127.0.0.1:<its port> of this host (tcp-relay.ts).
// It prints {"ready":true,"appUrl":…,"port":n} once the page is served, then takes commands
// as JSON lines (command-child.ts): {"do":"call","operation":…,"payload":…} calls a bridge
// handler as the page would; {"do":"calls"} gives the page's bridge calls so far, {"do":"log"}
// what its main process logged, {"do":"captured"} every ledger frame it received since it
// started (base64, as a host recording the LAN holds them: frame-tap.ts);
// {"do":"stop"} closes the page server and the core (its ledger and discovery), then exits.
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { LAN_HOSTS } from '../../../electron/bridge/app-core';
import { startDiscovery } from '../../../electron/shop-ledger/discovery';
import type { Operation } from '../../../common/contract';
import { startTillServer, type PageBridges } from '../../e2e/till-server';
import { tapLedgerFrames } from '../frame-tap';
import { serveCommands } from './command-child';
import { relayToService } from './tcp-relay';

/** The service's deadline: a cut link is "offline" within two seconds, as in the e2e harness. */
const REQUEST_TIMEOUT_MS = 2000;

const { values } = parseArgs({
  options: {
    'user-data': { type: 'string' },
    renderer: { type: 'string' },
    bridges: { type: 'string' },
    port: { type: 'string' },
    service: { type: 'string' },
  },
});
const { 'user-data': userDataDir, renderer: rendererDir, bridges, service } = values;
const [serviceHost, servicePort] = service?.split(':') ?? [];
if (userDataDir === undefined || rendererDir === undefined || bridges === undefined || !serviceHost || !servicePort) {
  console.error(
    'usage: app-till.ts --user-data <folder> --renderer <folder> --bridges <file.json> --service <host:port> [--port <n>]',
  );
  process.exit(2);
}

/** The ledger's port in the app's settings (the default): what the tap records. */
const LEDGER_PORT = 47231;
const tap = tapLedgerFrames((port) => port === LEDGER_PORT);

const relay = await relayToService({ host: serviceHost, port: Number(servicePort) }, Number(servicePort));

const server = await startTillServer({
  userDataDir,
  rendererDir,
  bridges: JSON.parse(await readFile(bridges, 'utf8')) as PageBridges,
  port: Number(values.port ?? 0),
  core: {
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
    // The shells' choices: the ledger on the LAN, found by mDNS (docs/shop-ledger.md).
    shopLedgerHosts: LAN_HOSTS,
    shopDiscovery: startDiscovery,
  },
});
process.stdout.write(`${JSON.stringify({ ready: true, appUrl: server.appUrl, port: server.port })}\n`);

createInterface({ input: process.stdin }).on(
  'line',
  serveCommands(async (command) => {
    switch (command.do) {
      case 'call':
        return server.call(command.operation as Operation, command.payload as never);
      case 'calls':
        return server.bridgeCalls;
      case 'log':
        return server.log.lines;
      case 'captured':
        return tap.frames().map((frame) => frame.toString('base64'));
      case 'stop':
        await server.close();
        relay.close();
        return null;
      default:
        throw new Error(`unknown command ${command.do}`);
    }
  }),
);
