/**
 * Figure 7, the replay (docs/shop-ledger.md, "What a LAN neighbour can and cannot do"): three
 * tills of one shop on loopback start while their ledger frames are recorded
 * (test/support/frame-tap.ts), Till 1 checks and claims a reward and Till 2 checks it. Then a
 * host (127.0.0.8) sends every recorded frame to every till's port, again and again, from a
 * worker thread, while Till 1 checks rewards: each check must reach both other tills (no till
 * named unreachable, none booked at the replaying host's address), in at least 95% of tries.
 * Before the tills sealed each message for its connection and proved addresses, a replayed
 * hello booked every till at the host's address, and every check named all three.
 */
import { Worker } from 'node:worker_threads';
import { tapLedgerFrames } from '../support/frame-tap';
import type { Report } from './report';
import { threeTills } from './shop-tills';
import { summarize } from './stats';

/** The cashier's bounded wait for the shop (the app's default). */
const WAIT_MS = 1500;
const REPLAYING_HOST = '127.0.0.8';
/** Replays the host keeps in flight at once. */
const IN_FLIGHT = 8;

/** The replaying host, as plain JavaScript for the worker (it needs nothing of the project, and holds no key). */
const REPLAY = `
const { createConnection } = require('node:net');
const { workerData, parentPort } = require('node:worker_threads');
const { frames, ports, host, inFlight } = workerData;
const jobs = frames.flatMap((frame) => ports.map((port) => ({ frame: Buffer.from(frame, 'base64'), port })));
let stopped = false;
let next = 0;
const counts = { sent: 0, answered: 0 };
function replay() {
  if (stopped) return;
  const { frame, port } = jobs[next++ % jobs.length];
  const socket = createConnection({ host: '127.0.0.1', port, localAddress: host });
  let back = 0;
  socket.on('data', (chunk) => (back += chunk.length));
  socket.on('error', () => undefined);
  socket.on('connect', () => {
    counts.sent += 1;
    socket.end(frame);
  });
  socket.on('close', () => {
    if (back > 0) counts.answered += 1;
    setImmediate(replay);
  });
}
for (let i = 0; i < inFlight; i += 1) replay();
parentPort.on('message', () => { stopped = true; parentPort.postMessage(counts); });
`;

export async function replayedFramesFigures(report: Report, tries: number): Promise<void> {
  const { tills, at } = await threeTills(WAIT_MS);
  const ports = at.map((address) => address.port);
  const tap = tapLedgerFrames((port) => ports.includes(port));
  let replaying: Worker | undefined;
  try {
    // Recorded: the start-up, where the tills ask each other, and a claim with the checks around it.
    for (const till of tills) await till.start();
    await tills[0]!.check('RW-RECORDED', { waitMs: WAIT_MS });
    await tills[0]!.claim('RW-RECORDED');
    await tills[1]!.check('RW-RECORDED', { waitMs: WAIT_MS });
    tap.stop();
    const frames = tap.frames().map((frame) => frame.toString('base64'));
    replaying = new Worker(REPLAY, {
      eval: true,
      workerData: { frames, ports, host: REPLAYING_HOST, inFlight: IN_FLIGHT },
    });
    // Let the replays take hold: every frame has reached every port at least once.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const samples: number[] = [];
    let reached = 0;
    for (let index = 0; index < tries; index += 1) {
      const started = performance.now();
      const code = `RW-REPLAYED${String(index).padStart(5, '0')}`;
      const { unreachable } = await tills[0]!.check(code, { waitMs: WAIT_MS });
      samples.push(performance.now() - started);
      if (unreachable.length === 0) reached += 1;
    }
    const host = await new Promise<{ sent: number; answered: number }>((resolve) => {
      replaying!.once('message', resolve);
      replaying!.postMessage('stop');
    });
    const share = reached / tries;
    const summary = summarize(samples);
    report.add({
      id: 'shop.replayed.reached',
      section: '7 shop',
      label: 'checks that reached both other tills while a host replays captured frames',
      unit: '%',
      value: Math.round(share * 1000) / 10,
      target: { text: '≥ 95%', met: share >= 0.95 },
      note:
        `${tries} checks, p95 ${summary.p95.toFixed(1)} ms; the host replayed ${frames.length} recorded frames ` +
        `${host.sent} times, ${host.answered} answered; Till 1 lists ${(await tills[0]!.tills(WAIT_MS)).length} ` +
        `tills; Till 2 refused ${JSON.stringify(tills[1]!.stats().refusals)}.`,
    });
  } finally {
    tap.stop();
    await replaying?.terminate();
    await Promise.all(tills.map((till) => till.stop()));
  }
}
