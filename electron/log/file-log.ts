import { appendFileSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Logger } from './log';

/**
 * A log file for plain Node, where electron-log's file cannot be had: one timestamped line per
 * message, appended at once (a command that exits right after still leaves its lines), the
 * file 0600 and its folder 0700, like every file of the app. Wrap it in the redacting logger.
 * With `maxBytes`, the file is moved to `main.old.log` beside it when it reaches that size,
 * replacing the one before, as electron-log does for the Electron app.
 */
export function createAppendLogger(file: string, options: { maxBytes?: number } = {}): Logger {
  const write = (level: string, message: string) => {
    try {
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
      if (options.maxBytes !== undefined && (statSync(file, { throwIfNoEntry: false })?.size ?? 0) >= options.maxBytes)
        renameSync(file, join(dirname(file), 'main.old.log'));
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

/** Every line to each of the loggers: the browser shell's terminal and its log file. */
export function teeLogger(...loggers: Logger[]): Logger {
  return {
    info: (message) => loggers.forEach((logger) => logger.info(message)),
    warn: (message) => loggers.forEach((logger) => logger.warn(message)),
    error: (message) => loggers.forEach((logger) => logger.error(message)),
  };
}
