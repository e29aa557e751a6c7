// The test's side of a host on its LAN that replays what it recorded (netns/replay-host.ts):
// the frames go to a file, the host sends each to every target from its own address, and
// what the tills sent back is counted.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ReplayOutcome } from './frame-replay';
import type { LanHost } from './network-namespace';
import { commandChild } from './netns/command-child';

const REPLAY_HOST = 'test/support/netns/replay-host.ts';

/** Replays `frames` (base64, as the tills' taps give them) from `host` to every `host:port` of `targets`. */
export async function replayFromHost(
  host: LanHost,
  frames: readonly string[],
  targets: readonly string[],
  options: { dir: string; rounds?: number },
): Promise<ReplayOutcome> {
  const file = join(options.dir, `frames-${host.name}-${Date.now()}.txt`);
  await writeFile(file, `${frames.join('\n')}\n`);
  const child = host.spawnTsx(REPLAY_HOST, ['--frames', file, '--rounds', String(options.rounds ?? 1), ...targets]);
  const { ready } = await commandChild(child, `The replaying host ${host.name}`);
  return {
    sent: Number(ready.sent),
    answered: Number(ready.answered),
    answeredAt: ready.answeredAt as ReplayOutcome['answeredAt'],
  };
}
