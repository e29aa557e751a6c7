// One till's shop ledger, as the main process runs it (electron/shop-ledger/): its ledger port,
// its mDNS discovery feeding the peers, and its claims kept in a file. Run inside a host of
// createLan() by test/support/network-namespace.ts (`spawnTsx`), never on the machine's own
// network.
//
//   shop-till.ts --name <till name> --claims <file> [--sync-ms <ms>]
//
// It prints one JSON line per event: {"ready":true} once listening and advertising,
// {"peers":[…]} when discovery's list changes, and the answer to each command read from
// standard input as one JSON line (command-child.ts): {"id":n,"do":"claim"|"check"|"holder",
// "code":"RW-…"}, {"id":n,"do":"tills"} (Settings' live list), {"id":n,"do":"captured"} (every
// ledger frame this till received since it started, base64, as a host recording the LAN holds
// them: frame-tap.ts) or {"id":n,"do":"stop"} (stops the ledger and discovery, then exits).
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { claimsFile } from '../../../electron/shop-ledger/claim-store';
import { startDiscovery } from '../../../electron/shop-ledger/discovery';
import { createShopLedger } from '../../../electron/shop-ledger/shop-ledger-service';
import { tapLedgerFrames } from '../frame-tap';
import { SHOP_KEYS } from '../shop-keys';
import { serveCommands } from './command-child';

const PORT = 47231;
/** The standard mDNS port: inside the test's own LAN no real responder can answer. */
const MDNS_PORT = 5353;

const { values } = parseArgs({
  options: {
    name: { type: 'string' },
    claims: { type: 'string' },
    'sync-ms': { type: 'string' },
  },
});
const { name, claims } = values;
if (name === undefined || claims === undefined) {
  console.error('usage: shop-till.ts --name <till name> --claims <file> [--sync-ms <ms>]');
  process.exit(2);
}

const say = (line: object): void => void process.stdout.write(`${JSON.stringify(line)}\n`);
// From the start: what crosses the LAN while the tills start is part of the record.
const tap = tapLedgerFrames((port) => port === PORT);
const store = claimsFile(claims);
const tag = SHOP_KEYS.discoveryTag;

let saving: Promise<void> = Promise.resolve();
const ledger = createShopLedger({
  keys: SHOP_KEYS,
  tillName: name,
  peers: [],
  listen: { host: '0.0.0.0', port: PORT },
  keptClaims: await store.load(tag),
  // As the app's switch does: each change written, one write at a time.
  onClaimsChanged: () => {
    saving = saving.then(() => store.save(tag, ledger.snapshot()));
  },
  ...(values['sync-ms'] ? { syncEveryMs: Number(values['sync-ms']) } : {}),
});
await ledger.start();
const discovery = startDiscovery({
  tag,
  port: PORT,
  mdns: { port: MDNS_PORT },
  onPeers: (peers) => {
    ledger.setDiscovered(peers);
    say({ peers });
  },
  onError: (error) => say({ error: String(error) }),
});
say({ ready: true });

createInterface({ input: process.stdin }).on(
  'line',
  serveCommands(async (command) => {
    const code = String(command.code ?? '');
    switch (command.do) {
      case 'claim':
        return ledger.claim(code);
      case 'check':
        return ledger.check(code, { waitMs: 1500 });
      case 'holder':
        return ledger.holder(code);
      case 'tills':
        return ledger.tills(1500);
      case 'captured':
        return tap.frames().map((frame) => frame.toString('base64'));
      case 'stop':
        await discovery.stop();
        await ledger.stop();
        await saving;
        return null;
      default:
        throw new Error(`unknown command ${command.do}`);
    }
  }),
);
