import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkPolicy } from '../../../electron/policy/policy-reading';
import { parseRegQuery } from '../../../electron/policy/windows-registry';
import { MANAGED_SETTING_KEYS } from '../../../electron/policy/policy-schema';

/**
 * The roll-out guide's examples are what IT departments copy: the example policy must apply
 * as it stands, and the `reg add` lines must make a policy the till applies.
 */
const GUIDE = readFileSync(fileURLToPath(new URL('../../../docs/operations.md', import.meta.url)), 'utf8');
const policySection = GUIDE.slice(GUIDE.indexOf('### 2. The policy'), GUIDE.indexOf('### 3. The API key'));

describe('the roll-out guide’s policy examples', () => {
  it('the example policy.json applies, and its settings are all keys a policy may set', () => {
    const json = /```json\n([\s\S]*?)```/.exec(policySection)?.[1];
    expect(json).toBeTruthy();
    const reading = checkPolicy(JSON.parse(json!), 'docs/operations.md');
    expect(reading.state).toBe('applied');
    if (reading.state !== 'applied') return;
    for (const key of Object.keys(reading.policy.settings ?? {})) expect(MANAGED_SETTING_KEYS).toContain(key);
  });

  it('the reg add lines make a policy the till applies, read as reg query prints it', () => {
    const lines = [...policySection.matchAll(/^reg add "HKLM\\([^"]+)" \/v (\w+) \/t (\w+) \/d ("[^"]*"|\S+) \/f$/gm)];
    expect(lines.length).toBeGreaterThan(3);
    // What `reg query … /s` would print after them: one block per key, its values indented.
    const keys = new Map<string, string[]>();
    for (const [, key = '', name = '', type = '', data = ''] of lines) {
      const value = type === 'REG_DWORD' ? `0x${Number(data).toString(16)}` : data.replace(/^"|"$/g, '');
      keys.set(key, [...(keys.get(key) ?? []), `    ${name}    ${type}    ${value}`]);
    }
    const output = [...keys].map(([key, values]) => [`HKEY_LOCAL_MACHINE\\${key}`, ...values, ''].join('\r\n'));
    const reading = checkPolicy(parseRegQuery(output.join('\r\n')), 'registry');
    expect(reading).toMatchObject({ state: 'applied', policy: { settings: { tillName: 'Till {computerName}' } } });
  });
});
