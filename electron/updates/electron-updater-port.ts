import type { AppUpdater } from 'electron-updater';
import type { Logger } from '../log/log';
import type { UpdateConfig } from './update-config';
import type { UpdaterPort } from './update-scheduler';

/**
 * electron-updater behind the scheduler's port. The app passes `autoUpdater` (shell/); the
 * tests pass an updater built under Node over a local feed. The scheduler decides when;
 * this only sets electron-updater up so that it never decides on its own:
 *
 * - no automatic download, no downgrade, no pre-release, no web installer;
 * - the staging decision is ours (`accept`, the same judgement as the scheduler's, with
 *   this till's stable bucket), not electron-updater's per-account random id;
 * - installing at quit follows the policy (off when updates are off, or another version is pinned).
 *
 * electron-updater checks the download's SHA-512 against the feed, and on Windows the
 * installer's Authenticode publisher against `publisherName` in app-update.yml
 * (a Windows build without one does not update itself: `updatesVerifiable` in app-update-file.ts).
 */
export function createElectronUpdaterPort(
  updater: AppUpdater,
  options: { accept: (offer: { version: string; stagingPercentage?: number | undefined }) => boolean; log: Logger },
): UpdaterPort {
  const { log } = options;
  updater.autoDownload = false;
  updater.allowDowngrade = false;
  updater.allowPrerelease = false;
  updater.disableWebInstaller = true;
  updater.logger = {
    info: (message?: unknown) => log.info(`Updater: ${String(message)}`),
    warn: (message?: unknown) => log.warn(`Updater: ${String(message)}`),
    error: (message?: unknown) => log.error(`Updater: ${String(message)}`),
  };
  updater.isUserWithinRollout = (info) =>
    options.accept({ version: info.version, stagingPercentage: info.stagingPercentage });
  let feed: string | null = null;

  return {
    configure(config: UpdateConfig, installAtQuit: boolean) {
      updater.autoInstallOnAppQuit = installAtQuit;
      const wanted = config.feedUrl && `${config.feedUrl}\n${config.channel}`;
      if (wanted && wanted !== feed) {
        // The channel goes in the feed options: setting `updater.channel` would allow downgrades.
        updater.setFeedURL({ provider: 'generic', url: config.feedUrl!, channel: config.channel });
        feed = wanted;
      }
    },
    async check() {
      const result = await updater.checkForUpdates();
      if (!result) return null;
      const { version, stagingPercentage } = result.updateInfo;
      return stagingPercentage === undefined ? { version } : { version, stagingPercentage };
    },
    async download() {
      await updater.downloadUpdate();
    },
    install() {
      // Silent (no installer window at a till), and the till starts again afterwards.
      updater.quitAndInstall(true, true);
    },
  };
}
