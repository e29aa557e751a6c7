import { access } from 'node:fs/promises';
import { NO_POLICY, checkPolicy, refused, type PolicyReading } from './policy-reading';
import type { RunCommand } from './windows-registry';

/**
 * The policy from a macOS configuration profile (Jamf, Intune, any MDM): a custom settings
 * payload for the app's domain, which macOS writes to `/Library/Managed Preferences/<domain>.plist`.
 * Its keys are the keys of `policy.json`. The file is often a binary plist, so it is turned
 * into JSON by macOS's own `plutil`; no plist library in the app.
 */
export const PROFILE_DOMAIN = 'app.loyaltytill.desktop';
export const MANAGED_PREFERENCES_FILE = `/Library/Managed Preferences/${PROFILE_DOMAIN}.plist`;

/** Keys an MDM may add to the payload itself; they are not the till's settings. */
const PAYLOAD_KEY = /^Payload[A-Z]/;

export async function readProfilePolicy(run: RunCommand, file = MANAGED_PREFERENCES_FILE): Promise<PolicyReading> {
  try {
    await access(file);
  } catch {
    return NO_POLICY;
  }
  let output: string;
  try {
    output = await run('plutil', ['-convert', 'json', '-o', '-', file]);
  } catch (error) {
    const exitCode = (error as { exitCode?: number }).exitCode;
    return refused({ kind: 'unreadable', origin: file, code: `exit ${exitCode ?? '?'}` });
  }
  let value: unknown;
  try {
    value = JSON.parse(output);
  } catch {
    return refused({ kind: 'not_json', origin: file });
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    value = Object.fromEntries(Object.entries(value).filter(([key]) => !PAYLOAD_KEY.test(key)));
  }
  return checkPolicy(value, file);
}
