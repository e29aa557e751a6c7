import { describe, expect, it } from 'vitest';
import { parseRegQuery, readRegistryPolicy, POLICY_REGISTRY_KEY } from '../../../electron/policy/windows-registry';

// What `reg query "HKLM\Software\Policies\Loyalty Till" /s` prints for a policy written by Group Policy.
const REG_OUTPUT = [
  '',
  'HKEY_LOCAL_MACHINE\\Software\\Policies\\Loyalty Till',
  '    schemaVersion    REG_DWORD    0x1',
  '    managerPinHash    REG_SZ    $scrypt$ln=15,r=8,p=1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g',
  '',
  'HKEY_LOCAL_MACHINE\\Software\\Policies\\Loyalty Till\\settings',
  '    baseUrl    REG_SZ    https://loyalty.example.com',
  '    tillName    REG_SZ    Till {computerName}',
  '    allowOfflineRedemption    REG_DWORD    0x0',
  '    shopPeers    REG_MULTI_SZ    till-2.local:47231\\0192.168.1.12:47231',
  '',
  'HKEY_LOCAL_MACHINE\\Software\\Policies\\Loyalty Till\\settings\\cacheRefresh',
  '    everyHours    REG_DWORD    0xc',
  '    windowFromHour    REG_DWORD    0x1',
  '    windowToHour    REG_DWORD    0x4',
  '',
  'HKEY_LOCAL_MACHINE\\Software\\Policies\\Loyalty Till\\updates',
  '    enabled    REG_DWORD    0x1',
  '    pinVersion    REG_SZ    1.4.2',
  '',
  // The health check's thresholds (the ADMX template's "Health check" category).
  'HKEY_LOCAL_MACHINE\\Software\\Policies\\Loyalty Till\\health',
  '    waitingHours    REG_DWORD    0x30',
  '    refreshDays    REG_DWORD    0x3',
  '',
].join('\r\n');

describe('the Group Policy registry key', () => {
  it('reads reg.exe output as the policy object: subkeys as objects, DWORD yes/no as booleans', () => {
    expect(parseRegQuery(REG_OUTPUT)).toEqual({
      schemaVersion: 1,
      managerPinHash: expect.stringMatching(/^\$scrypt\$/),
      settings: {
        baseUrl: 'https://loyalty.example.com',
        tillName: 'Till {computerName}',
        allowOfflineRedemption: false,
        shopPeers: ['till-2.local:47231', '192.168.1.12:47231'],
        cacheRefresh: { everyHours: 12, windowFromHour: 1, windowToHour: 4 },
      },
      updates: { enabled: true, pinVersion: '1.4.2' },
      health: { waitingHours: 48, refreshDays: 3 },
    });
  });

  it('applies a good key through the same schema as the file', async () => {
    const reading = await readRegistryPolicy(async (program, args) => {
      expect([program, ...args]).toEqual(['reg', 'query', POLICY_REGISTRY_KEY, '/s']);
      return REG_OUTPUT;
    });
    expect(reading).toMatchObject({
      state: 'applied',
      origin: POLICY_REGISTRY_KEY,
      policy: { health: { waitingHours: 48, refreshDays: 3 } },
    });
  });

  it('is no policy when the key does not exist (reg.exe exits with 1)', async () => {
    const missing = Object.assign(new Error('ERROR: The system was unable to find the specified registry key'), {
      exitCode: 1,
    });
    expect(await readRegistryPolicy(() => Promise.reject(missing))).toEqual({ state: 'none' });
    expect(await readRegistryPolicy(async () => 'HKEY_LOCAL_MACHINE\\Software\\Policies\\Loyalty Till\r\n')).toEqual({
      state: 'none',
    });
  });

  it('refuses a key it cannot read, and a key with a wrong value, whole', async () => {
    const denied = Object.assign(new Error('denied'), { exitCode: 5 });
    expect(await readRegistryPolicy(() => Promise.reject(denied))).toMatchObject({
      state: 'refused',
      problem: { kind: 'unreadable', code: 'exit 5' },
    });
    const wrong = REG_OUTPUT.replace('0xc', '0x3e8');
    expect(await readRegistryPolicy(async () => wrong)).toMatchObject({
      state: 'refused',
      problem: { kind: 'invalid' },
    });
  });

  it('keeps a value named __proto__ as data, not as the prototype', () => {
    const hostile = 'HKEY_LOCAL_MACHINE\\Software\\Policies\\Loyalty Till\r\n    __proto__    REG_SZ    x\r\n';
    const value = parseRegQuery(hostile)!;
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  });
});
