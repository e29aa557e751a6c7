import { createHash } from 'node:crypto';
import { compareVersions } from './versions';
import type { InstallWindow, UpdateConfig } from './update-config';

/**
 * The decisions of the updater, as plain functions of the clock, the till's state and the
 * feed's offer, so each is tested without Electron: whether to look at the feed, whether to
 * take what it offers, whether to install what was downloaded now.
 */

/**
 * This till's place in a staged roll-out, 0 to below 100: the same on every start and for
 * every cashier account of the till (it comes from the computer's name, not a file of one
 * account), and spread evenly over a fleet by SHA-256.
 */
export function stagingBucket(tillId: string): number {
  const digest = createHash('sha256').update(`loyalty-till staging\n${tillId}`).digest();
  return (digest.readUInt32BE(0) / 0x1_0000_0000) * 100;
}

export type OfferVerdict =
  | { take: true }
  | { take: false; reason: 'disabled' | 'bad_version' | 'same' | 'downgrade' | 'not_pinned' | 'not_in_stage' };

/**
 * Whether to take the version the feed offers: never when updates are off, never an older
 * version (a feed rolled back is followed by publishing a newer one, not by downgrading
 * tills), only the pinned version when one is pinned, and only when this till's bucket is
 * inside the feed's `stagingPercentage` (absent: everyone; a pinned version ignores staging,
 * since the organisation chose it for every till).
 */
export function judgeOffer(input: {
  config: UpdateConfig;
  current: string;
  offered: string;
  stagingPercentage?: number | undefined;
  tillId: string;
}): OfferVerdict {
  const { config, current, offered, stagingPercentage, tillId } = input;
  if (!config.enabled) return { take: false, reason: 'disabled' };
  const order = compareVersions(offered, current);
  if (order === null) return { take: false, reason: 'bad_version' };
  if (order === 0) return { take: false, reason: 'same' };
  if (order < 0) return { take: false, reason: 'downgrade' };
  if (config.pinVersion !== null) {
    return compareVersions(offered, config.pinVersion) === 0 ? { take: true } : { take: false, reason: 'not_pinned' };
  }
  if (stagingPercentage !== undefined && Number.isFinite(stagingPercentage)) {
    if (stagingBucket(tillId) >= Math.min(100, Math.max(0, stagingPercentage)))
      return { take: false, reason: 'not_in_stage' };
  }
  return { take: true };
}

/** Whether it is time to look at the feed again. */
export function checkDue(input: { config: UpdateConfig; now: number; lastCheckAt: number | null }): boolean {
  const { config, now, lastCheckAt } = input;
  if (!config.enabled) return false;
  if (lastCheckAt === null || now < lastCheckAt) return true;
  return now - lastCheckAt >= config.checkEveryHours * 3_600_000;
}

/** Whether the local time of `date` is inside the window (the window may run past midnight). */
export function inInstallWindow(date: Date, window: InstallWindow): boolean {
  const hour = date.getHours();
  if (window.fromHour === window.toHour) return hour === window.fromHour;
  return window.fromHour < window.toHour
    ? hour >= window.fromHour && hour < window.toHour
    : hour >= window.fromHour || hour < window.toHour;
}

export type InstallVerdict =
  | { install: true }
  | {
      install: false;
      reason: 'disabled' | 'nothing_downloaded' | 'downgrade' | 'not_pinned' | 'outside_window' | 'busy';
    };

/**
 * Whether a version already downloaded may still be installed, at the window or at quit:
 * the policy may have turned updates off or pinned another version since it was taken.
 */
export function stillWanted(config: UpdateConfig, current: string, downloaded: string): InstallVerdict {
  if (!config.enabled) return { install: false, reason: 'disabled' };
  if ((compareVersions(downloaded, current) ?? 0) <= 0) return { install: false, reason: 'downgrade' };
  if (config.pinVersion !== null && compareVersions(downloaded, config.pinVersion) !== 0)
    return { install: false, reason: 'not_pinned' };
  return { install: true };
}

/**
 * Whether to install a downloaded update now: only inside the night window and only while the
 * till is idle (no customer open, nothing being redeemed or registered, the outbox on disk).
 * Outside the window it waits for the next quit (electron-updater installs on quit) or the
 * next night; a till busy at night waits for the next check. Never a version that is not newer,
 * nor one the policy no longer wants (`stillWanted`), whatever was downloaded.
 */
export function judgeInstall(input: {
  config: UpdateConfig;
  now: Date;
  idle: boolean;
  current: string;
  downloaded: string | null;
}): InstallVerdict {
  const { config, now, idle, current, downloaded } = input;
  if (!config.enabled) return { install: false, reason: 'disabled' };
  if (downloaded === null) return { install: false, reason: 'nothing_downloaded' };
  const wanted = stillWanted(config, current, downloaded);
  if (!wanted.install) return wanted;
  if (!inInstallWindow(now, config.installWindow)) return { install: false, reason: 'outside_window' };
  if (!idle) return { install: false, reason: 'busy' };
  return { install: true };
}
