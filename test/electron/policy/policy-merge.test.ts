import { describe, expect, it } from 'vitest';
import { applyPolicy, expandTillName } from '../../../electron/policy/policy-merge';
import { DEFAULT_SETTINGS } from '../../../electron/storage/settings';
import { checkPolicy } from '../../../electron/policy/policy-reading';
import type { Policy } from '../../../electron/policy/policy-schema';

const policy = (value: unknown): Policy => {
  const reading = checkPolicy(value, 'test');
  if (reading.state !== 'applied') throw new Error('test policy refused');
  return reading.policy;
};

describe('the policy over the till’s own settings', () => {
  const own = { ...DEFAULT_SETTINGS, baseUrl: 'https://own.example.com', theme: 'light' as const };

  it('without a policy, the till’s own settings, nothing locked', () => {
    expect(applyPolicy(own, null, 'TILL-7')).toEqual({ settings: own, locked: [] });
  });

  it('sets and locks `settings`, over the till’s own values', () => {
    const effective = applyPolicy(
      own,
      policy({ schemaVersion: 1, settings: { baseUrl: 'https://chain.example.com', tillName: 'Till {computerName}' } }),
      'SHOP12-TILL3',
    );
    expect(effective.settings).toMatchObject({ baseUrl: 'https://chain.example.com', tillName: 'Till SHOP12-TILL3' });
    expect(effective.locked).toEqual(['baseUrl', 'tillName']);
  });

  it('fills `defaults` only where the till still has the built-in value, and locks nothing', () => {
    const effective = applyPolicy(
      own,
      policy({ schemaVersion: 1, defaults: { theme: 'dark', defaultCountry: 'AE' } }),
      'x',
    );
    expect(effective.settings.theme).toBe('light');
    expect(effective.settings.defaultCountry).toBe('AE');
    expect(effective.locked).toEqual([]);
  });

  it('cuts an expanded till name to 60 characters, and names a nameless computer', () => {
    expect(expandTillName('{computerName}', 'A'.repeat(80))).toHaveLength(60);
    expect(expandTillName('Till {computerName}', '  ')).toBe('Till till');
  });
});
