import { describeError, type Logger } from '../log/log';
import type { UpdateConfig } from './update-config';
import { checkDue, judgeInstall, judgeOffer, stillWanted } from './update-decisions';

/** What the scheduler needs of an updater: electron-updater's in the app (shell/auto-update.ts), a fake in tests. */
export interface UpdaterPort {
  /**
   * Points the updater at the feed and channel, and says whether what it downloaded may be
   * installed when the till quits (each step: the policy may have changed).
   */
  configure(config: UpdateConfig, installAtQuit: boolean): void;
  /** Reads the feed: the version it offers and its staging percentage, or null when it offers nothing. */
  check(): Promise<{ version: string; stagingPercentage?: number } | null>;
  /** Downloads the offer of the last check, in the background; resolves once it is on disk and verified. */
  download(): Promise<void>;
  /** Quits and installs the downloaded update silently, then starts the till again. */
  install(): void;
}

export type UpdateState =
  | { state: 'off' }
  | { state: 'idle'; lastCheckAt: number | null; note?: string }
  | { state: 'downloading'; version: string }
  | { state: 'ready'; version: string }
  | { state: 'installing'; version: string };

export interface UpdateScheduler {
  /** One step: look at the feed when due, download what it may take, install when the moment is right. */
  tick(): Promise<UpdateState>;
  state(): UpdateState;
  /** When the feed was last read (ms), whatever came of it; null before the first look. */
  lastCheckAt(): number | null;
}

/**
 * The updater's timetable. `tick` runs every few minutes: it checks the feed every
 * `checkEveryHours`, downloads a version it may take in the background, and installs it
 * only at the night window while the till is idle; otherwise electron-updater installs it
 * at the next quit. A failed check or download is one log line and is tried again at the
 * next check; the till's work is never held up by it.
 */
export function createUpdateScheduler(options: {
  port: UpdaterPort;
  config: () => UpdateConfig;
  current: string;
  tillId: string;
  idle: (now: number) => boolean;
  clock: () => number;
  log: Logger;
}): UpdateScheduler {
  const { port, current, tillId, idle, clock, log } = options;
  let lastCheckAt: number | null = null;
  let downloaded: string | null = null;
  let state: UpdateState = { state: 'idle', lastCheckAt: null };
  let running: Promise<UpdateState> | null = null;

  async function step(): Promise<UpdateState> {
    const config = options.config();
    const now = clock();
    // Every step, so a policy that turns updates off, or pins another version, also stops
    // the install of what was downloaded at the next quit.
    const wanted = downloaded === null || stillWanted(config, current, downloaded).install;
    port.configure(config, config.enabled && wanted);
    if (!config.enabled) {
      state = { state: 'off' };
      return state;
    }
    if (state.state === 'installing' || state.state === 'downloading') return state;

    if (downloaded !== null && !wanted) {
      // Dropped: the next check may find the version the policy wants now.
      log.info(`Loyalty Till ${downloaded} is no longer wanted by the policy; it will not be installed.`);
      downloaded = null;
      state = { state: 'idle', lastCheckAt, note: 'not_pinned' };
    }
    if (downloaded !== null) {
      const verdict = judgeInstall({ config, now: new Date(now), idle: idle(now), current, downloaded });
      if (verdict.install) {
        log.info(`Installing Loyalty Till ${downloaded}: the till is idle and it is the install window.`);
        state = { state: 'installing', version: downloaded };
        port.install();
        return state;
      }
      return state;
    }

    if (!checkDue({ config, now, lastCheckAt })) return state;
    lastCheckAt = now;
    let offer: Awaited<ReturnType<UpdaterPort['check']>>;
    try {
      offer = await port.check();
    } catch (error) {
      log.warn(`The update feed could not be read (${describeError(error)}); trying again at the next check.`);
      state = { state: 'idle', lastCheckAt, note: 'check_failed' };
      return state;
    }
    if (offer === null) {
      state = { state: 'idle', lastCheckAt };
      return state;
    }
    const verdict = judgeOffer({
      config,
      current,
      offered: offer.version,
      stagingPercentage: offer.stagingPercentage,
      tillId,
    });
    if (!verdict.take) {
      if (verdict.reason !== 'same') log.info(`The feed offers ${offer.version}; not taken (${verdict.reason}).`);
      state = { state: 'idle', lastCheckAt, note: verdict.reason };
      return state;
    }
    log.info(`Downloading Loyalty Till ${offer.version} in the background.`);
    state = { state: 'downloading', version: offer.version };
    try {
      await port.download();
    } catch (error) {
      log.warn(
        `The update ${offer.version} was not downloaded (${describeError(error)}); trying again at the next check.`,
      );
      state = { state: 'idle', lastCheckAt, note: 'download_failed' };
      return state;
    }
    downloaded = offer.version;
    state = { state: 'ready', version: offer.version };
    log.info(
      `Loyalty Till ${offer.version} is ready; it installs at the install window when the till is idle, or at the next quit.`,
    );
    return state;
  }

  return {
    tick() {
      running ??= step().finally(() => {
        running = null;
      });
      return running;
    },
    state: () => state,
    lastCheckAt: () => lastCheckAt,
  };
}
