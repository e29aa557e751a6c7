import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  ADML_LANGUAGES,
  POLICY_KEY,
  renderPolicyTemplates,
  TEMPLATE_NAME,
  TEMPLATE_POLICIES,
} from '../../build/policy-templates';
import { healthPolicySchema, MANAGED_SETTING_KEYS, updatesPolicySchema } from '../../electron/policy/policy-schema';
import { checkPolicy } from '../../electron/policy/policy-reading';
import { parseRegQuery } from '../../electron/policy/windows-registry';

const OUT = fileURLToPath(new URL('../../build/policy-templates', import.meta.url));
const files = renderPolicyTemplates();
const admx = files[`${TEMPLATE_NAME}.admx`]!;

/** Open and close tags balance, in order: enough to catch a broken template without an XML parser. */
function balanced(xml: string): boolean {
  const stack: string[] = [];
  const body = xml.replace(/<\?xml[^>]*\?>/, '').replace(/<!--[\s\S]*?-->/g, '');
  for (const [, closing, name, selfClosing] of body.matchAll(/<(\/?)([A-Za-z]+)[^>]*?(\/?)>/g)) {
    if (selfClosing) continue;
    if (closing) {
      if (stack.pop() !== name) return false;
    } else stack.push(name!);
  }
  return stack.length === 0;
}

describe('the Group Policy templates', () => {
  it('are committed as the table generates them (npm run policy-templates)', () => {
    for (const [path, text] of Object.entries(files)) expect(readFileSync(join(OUT, path), 'utf8'), path).toBe(text);
  });

  it('offer every setting a policy may lock, every updates and health key and the manager PIN hash', () => {
    const names = TEMPLATE_POLICIES.map((policy) => policy.name);
    for (const key of MANAGED_SETTING_KEYS) expect(names).toContain(`settings.${key}`);
    for (const key of Object.keys(updatesPolicySchema.shape)) expect(names).toContain(`updates.${key}`);
    for (const key of Object.keys(healthPolicySchema.shape)) expect(names).toContain(`health.${key}`);
    expect(names).toContain('managerPinHash');
  });

  it('are well formed, and every string and presentation the ADMX names is in each language', () => {
    expect(balanced(admx)).toBe(true);
    const strings = [...admx.matchAll(/\$\(string\.(\w+)\)/g)].map((match) => match[1]!);
    const presentations = [...admx.matchAll(/\$\(presentation\.(\w+)\)/g)].map((match) => match[1]!);
    const elementIds = new Set([...admx.matchAll(/<(?:text|decimal|multiText|enum) id="(\w+)"/g)].map((m) => m[1]));
    for (const folder of Object.values(ADML_LANGUAGES)) {
      const adml = files[`${folder}/${TEMPLATE_NAME}.adml`]!;
      expect(balanced(adml), folder).toBe(true);
      for (const name of strings) expect(adml, `${folder}: ${name}`).toContain(`<string id="${name}">`);
      for (const name of presentations) expect(adml, `${folder}: ${name}`).toContain(`<presentation id="${name}">`);
      for (const [, refId] of adml.matchAll(/refId="(\w+)"/g)) expect(elementIds).toContain(refId);
    }
    expect(files[`ar-SA/${TEMPLATE_NAME}.adml`]).toMatch(/[\u0600-\u06ff]/);
  });

  it('write, with every policy enabled, registry values that make a policy the till applies', () => {
    // What an administrator might enter for each value.
    const SAMPLES: Record<string, string | number | string[]> = {
      baseUrl: 'https://loyalty.example.com',
      branchId: '7a1e9c40-2f3b-4d5e-8a6b-0c1d2e3f4a5b',
      tillName: 'Till {computerName}',
      defaultCountry: 'SA',
      posCallbackUrl: 'http://127.0.0.1:8080/loyalty',
      everyHours: 24,
      windowFromHour: 2,
      windowToHour: 5,
      shopPeers: ['till-2.local:47231'],
      shopLedgerPort: 47231,
      journalPersonalDays: 30,
      feedUrl: 'https://updates.example.com/till',
      channel: 'latest',
      pinVersion: '1.4.2',
      fromHour: 2,
      toHour: 5,
      checkEveryHours: 6,
      waitingHours: 12,
      unacknowledgedHours: 0,
      refreshDays: 3,
      offlineHours: 8,
      managerPinHash: '$scrypt$ln=15,r=8,p=1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g',
    };
    const keys = new Map<string, string[]>([[POLICY_KEY, ['    schemaVersion    REG_DWORD    0x1']]]);
    const put = (key: string, line: string) => keys.set(key, [...(keys.get(key) ?? []), line]);
    for (const policy of TEMPLATE_POLICIES) {
      if (policy.yesNo) put(policy.key, `    ${policy.yesNo.valueName}    REG_DWORD    0x1`);
      for (const element of policy.elements ?? []) {
        const key = element.key ?? policy.key;
        if (element.kind === 'choice') put(key, `    ${element.valueName}    REG_SZ    ${element.values[0]}`);
        else if (element.kind === 'number')
          put(key, `    ${element.valueName}    REG_DWORD    0x${Number(SAMPLES[element.valueName]).toString(16)}`);
        else if (element.kind === 'list')
          put(
            key,
            `    ${element.valueName}    REG_MULTI_SZ    ${(SAMPLES[element.valueName] as string[]).join('\\0')}`,
          );
        else put(key, `    ${element.valueName}    REG_SZ    ${String(SAMPLES[element.valueName])}`);
      }
    }
    const output = [...keys]
      .map(([key, lines]) => [`HKEY_LOCAL_MACHINE\\${key}`, ...lines, ''].join('\r\n'))
      .join('\r\n');
    const reading = checkPolicy(parseRegQuery(output), 'registry');
    expect(reading.state === 'refused' ? reading.problem : reading.state).toBe('applied');
    if (reading.state !== 'applied') return;
    expect(Object.keys(reading.policy.settings ?? {}).sort()).toEqual([...MANAGED_SETTING_KEYS].sort());
    expect(reading.policy.updates).toMatchObject({ enabled: true, installWindow: { fromHour: 2, toHour: 5 } });
    expect(reading.policy.health).toEqual({
      waitingHours: 12,
      unacknowledgedHours: 0,
      refreshDays: 3,
      offlineHours: 8,
    });
  });
});
