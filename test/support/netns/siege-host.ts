// A hostile host on a test's own LAN (test/support/network-namespace.ts, `spawnTsx`): it holds
// idle connections to each till's ledger port, opening another whenever one is closed, and
// says nothing on them; or, with --flood, keeps connections in flight to each port that carry
// a frame of noise, one after another. Never run on the machine's own network.
//
//   siege-host.ts --per-port <n> <host:port> [<host:port> …]
//   siege-host.ts --flood <n> <host:port> [<host:port> …]
//
// It prints {"holding":n} once a second (the connections open now) until killed.
import { createConnection } from 'node:net';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  options: { 'per-port': { type: 'string' }, flood: { type: 'string' } },
  allowPositionals: true,
});
const flooding = values.flood !== undefined;
const perPort = Number(flooding ? values.flood : values['per-port']);
const targets = positionals.map((target) => {
  const at = target.lastIndexOf(':');
  return { host: target.slice(0, at), port: Number(target.slice(at + 1)) };
});
if (!Number.isSafeInteger(perPort) || targets.length === 0) {
  console.error('usage: siege-host.ts --per-port <n> | --flood <n> <host:port> …');
  process.exit(2);
}

let holding = 0;
function hold(target: { host: string; port: number }): void {
  const socket = createConnection(target);
  let connected = false;
  socket.on('connect', () => {
    connected = true;
    holding += 1;
    // A length the port accepts, then bytes that open no box.
    if (flooding) socket.end(Buffer.from([0, 0, 0, 8, 1, 2, 3, 4, 5, 6, 7, 8]));
  });
  socket.on('error', () => undefined);
  socket.on('close', () => {
    if (connected) holding -= 1;
    // As a hostile host would: another at once (after a breath, to spare the machine).
    setTimeout(() => hold(target), 10);
  });
}
for (const target of targets) for (let index = 0; index < perPort; index += 1) hold(target);
setInterval(() => process.stdout.write(`${JSON.stringify({ holding })}\n`), 1000);
