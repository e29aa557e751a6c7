import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config';
import { DebugLogger } from 'builder-util';
import type { Configuration } from 'electron-builder';
import { describe, expect, it } from 'vitest';
import { APP_ID, createBuilderConfig, NSIS_INCLUDE, PRODUCT_NAME } from '../../build/electron-builder.config';
import { DEFAULT_SETTINGS } from '../../electron/storage/settings';
import { LINK_SCHEME } from '../../electron/links/link-scheme';

const PROJECT_DIR = fileURLToPath(new URL('../..', import.meta.url));
const CONFIG_FILE = 'build/electron-builder.config.ts';

const SIGNED_ENV = {
  CSC_LINK: '/secure/developer-id.p12',
  CSC_KEY_PASSWORD: 'p12-password',
  APPLE_API_KEY: '/secure/AuthKey.p8',
  APPLE_API_KEY_ID: 'KEYID12345',
  APPLE_API_ISSUER: '00000000-0000-0000-0000-000000000000',
};

// electron-builder's own check: the JSON schema it ships plus its extra rules.
const validate = (config: Configuration) => validateConfiguration(config, new DebugLogger(false));

describe('electron-builder configuration', () => {
  it('passes electron-builder’s own schema, unsigned and signed', async () => {
    await expect(validate(createBuilderConfig({}))).resolves.toBeUndefined();
    await expect(validate(createBuilderConfig(SIGNED_ENV))).resolves.toBeUndefined();
  }, 30_000); // the first call compiles electron-builder's whole JSON schema

  it('is rejected by the same validator when an option is misspelt (the check is live)', async () => {
    const config = createBuilderConfig({});
    const misspelt = { ...config, nsis: { ...config.nsis, oneClik: false } } as Configuration;
    await expect(validate(misspelt)).rejects.toThrow(/configuration\.nsis/);
  });

  it('loads from its file through electron-builder’s config loader, as the CLI would', async () => {
    const loaded = await getConfig(PROJECT_DIR, CONFIG_FILE, null);
    await expect(validate(loaded)).resolves.toBeUndefined();
    expect(loaded.appId).toBe(APP_ID);
    expect(loaded.productName).toBe(PRODUCT_NAME);
  });

  it('builds an assisted NSIS installer that offers all-users or just-me, for x64 and arm64', () => {
    const config = createBuilderConfig({});
    expect(config.nsis).toMatchObject({
      oneClick: false,
      perMachine: false,
      allowElevation: true,
      deleteAppDataOnUninstall: false,
    });
    expect(config.win?.target).toEqual([{ target: 'nsis', arch: ['x64', 'arm64'] }]);
  });

  it('names an update feed only when the build is given one, and only https', async () => {
    expect(createBuilderConfig({}).publish).toBeNull();
    const withFeed = createBuilderConfig({ LOYALTY_TILL_UPDATE_FEED: 'https://updates.example.com/till' });
    expect(withFeed.publish).toEqual([{ provider: 'generic', url: 'https://updates.example.com/till' }]);
    // Macs update from a zip, so a build with a feed makes one beside the dmg.
    expect(withFeed.mac?.target).toEqual([
      { target: 'dmg', arch: ['x64', 'arm64'] },
      { target: 'zip', arch: ['x64', 'arm64'] },
    ]);
    await expect(validate(withFeed)).resolves.toBeUndefined();
    expect(() => createBuilderConfig({ LOYALTY_TILL_UPDATE_FEED: 'http://updates.example.com/till' })).toThrow(
      /must be an https:\/\/ address/,
    );
  });

  it('builds hardened-runtime dmgs for Intel and Apple silicon with the entitlements file', () => {
    const mac = createBuilderConfig({}).mac!;
    expect(mac.target).toEqual([{ target: 'dmg', arch: ['x64', 'arm64'] }]);
    expect(mac.hardenedRuntime).toBe(true);
    expect(mac.entitlements).toBe('build/entitlements.mac.plist');
    expect(mac.entitlementsInherit).toBe('build/entitlements.mac.plist');
  });

  it('asks for only the JIT entitlement Electron needs', () => {
    const plist = readFileSync(join(PROJECT_DIR, 'build/entitlements.mac.plist'), 'utf8').replace(
      /<!--[\s\S]*?-->/g,
      '',
    );
    const keys = [...plist.matchAll(/<key>([^<]+)<\/key>/g)].map((match) => match[1]);
    expect(keys).toEqual(['com.apple.security.cs.allow-jit']);
  });

  it('declares the loyalty-till:// protocol for the macOS bundle (CFBundleURLTypes)', async () => {
    const config = createBuilderConfig({});
    expect(LINK_SCHEME).toBe('loyalty-till');
    expect(config.protocols).toEqual([{ name: 'Loyalty Till link', schemes: [LINK_SCHEME], role: 'Viewer' }]);
    // The same declaration survives electron-builder's own loader, as the CLI would read it.
    const loaded = await getConfig(PROJECT_DIR, CONFIG_FILE, null);
    expect(loaded.protocols).toEqual(config.protocols);
  });

  it('registers the loyalty-till:// protocol in the NSIS installer, per user or per machine, and removes it on uninstall', () => {
    // electron-builder's NSIS target ignores `protocols`: the include writes the registry keys.
    const config = createBuilderConfig({});
    expect(config.nsis?.include).toBe(NSIS_INCLUDE);
    const script = readFileSync(join(PROJECT_DIR, NSIS_INCLUDE), 'utf8');
    const install = script.match(/!macro customInstall\n([\s\S]*?)!macroend/)?.[1] ?? '';
    const uninstall = script.match(/!macro customUnInstall\n([\s\S]*?)!macroend/)?.[1] ?? '';
    const key = `Software\\Classes\\${LINK_SCHEME}`;
    // SHELL_CONTEXT: HKLM for "anyone who uses this computer", HKCU for "only for me".
    expect(install).toContain(`WriteRegStr SHELL_CONTEXT "${key}" "URL Protocol" ""`);
    expect(install).toContain(`WriteRegStr SHELL_CONTEXT "${key}" "" "URL:Loyalty Till link"`);
    // The link is one quoted argument after the end of switches: it cannot add a switch.
    expect(install).toContain(`WriteRegStr SHELL_CONTEXT "${key}\\shell\\open\\command" "" '"$appExe" -- "%1"'`);
    expect(uninstall).toContain(`DeleteRegKey SHELL_CONTEXT "${key}"`);
    expect(uninstall).toMatch(/\$\{ifNot\} \$\{isUpdated\}/);
  });

  it('opens the shop ledger’s ports for this program, on private networks and the local subnet only', () => {
    const script = readFileSync(join(PROJECT_DIR, NSIS_INCLUDE), 'utf8');
    const install = script.match(/!macro customInstall\n([\s\S]*?)!macroend/)?.[1] ?? '';
    const uninstall = script.match(/!macro customUnInstall\n([\s\S]*?)!macroend/)?.[1] ?? '';
    const remove = script.match(/!macro removeShopLedgerRules\n([\s\S]*?)!macroend/)?.[1] ?? '';
    const rules = [...install.matchAll(/netsh advfirewall firewall add rule ([^']+)'/g)].map((match) => match[1]!);
    expect(rules).toHaveLength(2);
    for (const rule of rules) {
      expect(rule).toContain('dir=in action=allow program="$appExe"');
      expect(rule).toContain('profile=private remoteip=localsubnet');
    }
    // The port Settings start with, and mDNS.
    expect(rules[0]).toContain(`protocol=TCP localport=${DEFAULT_SETTINGS.shopLedgerPort} `);
    expect(rules[1]).toContain('protocol=UDP localport=5353 ');
    // Removed before they are added (a reinstall adds no duplicates), and on a real uninstall;
    // the macro is defined before NSIS reads its first use.
    expect(install.indexOf('!insertmacro removeShopLedgerRules')).toBeLessThan(install.indexOf('add rule'));
    expect(uninstall).toContain('!insertmacro removeShopLedgerRules');
    expect(remove.match(/delete rule/g)).toHaveLength(2);
    expect(script.indexOf('!macro removeShopLedgerRules')).toBeLessThan(script.indexOf('!macro customInstall'));
  });

  it('packs into asar, associates no file types and flips the hardening fuses', () => {
    const config = createBuilderConfig({});
    expect(config.asar).toBe(true);
    expect(config.fileAssociations).toEqual([]);
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
    });
  });

  it('points only at files that exist in the repository', () => {
    const config = createBuilderConfig({});
    const referenced = [
      config.win?.icon,
      config.nsis?.installerIcon,
      config.nsis?.uninstallerIcon,
      config.nsis?.include,
      config.mac?.icon,
      config.mac?.entitlements,
    ];
    for (const file of referenced) {
      expect(file, 'a referenced build resource').toBeTruthy();
      expect(existsSync(join(PROJECT_DIR, file!)), `${file} exists`).toBe(true);
    }
  });

  it('writes installers to the git-ignored release folder', () => {
    expect(createBuilderConfig({}).directories?.output).toMatch(/^release\//);
    expect(readFileSync(join(PROJECT_DIR, '.gitignore'), 'utf8').split('\n')).toContain('release/');
  });

  it('without signing variables, builds macOS unsigned and un-notarised on purpose', () => {
    const mac = createBuilderConfig({}).mac!;
    expect(mac.identity).toBeNull();
    expect(mac.notarize).toBe(false);
  });

  it('with a certificate and notarisation key, signs with that identity and notarises', () => {
    const mac = createBuilderConfig(SIGNED_ENV).mac!;
    expect(mac.identity).toBeUndefined(); // electron-builder takes it from CSC_LINK
    expect(mac.notarize).toBe(true);
  });

  it('keeps every secret out of the configuration itself', () => {
    const text = JSON.stringify(createBuilderConfig(SIGNED_ENV));
    for (const value of Object.values(SIGNED_ENV)) expect(text).not.toContain(value);
  });
});
