import { NO_POLICY, checkPolicy, refused, type PolicyReading } from './policy-reading';

/**
 * The policy from Group Policy: the same keys as `policy.json`, under
 * `HKLM\Software\Policies\Loyalty Till` (where an ADMX template or Intune's registry settings
 * write them). A value is a key of the JSON object; an object is a subkey (`settings`,
 * `settings\cacheRefresh`, `defaults`, `updates`, `updates\installWindow`). Text is REG_SZ,
 * numbers REG_DWORD, yes/no REG_DWORD 0 or 1, lists (`shopPeers`) REG_MULTI_SZ.
 *
 * It is read with `reg query … /s`, whose output is parsed here: a plain module, tested with
 * recorded output, and no native registry binding in the app.
 */
export const POLICY_REGISTRY_KEY = 'HKLM\\Software\\Policies\\Loyalty Till';

/** Runs a program and answers its standard output; rejects with `exitCode` set when it fails. */
export type RunCommand = (program: string, args: readonly string[]) => Promise<string>;

/** The policy keys that are yes/no: Group Policy writes those as REG_DWORD 0 or 1. */
const YES_NO_PATHS = new Set([
  'settings.allowOfflineRedemption',
  'settings.shopLedger',
  'settings.shopRedeemWhenSplit',
  'defaults.allowOfflineRedemption',
  'defaults.shopLedger',
  'defaults.shopRedeemWhenSplit',
  'updates.enabled',
]);

const ROOT_LINE = /^HKEY_LOCAL_MACHINE\\Software\\Policies\\Loyalty Till((?:\\[^\\]+)*)\s*$/i;
// `    name    REG_TYPE    data`: reg.exe separates the columns with four spaces.
const VALUE_LINE = /^ {4}(.*?) {4}(REG_[A-Z_]+)(?: {4}(.*))?$/;

/**
 * `reg query` output as the policy object, or null when it holds no value at all. Unknown
 * value types become text, so the schema names the field rather than losing it.
 */
export function parseRegQuery(output: string): Record<string, unknown> | null {
  const root: Record<string, unknown> = {};
  let current: Record<string, unknown> | null = null;
  let path: string[] = [];
  let found = false;
  for (const line of output.split(/\r?\n/)) {
    const key = ROOT_LINE.exec(line);
    if (key) {
      path = (key[1] ?? '').split('\\').filter(Boolean);
      current = root;
      for (const part of path) {
        const next: unknown = Object.hasOwn(current, part) ? current[part] : undefined;
        const child: Record<string, unknown> =
          typeof next === 'object' && next !== null ? (next as Record<string, unknown>) : {};
        Object.defineProperty(current, part, { value: child, enumerable: true, writable: true, configurable: true });
        current = child;
      }
      continue;
    }
    const value = VALUE_LINE.exec(line);
    if (!value || !current) continue;
    const [, name = '', type = '', data = ''] = value;
    if (name === '(Default)') continue;
    const fullPath = [...path, name].join('.');
    Object.defineProperty(current, name, {
      value: registryValue(type, data, YES_NO_PATHS.has(fullPath)),
      enumerable: true,
      writable: true,
      configurable: true,
    });
    found = true;
  }
  return found ? root : null;
}

function registryValue(type: string, data: string, yesNo: boolean): unknown {
  if (type === 'REG_DWORD' || type === 'REG_QWORD') {
    const number = Number.parseInt(data, 16);
    if (yesNo && (number === 0 || number === 1)) return number === 1;
    return number;
  }
  // reg.exe shows the strings of a REG_MULTI_SZ joined by a literal `\0`.
  if (type === 'REG_MULTI_SZ') return data === '' ? [] : data.split('\\0').filter((part) => part !== '');
  return data;
}

/** The Group Policy key's policy: none when the key does not exist (reg.exe exits with 1). */
export async function readRegistryPolicy(run: RunCommand): Promise<PolicyReading> {
  let output: string;
  try {
    output = await run('reg', ['query', POLICY_REGISTRY_KEY, '/s']);
  } catch (error) {
    const exitCode = (error as { exitCode?: number }).exitCode;
    if (exitCode === 1) return NO_POLICY;
    return refused({ kind: 'unreadable', origin: POLICY_REGISTRY_KEY, code: `exit ${exitCode ?? '?'}` });
  }
  const value = parseRegQuery(output);
  return value === null ? NO_POLICY : checkPolicy(value, POLICY_REGISTRY_KEY);
}
