/**
 * The organisation's policy as the rest of the main process follows it: the reading now (no
 * policy where the machine has no source), how many times it has changed since the start
 * (the page reloads its state when that moves), and one listener told of each change.
 */
import type { Logger } from '../log/log';
import type { MachinePolicySource } from './machine-policy';
import type { Policy } from './policy-schema';
import { NO_POLICY, type PolicyReading } from './policy-reading';
import { watchPolicy } from './policy-watch';

export interface PolicyFollower {
  reading(): PolicyReading;
  /** The policy in force: null when none applies (absent, or refused). */
  applied(): Policy | null;
  revision(): number;
  /** The one listener of changes (the shop ledger follows the settings the policy may lock). */
  onChange(listener: () => void): void;
  reload(): Promise<PolicyReading>;
  stop(): void;
}

export async function followPolicy(options: {
  source?: MachinePolicySource;
  pollMs?: number;
  log: Logger;
}): Promise<PolicyFollower> {
  const { source, log } = options;
  let revision = 0;
  let listener = (): void => undefined;
  const watch = source
    ? await watchPolicy({
        read: source.read,
        file: source.file,
        ...(options.pollMs ? { pollMs: options.pollMs } : {}),
        log,
        onChange: () => {
          revision += 1;
          listener();
        },
      })
    : null;
  const reading = (): PolicyReading => watch?.current() ?? NO_POLICY;
  return {
    reading,
    applied: () => {
      const now = reading();
      return now.state === 'applied' ? now.policy : null;
    },
    revision: () => revision,
    onChange: (next) => {
      listener = next;
    },
    reload: () => watch?.reload() ?? Promise.resolve(NO_POLICY),
    stop: () => watch?.stop(),
  };
}
