// A host that records the shop's LAN and sends it back (docs/shop-ledger.md, "What a LAN
// neighbour can and cannot do"): every captured frame, as it was, to every till's ledger port,
// each on a connection of its own from the host's own address, and whatever a till sends back
// counted. It holds no key: it can only repeat what it saw.
import { createConnection } from 'node:net';

export interface ReplayTarget {
  host: string;
  port: number;
}

export interface ReplayOutcome {
  /** Connections that carried a frame. */
  sent: number;
  /** Connections a till wrote anything back on: a replayed request it answered. */
  answered: number;
  /** `answered` by target, `host:port`. */
  answeredAt: Record<string, number>;
}

/** Sends `frame` to `target` and resolves with how many bytes came back before the till closed the connection. */
function replayOne(frame: Buffer, target: ReplayTarget, localAddress: string | undefined, waitMs: number) {
  return new Promise<number>((resolve) => {
    let back = 0;
    const socket = createConnection({ ...target, ...(localAddress ? { localAddress } : {}) });
    const timer = setTimeout(() => socket.destroy(), waitMs);
    socket.on('data', (chunk: Buffer) => (back += chunk.length));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(back);
    });
    socket.once('connect', () => socket.end(frame));
  });
}

/**
 * Every frame to every target, `rounds` times, a few connections at a time (a replaying host
 * need not flood to be heard: the rate limit is another test's).
 */
export async function replayFrames(
  frames: readonly Buffer[],
  targets: readonly ReplayTarget[],
  options: { localAddress?: string; rounds?: number; waitMs?: number; inFlight?: number } = {},
): Promise<ReplayOutcome> {
  const jobs: Array<{ frame: Buffer; target: ReplayTarget }> = [];
  for (let round = 0; round < (options.rounds ?? 1); round += 1) {
    for (const frame of frames) for (const target of targets) jobs.push({ frame, target });
  }
  const outcome: ReplayOutcome = { sent: 0, answered: 0, answeredAt: {} };
  let next = 0;
  async function worker(): Promise<void> {
    for (let job = jobs[next++]; job !== undefined; job = jobs[next++]) {
      const back = await replayOne(job.frame, job.target, options.localAddress, options.waitMs ?? 2000);
      outcome.sent += 1;
      if (back === 0) continue;
      const at = `${job.target.host}:${job.target.port}`;
      outcome.answered += 1;
      outcome.answeredAt[at] = (outcome.answeredAt[at] ?? 0) + 1;
    }
  }
  await Promise.all(Array.from({ length: options.inFlight ?? 4 }, worker));
  return outcome;
}
