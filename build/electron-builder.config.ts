// electron-builder configuration for the Windows and macOS installers.
//
// Used by build/dist.ts (npm run dist:win / dist:mac / dist:dir), and loadable by the
// electron-builder CLI as well: `npx electron-builder --config build/electron-builder.config.ts`.
// Signing and notarisation are switched by environment variables (see build/signing.ts
// and docs/operations.md); nothing secret lives in this file.
import type { Configuration } from 'electron-builder';
import { LINK_SCHEME } from '../electron/links/link-scheme';
import { readSigningPlan, type Env } from './signing';

export const APP_ID = 'app.loyaltytill.desktop';
export const PRODUCT_NAME = 'Loyalty Till';

/**
 * What goes into app.asar: the bundles of the main process, the preload and the demo
 * sandbox (build/build-main.ts), the built renderer, and package.json. No node_modules:
 * esbuild and Vite inline every library, so package.json has no runtime `dependencies`
 * for electron-builder to copy (it never copies devDependencies). The exclusions keep
 * sources, source maps and .env files out should a build ever leave them in dist/.
 */
export const PACKED_FILES = [
  'dist/main/**/*',
  'dist/renderer/**/*',
  'package.json',
  '!**/*.map',
  '!**/*.{ts,mts,cts,tsx}',
  '!**/.env{,.*}',
  '!**/{test,tests,__tests__}/**',
] as const;

/** The link protocol, declared for the macOS bundle and registered by the NSIS include. */
export const LINK_PROTOCOL = Object.freeze({
  name: 'Loyalty Till link',
  schemes: [LINK_SCHEME],
  role: 'Viewer' as const,
});
/** Adds the Windows registry keys of `loyalty-till://` to the NSIS installer and removes them on uninstall. */
export const NSIS_INCLUDE = 'build/installer.nsh';

/**
 * The update feed built into the app (`LOYALTY_TILL_UPDATE_FEED`, an https folder holding
 * latest.yml): electron-builder writes it into resources/app-update.yml, with the Windows
 * publisher the updater checks installers against (docs/operations.md#updates). Without it
 * the app updates only where a policy names a feed. Anything but https stops the build.
 */
export function readUpdateFeed(env: Env): string | null {
  const feed = env.LOYALTY_TILL_UPDATE_FEED?.trim();
  if (!feed) return null;
  let url: URL | null = null;
  try {
    url = new URL(feed);
  } catch {
    // reported below
  }
  if (url?.protocol !== 'https:' || url.username || url.password)
    throw new Error('LOYALTY_TILL_UPDATE_FEED must be an https:// address without a user name or password.');
  return feed;
}

export function createBuilderConfig(env: Env = process.env): Configuration {
  const signing = readSigningPlan(env);
  const updateFeed = readUpdateFeed(env);
  return {
    appId: APP_ID,
    productName: PRODUCT_NAME,
    copyright: `Copyright © ${new Date().getUTCFullYear()} ${PRODUCT_NAME}`,
    directories: {
      buildResources: 'build',
      output: 'release/${version}',
    },
    files: [...PACKED_FILES],
    asar: true,
    // Only the UI languages the till may run in; the rest of Chromium's locales is dead weight.
    electronLanguages: ['en-US', 'en-GB', 'ar', 'da', 'de', 'es', 'nb', 'pl', 'tr'],
    fileAssociations: [],
    // `loyalty-till://` links from the POS (docs/pos-integration.md). electron-builder turns
    // this into the macOS bundle's CFBundleURLTypes; its NSIS target does not register
    // protocols, so build/installer.nsh (nsis.include) writes the Windows registry keys.
    // The app registers itself at start where neither ran (electron/links/protocol-client.ts).
    protocols: [LINK_PROTOCOL],
    // Hardened Electron: no running as plain Node, no NODE_OPTIONS or --inspect from outside,
    // code only from the (integrity-checked) app.asar, cookies encrypted at rest, and no
    // extra powers for file:// pages (the renderer is served from the app's own protocol).
    electronFuses: {
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    },
    // The generic feed the till updates from, when the build names one; a policy may name
    // another or turn updates off (electron/updates, docs/operations.md#updates).
    publish: updateFeed ? [{ provider: 'generic', url: updateFeed }] : null,

    win: {
      target: [{ target: 'nsis', arch: ['x64', 'arm64'] }],
      icon: 'build/icon.ico',
      // Signed only when WIN_CSC_LINK or CSC_LINK is set; electron-builder reads them itself.
    },
    nsis: {
      // An assisted installer that asks "for all users or only for me"; a till is shared by
      // every cashier, so all users is the preselected answer.
      oneClick: false,
      perMachine: false,
      selectPerMachineByDefault: true,
      allowElevation: true,
      allowToChangeInstallationDirectory: true,
      createDesktopShortcut: true,
      createStartMenuShortcut: true,
      shortcutName: PRODUCT_NAME,
      // The user-data folder holds queued redemptions not yet sent: never delete it on uninstall.
      deleteAppDataOnUninstall: false,
      installerIcon: 'build/icon.ico',
      uninstallerIcon: 'build/icon.ico',
      artifactName: 'Loyalty-Till-Setup-${version}.${ext}',
      include: NSIS_INCLUDE,
    },

    mac: {
      // electron-updater updates a Mac from the zip (Squirrel.Mac); the dmg is for the first install.
      target: [
        { target: 'dmg', arch: ['x64', 'arm64'] },
        ...(updateFeed ? [{ target: 'zip', arch: ['x64' as const, 'arm64' as const] }] : []),
      ],
      category: 'public.app-category.business',
      icon: 'build/icon.icns',
      hardenedRuntime: true,
      gatekeeperAssess: false,
      entitlements: 'build/entitlements.mac.plist',
      entitlementsInherit: 'build/entitlements.mac.plist',
      minimumSystemVersion: '12.0',
      // No identity in the environment: build unsigned on purpose rather than picking
      // whatever certificate happens to sit in this Mac's keychain.
      ...(signing.mac ? {} : { identity: null }),
      notarize: signing.notarize !== null,
    },
    dmg: {
      artifactName: 'Loyalty-Till-${version}-${arch}.${ext}',
    },
  };
}

// A function, so that importing this module never throws: electron-builder's loader calls
// it, and a half-configured signing setup is reported when the configuration is asked for.
export default function builderConfigFromEnvironment(): Configuration {
  return createBuilderConfig(process.env);
}
