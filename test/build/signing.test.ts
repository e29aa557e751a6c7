import { describe, expect, it } from 'vitest';
import { describeSigning, readSigningPlan, SigningConfigError } from '../../build/signing';

describe('signing plan from the environment', () => {
  it('with nothing set, everything is unsigned and each platform says so in one line', () => {
    const plan = readSigningPlan({});
    expect(plan).toEqual({ windows: null, mac: null, notarize: null });
    for (const platform of ['win', 'mac'] as const) {
      const line = describeSigning(plan, platform);
      expect(line).toMatch(/unsigned/);
      expect(line).not.toContain('\n');
    }
  });

  it('treats blank variables as unset', () => {
    expect(readSigningPlan({ CSC_LINK: '  ', WIN_CSC_LINK: '', APPLE_ID: ' ' })).toEqual({
      windows: null,
      mac: null,
      notarize: null,
    });
  });

  it('prefers WIN_CSC_LINK for Windows and falls back to CSC_LINK, as electron-builder does', () => {
    expect(readSigningPlan({ WIN_CSC_LINK: 'win.pfx', CSC_LINK: 'mac.p12' }).windows).toBe('WIN_CSC_LINK');
    expect(readSigningPlan({ CSC_LINK: 'shared.p12' }).windows).toBe('CSC_LINK');
    expect(readSigningPlan({ CSC_NAME: 'Developer ID Application: Till Co' })).toMatchObject({
      windows: null,
      mac: 'CSC_NAME',
    });
  });

  it('recognises each complete set of notarisation credentials', () => {
    const identity = { CSC_NAME: 'Developer ID Application: Till Co' };
    expect(
      readSigningPlan({ ...identity, APPLE_API_KEY: 'k.p8', APPLE_API_KEY_ID: 'id', APPLE_API_ISSUER: 'iss' }).notarize,
    ).toBe('api-key');
    expect(
      readSigningPlan({ ...identity, APPLE_ID: 'a@b.c', APPLE_APP_SPECIFIC_PASSWORD: 'pw', APPLE_TEAM_ID: 'T' })
        .notarize,
    ).toBe('apple-id');
    expect(readSigningPlan({ ...identity, APPLE_KEYCHAIN: 'kc', APPLE_KEYCHAIN_PROFILE: 'p' }).notarize).toBe(
      'keychain-profile',
    );
  });

  it('stops on half-set notarisation credentials, naming the missing variables but no values', () => {
    const env = { CSC_NAME: 'x', APPLE_ID: 'cashier@example.com', APPLE_APP_SPECIFIC_PASSWORD: 'abcd-efgh-ijkl-mnop' };
    expect(() => readSigningPlan(env)).toThrow(SigningConfigError);
    try {
      readSigningPlan(env);
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toContain('APPLE_TEAM_ID');
      expect(message).not.toContain('cashier@example.com');
      expect(message).not.toContain('abcd-efgh-ijkl-mnop');
    }
  });

  it('refuses to notarise an app it would not sign', () => {
    expect(() => readSigningPlan({ APPLE_API_KEY: 'k.p8', APPLE_API_KEY_ID: 'id', APPLE_API_ISSUER: 'iss' })).toThrow(
      /no macOS signing identity/,
    );
  });

  it('describes a signed build by the variable names only', () => {
    const env = {
      CSC_LINK: 'c2VjcmV0LWNlcnQ=',
      CSC_KEY_PASSWORD: 'hunter22',
      APPLE_API_KEY: 'k.p8',
      APPLE_API_KEY_ID: 'id',
      APPLE_API_ISSUER: 'iss',
    };
    const plan = readSigningPlan(env);
    const mac = describeSigning(plan, 'mac');
    const win = describeSigning(plan, 'win');
    expect(mac).toMatch(/signed with the identity from CSC_LINK, notarised/);
    expect(win).toMatch(/signed with the certificate from CSC_LINK/);
    for (const line of [mac, win]) {
      expect(line).not.toContain('c2VjcmV0LWNlcnQ=');
      expect(line).not.toContain('hunter22');
    }
  });
});
