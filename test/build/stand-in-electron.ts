import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FuseV1Options } from '@electron/fuses';

// @electron/fuses finds the fuse wire after this marker in the Electron binary.
const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
const FUSE_WIRE_VERSION = 1;
/** Fuse states are stored as the characters '0' and '1'. */
export const FUSE_OFF = 0x30;
export const FUSE_ON = 0x31;

/**
 * The initial fuse states of the stand-in: each hardening fuse starts in the state the
 * build must change, so a build that forgot to flip it is caught.
 */
export const INITIAL_FUSES: Record<FuseV1Options, number> = {
  [FuseV1Options.RunAsNode]: FUSE_ON,
  [FuseV1Options.EnableCookieEncryption]: FUSE_OFF,
  [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: FUSE_ON,
  [FuseV1Options.EnableNodeCliInspectArguments]: FUSE_ON,
  [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: FUSE_OFF,
  [FuseV1Options.OnlyLoadAppFromAsar]: FUSE_OFF,
  [FuseV1Options.LoadBrowserProcessSpecificV8Snapshot]: FUSE_OFF,
  [FuseV1Options.GrantFileProtocolExtraPrivileges]: FUSE_ON,
};

/** Chromium locales the stand-in ships, a mix of wanted and unwanted ones. */
export const STAND_IN_LOCALES = ['en-US', 'en-GB', 'de', 'fr', 'ja', 'pl', 'zh-CN'] as const;

/**
 * An unpacked Linux Electron distribution in miniature, for `electronDist`: an
 * `electron` executable that is not Electron but carries a real fuse wire, the locales
 * folder, and the licence file. Enough for electron-builder to pack around it.
 */
export async function createStandInElectron(dir: string): Promise<string> {
  await mkdir(join(dir, 'locales'), { recursive: true });
  await mkdir(join(dir, 'resources'), { recursive: true });
  const states = Object.values(FuseV1Options)
    .filter((value): value is FuseV1Options => typeof value === 'number')
    .sort((a, b) => a - b)
    .map((option) => INITIAL_FUSES[option]);
  const binary = Buffer.concat([
    Buffer.from('#!/bin/sh\necho "stand-in for Electron"\nexit 0\n'),
    Buffer.from(FUSE_SENTINEL, 'latin1'),
    Buffer.from([FUSE_WIRE_VERSION, states.length, ...states]),
    Buffer.from('\n'),
  ]);
  await writeFile(join(dir, 'electron'), binary);
  await chmod(join(dir, 'electron'), 0o755);
  for (const locale of STAND_IN_LOCALES) await writeFile(join(dir, 'locales', `${locale}.pak`), locale);
  await writeFile(join(dir, 'LICENSE'), 'Electron licence (stand-in)\n');
  return dir;
}
