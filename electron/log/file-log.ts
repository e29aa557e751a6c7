import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Logger } from './log';

/**
 * A log file for plain Node, where electron-log's file cannot be had: one timestamped line per
 * message, appended at once (a command that exits right after still leaves its lines), the
 * file 0600 and its folder 0700, like every file of the app. Wrap it in the redacting logger.
 */
export function createAppendLogger(file: string): Logger {
  const write = (level: string, message: string) => {
    try {
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
      appendFileSync(file, `[${new Date().toISOString()}] [${level}] ${message}\n`, { mode: 0o600 });
    } catch {
      // A log that cannot be written must not stop what it was logging.
    }
  };
  return {
    info: (message) => write('info', message),
    warn: (message) => write('warn', message),
    error: (message) => write('error', message),
  };
}
