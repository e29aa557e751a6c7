/**
 * Waiting for the browser to finish the work one bench section leaves behind before the
 * next is measured. Deleting a database of a million customers leaves Chromium's IndexedDB
 * deleting and compacting files for tens of seconds: the fill section measured right after
 * the million search section ran 20-30% slower than after a pause, and its sequential
 * paging, measured a minute later, did not (the ratio fell from 2.5x to 1.6-1.8x).
 */
import { startCpuSampler } from './cpu-sampler';

/** Quiet: the Chromium processes together kept less than this many cores busy over a window. */
export const QUIET_CORES = 0.15;
const WINDOW_MS = 1_000;
/** At most this long: a machine that never quiets still gets measured, and says so. */
const MAX_WAIT_MS = 90_000;

/**
 * Calls `busyCores` (the cores kept busy over its next window) until one says less than
 * `quietCores`, at most `maxWindows` times. Returns the windows waited and whether it ended quiet.
 */
export async function waitUntilQuiet(
  busyCores: () => Promise<number>,
  { quietCores = QUIET_CORES, maxWindows = MAX_WAIT_MS / WINDOW_MS } = {},
): Promise<{ windows: number; quiet: boolean }> {
  for (let windows = 1; windows <= maxWindows; windows++) {
    if ((await busyCores()) < quietCores) return { windows, quiet: true };
  }
  return { windows: maxWindows, quiet: false };
}

/** Waits until the Chromium processes below this one are quiet; null where their processor time cannot be read. */
export async function waitForQuietBrowser(): Promise<{ seconds: number; quiet: boolean } | null> {
  const sampler = startCpuSampler();
  if (!sampler.available) {
    sampler.stop();
    return null;
  }
  try {
    const chromium = (from: number, to: number) =>
      [...sampler.between(from, to)].reduce((sum, [kind, seconds]) => (kind === 'node' ? sum : sum + seconds), 0);
    const { windows, quiet } = await waitUntilQuiet(async () => {
      const from = Date.now();
      await new Promise((resolve) => setTimeout(resolve, WINDOW_MS));
      return chromium(from, Date.now()) / (WINDOW_MS / 1000);
    });
    return { seconds: (windows * WINDOW_MS) / 1000, quiet };
  } finally {
    sampler.stop();
  }
}
