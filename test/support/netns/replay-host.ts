// A host of a test's own LAN that recorded the tills' traffic and sends it back
// (test/support/network-namespace.ts, `spawnTsx`; test/support/frame-replay.ts): every frame in
// the file, from this host's own address, to every till's ledger port, `--rounds` times. It holds
// no key. Never run on the machine's own network.
//
//   replay-host.ts --frames <file> [--rounds <n>] <host:port> [<host:port> …]
//
// The file holds one captured frame a line, in base64. It prints
// {"ready":true,"sent":n,"answered":n,"answeredAt":{…}} once every frame was sent and its
// connection closed, then exits.
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { replayFrames } from '../frame-replay';

const { values, positionals } = parseArgs({
  options: { frames: { type: 'string' }, rounds: { type: 'string' } },
  allowPositionals: true,
});
const rounds = Number(values.rounds ?? 1);
const targets = positionals.map((target) => {
  const at = target.lastIndexOf(':');
  return { host: target.slice(0, at), port: Number(target.slice(at + 1)) };
});
if (values.frames === undefined || !Number.isSafeInteger(rounds) || targets.length === 0) {
  console.error('usage: replay-host.ts --frames <file> [--rounds <n>] <host:port> …');
  process.exit(2);
}

const frames = (await readFile(values.frames, 'utf8'))
  .split('\n')
  .filter((line) => line.length > 0)
  .map((line) => Buffer.from(line, 'base64'));
const outcome = await replayFrames(frames, targets, { rounds });
process.stdout.write(`${JSON.stringify({ ready: true, ...outcome })}\n`);
process.exit(0);
