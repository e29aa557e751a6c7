import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import { describeError, type Logger } from '../log/log';
import { ENGLISH } from '../messages';
import { describePolicyProblem, refused, type PolicyReading } from './policy-reading';

/**
 * How long one read of the policy may take before it counts as a bad policy: longer than the
 * registry's and the profile's own 10 s limit (machine-policy.ts), so a slow `reg` on a busy
 * till is still read and a failed one reports its own error; short enough that a read that
 * never finishes does not hold up the start for long.
 */
export const POLICY_READ_DEADLINE_MS = 12_000;

export interface PolicyWatch {
  /** The policy as last read. */
  current(): PolicyReading;
  /** Reads it again now; `onChange` runs if it changed. */
  reload(): Promise<PolicyReading>;
  stop(): void;
}

/** A reading's identity: the same policy read twice is no change, nor is the same problem. */
function fingerprint(reading: PolicyReading): string {
  if (reading.state === 'applied') return `applied ${reading.origin} ${JSON.stringify(reading.policy)}`;
  if (reading.state === 'refused') return `refused ${describePolicyProblem(reading.problem, ENGLISH)}`;
  return 'none';
}

/**
 * The policy, read at start and again when it changes: the file's folder is watched (so an
 * edit applies within a moment) and everything is re-read every `pollMs` as well, because a
 * folder created later, a registry key or a profile sends no file event. Each change is one
 * log line saying what applies now, or why nothing does.
 */
export async function watchPolicy(options: {
  read: () => Promise<PolicyReading>;
  /** The policy file; its folder is watched when it exists. */
  file?: string;
  pollMs?: number;
  /** How long one read may take ({@link POLICY_READ_DEADLINE_MS} by default). */
  deadlineMs?: number;
  log: Logger;
  onChange: (reading: PolicyReading) => void;
}): Promise<PolicyWatch> {
  const { log, onChange } = options;
  const pollMs = options.pollMs ?? 60_000;
  const deadlineMs = options.deadlineMs ?? POLICY_READ_DEADLINE_MS;
  // A read that never finishes (a pipe, a hung network share) must not hold up the start, nor
  // every reload after it: past the deadline it is a bad policy, and the read is left behind.
  const read = () => within(options.read(), deadlineMs, options.file ?? 'the policy');
  let current = await read();
  let seen = fingerprint(current);
  logReading(log, current);

  let reading: Promise<PolicyReading> | null = null;
  const reload = (): Promise<PolicyReading> => {
    // One read at a time; a change during a read is caught by the next event or poll.
    reading ??= read()
      .then((next) => {
        const print = fingerprint(next);
        if (print !== seen) {
          seen = print;
          current = next;
          logReading(log, next);
          onChange(next);
        }
        return current;
      })
      .catch((error: unknown) => {
        log.warn(`The policy could not be read again (${describeError(error)}); the last one still applies.`);
        return current;
      })
      .finally(() => {
        reading = null;
      });
    return reading;
  };

  let watcher: FSWatcher | null = null;
  let debounce: NodeJS.Timeout | null = null;
  if (options.file) {
    const name = basename(options.file);
    try {
      watcher = watch(dirname(options.file), { persistent: false }, (_event, changed) => {
        if (changed !== null && changed !== name) return;
        // Editors and deployment tools write in several steps: read once they are done.
        if (debounce) clearTimeout(debounce);
        debounce = setTimeout(() => void reload(), 150);
        debounce.unref();
      });
      watcher.on('error', () => watcher?.close());
    } catch {
      // No folder yet: the poll finds the policy once it is created.
    }
  }
  const timer = setInterval(() => void reload(), pollMs);
  timer.unref();

  return {
    current: () => current,
    reload,
    stop() {
      clearInterval(timer);
      if (debounce) clearTimeout(debounce);
      watcher?.close();
    },
  };
}

function logReading(log: Logger, reading: PolicyReading): void {
  if (reading.state === 'applied') log.info(`The organisation's policy from ${reading.origin} applies.`);
  else if (reading.state === 'refused') log.warn(describePolicyProblem(reading.problem, ENGLISH));
}

function within(reading: Promise<PolicyReading>, deadlineMs: number, origin: string): Promise<PolicyReading> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => resolve(refused({ kind: 'too_slow', origin, seconds: Math.ceil(deadlineMs / 1000) })),
      deadlineMs,
    );
    // Stopping the app never waits on a read left behind.
    timer.unref();
    reading.then(
      (result) => {
        clearTimeout(timer);
        resolve(result);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
