import { randomBytes } from 'node:crypto';
import type { ExportOutcome } from '../../common/contract';
import type { FileToSave } from '../bridge/exports';

/** Under the secret, beside the bridge: `/<secret>/__till/download/<token>`. */
export const DOWNLOAD_PATH_PREFIX = '/__till/download/';

/** How long an export waits for the page to fetch it. */
export const DOWNLOAD_TTL_MS = 60_000;

/** At most this many exports wait at once; a newer one pushes the oldest out. */
const MAX_WAITING = 4;

export interface OneTimeDownloads {
  /** Keeps the file for one fetch and says where the page fetches it (relative to the page). */
  offer(file: FileToSave): Promise<ExportOutcome>;
  /** The file for a token, once: a second fetch, or one after the wait, finds nothing. */
  take(token: string): FileToSave | null;
}

/**
 * The browser shell's way out for an export: the main process has the approval checked and
 * the file in hand, and serves it once, under the session's secret and a token of its own, as
 * a download the browser saves. Without the token (16 random bytes, handed only to the page
 * that asked) nothing is served, and nothing is kept for long.
 */
export function createOneTimeDownloads(now: () => number = Date.now): OneTimeDownloads {
  const waiting = new Map<string, { file: FileToSave; until: number }>();
  return {
    async offer(file) {
      for (const [token, kept] of waiting) if (kept.until <= now()) waiting.delete(token);
      while (waiting.size >= MAX_WAITING) waiting.delete(waiting.keys().next().value!);
      const token = randomBytes(16).toString('base64url');
      waiting.set(token, { file, until: now() + DOWNLOAD_TTL_MS });
      return { outcome: 'download', downloadPath: `.${DOWNLOAD_PATH_PREFIX}${token}` };
    },
    take(token) {
      const kept = waiting.get(token);
      waiting.delete(token);
      return kept && kept.until > now() ? kept.file : null;
    },
  };
}
