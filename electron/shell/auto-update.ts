import { app } from 'electron';
import { autoUpdater } from 'electron-updater';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { AppCore } from '../bridge/app-core';
import { buildFeedOf, updatesVerifiable } from '../updates/app-update-file';
import { createElectronUpdaterPort } from '../updates/electron-updater-port';
import { resolveUpdateConfig } from '../updates/update-config';
import { judgeOffer } from '../updates/update-decisions';
import { createUpdateScheduler } from '../updates/update-scheduler';

/** The first look at the feed waits until the till has settled after starting. */
const FIRST_STEP_MS = 2 * 60_000;
/** The scheduler's step: often enough to catch the install window, cheap when there is nothing to do. */
const STEP_MS = 5 * 60_000;

/**
 * Wires electron-updater to the scheduler (electron/updates), which decides everything:
 * the feed comes from the policy or the build, the staging bucket from the computer's name,
 * idleness from the page's activity reports. Returns the stop function.
 */
export function startAutoUpdate(core: AppCore): () => void {
  const log = core.log;
  if (!app.isPackaged) return () => undefined;
  let appUpdateYml: string | null = null;
  try {
    appUpdateYml = readFileSync(join(process.resourcesPath, 'app-update.yml'), 'utf8');
  } catch {
    // A build without a feed of its own: only a policy's feed can turn updates on.
  }
  if (!updatesVerifiable(process.platform, appUpdateYml)) {
    log.warn(
      'This build carries no publisher to check updates against (it was not signed): it does not update itself.',
    );
    return () => undefined;
  }
  const current = app.getVersion();
  const tillId = hostname();
  const buildFeed = buildFeedOf(appUpdateYml);
  const config = () => {
    const reading = core.policy();
    return resolveUpdateConfig(reading.state === 'applied' ? reading.policy.updates : undefined, {
      feedUrl: buildFeed,
    });
  };
  const port = createElectronUpdaterPort(autoUpdater, {
    accept: ({ version, stagingPercentage }) =>
      judgeOffer({ config: config(), current, offered: version, stagingPercentage, tillId }).take,
    log,
  });
  const scheduler = createUpdateScheduler({
    port,
    config,
    current,
    tillId,
    idle: (now) => core.activity.idle(now),
    clock: Date.now,
    log,
  });
  // The till's health says whether updates run, on which channel, and when the feed was last read.
  const step = () =>
    void scheduler.tick().then(() => {
      const { enabled, channel } = config();
      const lastCheckAt = scheduler.lastCheckAt();
      core.health.noteUpdates({
        enabled,
        channel,
        lastCheckAt: lastCheckAt === null ? null : new Date(lastCheckAt).toISOString(),
      });
    });
  const first = setTimeout(step, FIRST_STEP_MS);
  const every = setInterval(step, STEP_MS);
  return () => {
    clearTimeout(first);
    clearInterval(every);
  };
}
