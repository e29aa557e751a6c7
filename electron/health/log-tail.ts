import { basename } from 'node:path';
import { readFileIfExists } from '../storage/atomic-file';

/**
 * The last days of the till's log files, for the support file: each file's entries written
 * since `since`, oldest first, each with the lines that follow it (a stack). Kept file by file,
 * as the support file's archive holds them (`logs/main.old.log`, `logs/main.log`). Both sinks' lines are
 * read: electron-log's `[2024-05-14 10:00:00.123] [info] …` (local time) and the browser
 * shell's `[2024-05-14T10:00:00.123Z] [info] …`. Lines are returned as written: the support
 * file redacts them, as the log did when it wrote them (lines of an earlier version too).
 */
const ENTRY = /^\[(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?)(Z|[+-]\d{2}:?\d{2})?\]/;
/** Far above a week of a till's log (two files of 2 MiB): what is read of each file at most. */
const MAX_FILE_BYTES = 8 * 1024 * 1024;

function timeOf(line: string): number | null {
  const match = ENTRY.exec(line);
  if (!match) return null;
  const [, day, time, zone] = match;
  // Without a zone, electron-log's local time: Date reads `YYYY-MM-DDTHH:MM:SS` as local.
  const at = Date.parse(`${day}T${time}${zone ?? ''}`);
  return Number.isNaN(at) ? null : at;
}

/** A log file's name and its lines since a time. */
export interface LogTail {
  name: string;
  lines: string[];
}

/** `files` oldest first (`main.old.log`, then `main.log`); those missing, or with nothing since, are left out. */
export async function logTailsSince(files: readonly string[], since: Date): Promise<LogTail[]> {
  const tails: LogTail[] = [];
  for (const file of files) {
    const raw = await readFileIfExists(file).catch(() => null);
    if (!raw) continue;
    const text = raw.subarray(Math.max(0, raw.length - MAX_FILE_BYTES)).toString('utf8');
    const lines: string[] = [];
    let keeping = false;
    for (const line of text.split(/\r?\n/)) {
      const at = timeOf(line);
      if (at !== null) keeping = at >= since.getTime();
      if (keeping && line !== '') lines.push(line);
    }
    if (lines.length > 0) tails.push({ name: basename(file), lines });
  }
  return tails;
}
