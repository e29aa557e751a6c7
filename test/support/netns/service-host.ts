// The loyalty service (the sandbox) on a host of createLan() (test/support/network-namespace.ts,
// `spawnTsx`), on that host's LAN address, for tills on other hosts of the same LAN. Cutting
// this host's link is "the service is down" for every till at once. Never run on the machine's
// own network.
//
//   service-host.ts --key <API key> --data <file> [--port <n>]
//
// It prints {"ready":true,"url":…} once listening, then takes commands as JSON lines
// (command-child.ts): {"do":"redemptions"} gives every redemption made; {"do":"stop"} closes it.
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { startSandbox } from '../../../sandbox';
import { serveCommands } from './command-child';

const { values } = parseArgs({
  options: { key: { type: 'string' }, data: { type: 'string' }, port: { type: 'string' } },
});
if (values.key === undefined || values.data === undefined) {
  console.error('usage: service-host.ts --key <API key> --data <file> [--port <n>]');
  process.exit(2);
}

const sandbox = await startSandbox({
  host: '0.0.0.0',
  port: Number(values.port ?? 4010),
  keys: { [values.key]: 'coffee-club' },
  dataFile: values.data,
});
process.stdout.write(`${JSON.stringify({ ready: true, url: sandbox.url })}\n`);

createInterface({ input: process.stdin }).on(
  'line',
  serveCommands(async (command) => {
    if (command.do === 'redemptions') return sandbox.redemptions();
    if (command.do === 'stop') return sandbox.close();
    throw new Error(`unknown command ${command.do}`);
  }),
);
