import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readPolicyFile } from '../../../electron/policy/policy-file';
import {
  describePolicyProblem,
  policyManagerPinHash,
  type PolicyReading,
} from '../../../electron/policy/policy-reading';
import { MAX_POLICY_BYTES } from '../../../electron/policy/policy-schema';
import { ENGLISH } from '../../../electron/messages';

/** A policy as an IT department writes it: every kind of key once. */
export const GOOD_POLICY = {
  schemaVersion: 1,
  settings: {
    baseUrl: 'https://loyalty.example.com/v1/',
    branchId: '7a1e9c40-2f3b-4d5e-8a6b-0c1d2e3f4a5b',
    tillName: 'Till {computerName}',
    defaultCountry: 'ae',
    allowOfflineRedemption: false,
    shopLedger: true,
    shopRedeemWhenSplit: false,
    shopPeers: ['till-2.local:47231'],
  },
  defaults: { theme: 'dark', language: 'ar' },
  updates: { enabled: true, feedUrl: 'https://updates.example.com/till', pinVersion: '1.4.2' },
  managerPinHash: `$scrypt$ln=15,r=8,p=1$${'c2FsdHNhbHRzYWx0c2FsdA'}$${'aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g'}`,
};

const refusal = (reading: PolicyReading) => {
  if (reading.state !== 'refused') throw new Error(`expected a refusal, got ${reading.state}`);
  return { kind: reading.problem.kind, words: describePolicyProblem(reading.problem, ENGLISH) };
};

describe('the policy file', () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'till-policy-'));
    file = join(dir, 'policy.json');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('is no policy when absent, or when its folder is absent', async () => {
    expect(await readPolicyFile(file)).toEqual({ state: 'none' });
    expect(await readPolicyFile(join(dir, 'missing', 'policy.json'))).toEqual({ state: 'none' });
  });

  it('reads a good policy, its values checked and normalised as Settings would', async () => {
    await writeFile(file, `\uFEFF${JSON.stringify(GOOD_POLICY, null, 2)}`);
    const reading = await readPolicyFile(file);
    expect(reading.state).toBe('applied');
    if (reading.state !== 'applied') return;
    expect(reading.origin).toBe(file);
    expect(reading.policy.settings).toMatchObject({
      baseUrl: 'https://loyalty.example.com',
      defaultCountry: 'AE',
      tillName: 'Till {computerName}',
      // What a till does while another of the shop cannot be reached is the organisation's to lock too.
      shopRedeemWhenSplit: false,
    });
    expect(reading.policy.updates?.pinVersion).toBe('1.4.2');
    expect(reading.policy.managerPinHash).toBe(GOOD_POLICY.managerPinHash);
    expect(policyManagerPinHash(reading)).toBe(GOOD_POLICY.managerPinHash);
  });

  it('gives the manager PIN hash of an applied policy only', async () => {
    expect(policyManagerPinHash({ state: 'none' })).toBeNull();
    await writeFile(file, JSON.stringify({ ...GOOD_POLICY, settings: { branchId: 'x' } }));
    expect(policyManagerPinHash(await readPolicyFile(file))).toBeNull();
  });

  it.each([
    ['not JSON', '{ "schemaVersion": 1, ', 'not_json', /not valid JSON/],
    ['an array', '[1, 2]', 'not_object', /not a JSON object/],
    ['another schema version', '{ "schemaVersion": 2 }', 'version', /schema version 1 only/],
    ['no schema version', '{ "settings": {} }', 'version', /schema version 1 only/],
    [
      'a wrong type',
      JSON.stringify({ schemaVersion: 1, settings: { allowOfflineRedemption: 'no' } }),
      'invalid',
      /settings\.allowOfflineRedemption: Choose yes or no/,
    ],
    [
      'an unknown key',
      JSON.stringify({ schemaVersion: 1, settings: { apiKey: 'sk_live_123456789' } }),
      'invalid',
      /settings\.apiKey: This field is not accepted here/,
    ],
    [
      'an unknown top-level key',
      JSON.stringify({ schemaVersion: 1, setings: {} }),
      'invalid',
      /setings: This field is not accepted here/,
    ],
    [
      'a plain-http service',
      JSON.stringify({ schemaVersion: 1, settings: { baseUrl: 'http://loyalty.example.com' } }),
      'invalid',
      /settings\.baseUrl: The service URL must start with https/,
    ],
    [
      'a PIN in place of its hash',
      JSON.stringify({ schemaVersion: 1, managerPinHash: '1234' }),
      'invalid',
      /managerPinHash: The manager PIN hash must be a PHC scrypt string/,
    ],
    [
      'a bad pinned version',
      JSON.stringify({ schemaVersion: 1, updates: { pinVersion: 'latest' } }),
      'invalid',
      /updates\.pinVersion: Give the version as three numbers/,
    ],
  ])('refuses %s whole, saying why', async (_what, text, kind, words) => {
    await writeFile(file, text);
    const refused = refusal(await readPolicyFile(file));
    expect(refused.kind).toBe(kind);
    expect(refused.words).toMatch(words);
    expect(refused.words).toContain(file);
    expect(refused.words).toMatch(/This till uses its own settings/);
    // A value is never repeated back: an API key pasted into a policy stays out of the log.
    expect(refused.words).not.toContain('sk_live_123456789');
  });

  it('refuses a valid policy with one bad value whole, not the good part', async () => {
    await writeFile(
      file,
      JSON.stringify({ schemaVersion: 1, settings: { baseUrl: 'https://ok.example.com', shopLedgerPort: 80 } }),
    );
    const reading = await readPolicyFile(file);
    expect(reading.state).toBe('refused');
    expect(JSON.stringify(reading)).not.toContain('ok.example.com');
  });

  it('refuses a file larger than the limit without parsing it', async () => {
    await writeFile(file, `{"schemaVersion":1,"defaults":{"tillName":"${'x'.repeat(MAX_POLICY_BYTES)}"}}`);
    expect(refusal(await readPolicyFile(file))).toMatchObject({ kind: 'too_large', words: /larger than 64 KiB/ });
  });

  it('refuses what cannot be read as a file', async () => {
    await mkdir(file);
    expect(refusal(await readPolicyFile(file))).toMatchObject({
      kind: 'unreadable',
      words: /could not be read \(EISDIR\)/,
    });
  });
});
