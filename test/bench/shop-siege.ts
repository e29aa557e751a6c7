/**
 * Figure 7, the siege (docs/shop-ledger.md, "What one hostile host can do"): three tills of one
 * shop on loopback, one host holding 40 idle connections to each till's port (opening a new
 * one whenever one is closed), and two hosts flooding every port with connections that carry
 * noise. Meanwhile Till 1, a till of the shop heard from this shift, checks rewards: each check
 * must reach both other tills (no till named unreachable), in at least 95% of tries, p95
 * under the bounded wait.
 *
 * Linux routes all of 127/8 to loopback, so each hostile "host" is an address of its own; they
 * run in a worker thread, so their loops do not share the tills' event loop.
 */
import { Worker } from 'node:worker_threads';
import { threeTills } from './shop-tills';
import type { Report } from './report';
import { summarize } from './stats';

/** The cashier's bounded wait for the shop (the app's default). */
const WAIT_MS = 1500;
const IDLE_HOST = '127.0.0.5';
const FLOOD_HOSTS = ['127.0.0.6', '127.0.0.7'];
const IDLE_PER_PORT = 40;
/** Connections each flooding host keeps in flight at once. */
const FLOOD_IN_FLIGHT = 16;

/** The hostile hosts, as plain JavaScript for the worker (it needs nothing of the project). */
const ATTACK = `
const { createConnection } = require('node:net');
const { workerData, parentPort } = require('node:worker_threads');
const { ports, idleHost, idlePerPort, floodHosts, inFlight } = workerData;
let stopped = false;
const counts = { idleOpened: 0, floodSent: 0 };
function idle(port) {
  if (stopped) return;
  const socket = createConnection({ host: '127.0.0.1', port, localAddress: idleHost });
  counts.idleOpened += 1;
  socket.on('error', () => undefined);
  // Closed by the till: open another at once, as a hostile host would (after a breath, to spare the machine).
  socket.on('close', () => setTimeout(() => idle(port), 5));
}
function flood(host, port) {
  if (stopped) return;
  const socket = createConnection({ host: '127.0.0.1', port, localAddress: host });
  socket.on('error', () => undefined);
  socket.on('connect', () => {
    counts.floodSent += 1;
    socket.end(Buffer.from([0, 0, 0, 8, 1, 2, 3, 4, 5, 6, 7, 8]));
  });
  socket.on('close', () => setImmediate(() => flood(host, port)));
}
for (const port of ports) for (let i = 0; i < idlePerPort; i += 1) idle(port);
for (const host of floodHosts) for (const port of ports) for (let i = 0; i < inFlight; i += 1) flood(host, port);
parentPort.on('message', () => { stopped = true; parentPort.postMessage(counts); });
`;

export async function siegeFigures(report: Report, tries: number): Promise<void> {
  const { tills, at } = await threeTills(WAIT_MS);
  const ports = at.map((address) => address.port);
  let attack: Worker | undefined;
  try {
    // The tills start and hear from each other: each is a till of the shop heard from this shift.
    for (const till of tills) await till.start();
    await tills[0]!.check('RW-WARM0', { waitMs: WAIT_MS });
    attack = new Worker(ATTACK, {
      eval: true,
      workerData: {
        ports,
        idleHost: IDLE_HOST,
        idlePerPort: IDLE_PER_PORT,
        floodHosts: FLOOD_HOSTS,
        inFlight: FLOOD_IN_FLIGHT,
      },
    });
    // Let the siege take hold: every place a stranger may hold is taken.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const samples: number[] = [];
    let reached = 0;
    for (let index = 0; index < tries; index += 1) {
      const started = performance.now();
      const { unreachable } = await tills[0]!.check(`RW-SIEGE${String(index).padStart(5, '0')}`, { waitMs: WAIT_MS });
      samples.push(performance.now() - started);
      if (unreachable.length === 0) reached += 1;
    }
    const hostile = await new Promise<{ idleOpened: number; floodSent: number }>((resolve) => {
      attack!.once('message', resolve);
      attack!.postMessage('stop');
    });
    const refusals = tills[1]!.stats().refusals;
    const summary = summarize(samples);
    const share = reached / tries;
    report.add({
      id: 'shop.siege.reached',
      section: '7 shop',
      label: `siege (40 idle connections a port from one host, two hosts flooding): checks that reached both other tills`,
      unit: '%',
      value: Math.round(share * 1000) / 10,
      target: { text: '≥ 95%', met: share >= 0.95 },
      note:
        `${tries} checks; the hostile hosts opened ${hostile.idleOpened} idle and ${hostile.floodSent} flooding ` +
        `connections; Till 2 refused ${JSON.stringify(refusals)}.`,
    });
    report.add({
      id: 'shop.siege.check',
      section: '7 shop',
      label: `siege: one check of the other tills (wait ${WAIT_MS} ms)`,
      unit: 'ms',
      summary,
      target: { text: `p95 < ${WAIT_MS} ms`, met: summary.p95 < WAIT_MS },
    });
  } finally {
    await attack?.terminate();
    await Promise.all(tills.map((till) => till.stop()));
  }
}
