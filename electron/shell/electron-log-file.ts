import log from 'electron-log/main';
import { app } from 'electron';
import { join } from 'node:path';
import type { Logger } from '../log/log';

// Big enough for days of till use, small enough to attach to a support email.
const MAX_LOG_BYTES = 2 * 1024 * 1024;

/**
 * The production log sink: `main.log` in the OS logs folder (the one "Open Logs Folder"
 * opens). When it reaches the size limit electron-log moves it to `main.old.log`,
 * replacing the previous archive, so at most one archive is kept.
 */
export function createFileLogger(): Logger {
  log.transports.file.resolvePathFn = () => join(app.getPath('logs'), 'main.log');
  log.transports.file.maxSize = MAX_LOG_BYTES;
  // Private to the till's account, like every file the app writes in its folder.
  log.transports.file.writeOptions = { flag: 'a', mode: 0o600, encoding: 'utf8' };
  // Messages are redacted before they reach this sink; the console copy is for development.
  log.transports.console.level = app.isPackaged ? false : 'info';
  return {
    info: (message) => log.info(message),
    warn: (message) => log.warn(message),
    error: (message) => log.error(message),
  };
}
