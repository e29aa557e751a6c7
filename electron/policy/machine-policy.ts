import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { readPolicyFile } from './policy-file';
import type { PolicyReading } from './policy-reading';
import { readProfilePolicy } from './mac-profile';
import { readRegistryPolicy, type RunCommand } from './windows-registry';

/**
 * Where the machine's policy lies, per operating system: machine-wide folders that only an
 * administrator can write, so a cashier cannot edit the policy that locks their till.
 */
export function policyFilePath(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
): string {
  if (platform === 'win32') return join(env.ProgramData ?? 'C:\\ProgramData', 'Loyalty Till', 'policy.json');
  if (platform === 'darwin') return '/Library/Application Support/Loyalty Till/policy.json';
  return '/etc/loyalty-till/policy.json';
}

/** `execFile` without a shell, its failure carrying the exit status as `exitCode`. */
export const runCommand: RunCommand = (program, args) =>
  new Promise((resolve, reject) => {
    execFile(
      program,
      [...args],
      { encoding: 'utf8', timeout: 10_000, windowsHide: true, maxBuffer: 1 << 20 },
      (error, stdout) => {
        if (error) reject(Object.assign(error, { exitCode: typeof error.code === 'number' ? error.code : undefined }));
        else resolve(stdout);
      },
    );
  });

export interface MachinePolicySource {
  /** One look at the policy, as it is now. */
  read(): Promise<PolicyReading>;
  /** The file watched for changes (the platform's own stores are polled). */
  file: string;
}

/**
 * The machine's policy: on Windows the Group Policy key when it holds anything, on macOS a
 * configuration profile when there is one, else the policy file. Sources are not mixed: the
 * one that is present is the whole policy, so what applies is what one place says.
 */
export function machinePolicySource(
  options: {
    platform?: NodeJS.Platform;
    file?: string;
    run?: RunCommand;
  } = {},
): MachinePolicySource {
  const platform = options.platform ?? process.platform;
  const file = options.file ?? policyFilePath(platform);
  const run = options.run ?? runCommand;
  const platformStore =
    platform === 'win32' ? () => readRegistryPolicy(run) : platform === 'darwin' ? () => readProfilePolicy(run) : null;
  return {
    file,
    async read() {
      if (platformStore) {
        const managed = await platformStore();
        if (managed.state !== 'none') return managed;
      }
      return readPolicyFile(file);
    },
  };
}
