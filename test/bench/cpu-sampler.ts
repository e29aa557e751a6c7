/**
 * Processor time by process while the bench runs: this Node process (the core, the sandbox
 * and the test bridge's server) and each Chromium process below it, by its `--type`. On a
 * two-core machine a fill is bound by the processor, so what a run spends a customer, and
 * how many cores it kept busy, say where a faster fill has to come from.
 *
 * Linux only: it reads `/proc`. Elsewhere `available` is false, and the bench says so.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';

/** USER_HZ: what `/proc/<pid>/stat` counts processor time in, on every Linux the bench meets. */
const TICKS_PER_SECOND = 100;
const SAMPLE_EVERY_MS = 100;
/** Processes below this one are looked for this often; in between only theirs are read, to cost little. */
const LOOK_FOR_NEW_EVERY_MS = 1_000;

/** Chromium's own process kinds, or 'node' for this process. */
export type ProcessKind = string;

interface ProcessReading {
  parent: number;
  seconds: number;
  kind: ProcessKind;
}

/** What `ps` would call the process: `--type=renderer`, `--utility-sub-type=network.…` (→ 'utility:network'), or none (→ 'browser'). */
export function kindOf(commandLine: string): ProcessKind {
  // Chromium rewrites its children's command lines into one string with spaces.
  const args = commandLine.split(/[\0 ]/);
  const value = (flag: string) => args.find((arg) => arg.startsWith(flag))?.slice(flag.length);
  const type = value('--type=');
  if (type === undefined) return 'browser';
  const service = value('--utility-sub-type=')?.split('.')[0];
  return type === 'utility' && service ? `utility:${service}` : type;
}

/** Its parent and processor seconds so far, or null once it has ended. */
function readStat(pid: number): { parent: number; seconds: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may hold spaces: the fields follow the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { parent: Number(fields[1]), seconds: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND };
  } catch {
    return null;
  }
}

function readProcess(pid: number): ProcessReading | null {
  const stat = readStat(pid);
  if (!stat) return null;
  try {
    return { ...stat, kind: kindOf(readFileSync(`/proc/${pid}/cmdline`, 'utf8')) };
  } catch {
    return null; // it ended between the two reads
  }
}

/** Notes every process below `root` in `seen`; one that has ended keeps its last reading. */
function readDescendants(root: number, seen: Map<number, ProcessReading>): void {
  const readings = new Map<number, ProcessReading>();
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === root) continue;
    const reading = readProcess(pid);
    if (reading) readings.set(pid, reading);
  }
  for (const [pid, reading] of readings) {
    let ancestor: number | undefined = reading.parent;
    while (ancestor !== undefined && ancestor !== root) ancestor = readings.get(ancestor)?.parent;
    if (ancestor === root) seen.set(pid, reading);
  }
}

export interface CpuSampler {
  readonly available: boolean;
  /** Processor seconds by kind between two `Date.now()` times (to the nearest samples). */
  between(fromEpoch: number, toEpoch: number): Map<ProcessKind, number>;
  /** Takes a last sample, of every process below this one, and stops. */
  stop(): void;
}

export function startCpuSampler(): CpuSampler {
  const available = existsSync('/proc/self/stat');
  const samples: { at: number; seconds: Map<ProcessKind, number> }[] = [];
  const seen = new Map<number, ProcessReading>();
  let lookedAt = -Infinity;
  const take = (lookForNew = false) => {
    if (lookForNew || Date.now() - lookedAt >= LOOK_FOR_NEW_EVERY_MS) {
      readDescendants(process.pid, seen);
      lookedAt = Date.now();
    } else {
      for (const [pid, reading] of seen) reading.seconds = readStat(pid)?.seconds ?? reading.seconds;
    }
    const usage = process.cpuUsage();
    const seconds = new Map<ProcessKind, number>([['node', (usage.user + usage.system) / 1e6]]);
    for (const reading of seen.values()) seconds.set(reading.kind, (seconds.get(reading.kind) ?? 0) + reading.seconds);
    samples.push({ at: Date.now(), seconds });
  };
  if (available) take();
  // Unref'd: a run that fails before stop() must still let the process end.
  const timer = available ? setInterval(() => take(), SAMPLE_EVERY_MS).unref() : null;
  const nearest = (epoch: number) =>
    samples.reduce((best, sample) => (Math.abs(sample.at - epoch) < Math.abs(best.at - epoch) ? sample : best));
  return {
    available,
    between(fromEpoch, toEpoch) {
      const spent = new Map<ProcessKind, number>();
      if (samples.length === 0) return spent;
      const from = nearest(fromEpoch);
      for (const [kind, seconds] of nearest(toEpoch).seconds) spent.set(kind, seconds - (from.seconds.get(kind) ?? 0));
      return spent;
    },
    stop() {
      if (timer) clearInterval(timer);
      // The last sample sees every process, however late it was started.
      if (available) take(true);
    },
  };
}
