/**
 * Logging for the main process. Everything the app logs goes through a redacting wrapper,
 * so the API key, and any personal value, cannot reach the log file even when it turns up
 * somewhere unexpected (an echoed header in a service's error page, a renderer error message).
 *
 * The production sink on electron-log lives in `electron-log-file.ts`, apart from this
 * module, because electron-log's main entry loads `electron` and this one must stay
 * importable under plain Node.
 */

import { redact, type PersonalValues } from './redaction';

export { redact } from './redaction';

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/**
 * A logger that redacts (redaction.ts) the secrets and personal values known *at the time of
 * each call* (the key can be changed while the app runs, the demo generates its own, and the
 * outbox and the journal grow): a phone, a name, an order reference or a key never reaches a
 * log line, whoever wrote it (a service's error page, a renderer error message).
 */
export function createRedactingLogger(
  inner: Logger,
  currentSecrets: () => readonly string[],
  currentPersonal: () => PersonalValues | null = () => null,
): Logger {
  const clean = (message: string) => redact(message, currentSecrets(), currentPersonal());
  return {
    info: (message) => inner.info(clean(message)),
    warn: (message) => inner.warn(clean(message)),
    error: (message) => inner.error(clean(message)),
  };
}

/** A short, single-line description of an unknown thrown value, without stack or config. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

/** The console, quieted to warnings and errors: the core's log where its shell gives none. */
export function quietConsoleLogger(): Logger {
  return { info: () => undefined, warn: (m) => console.warn(m), error: (m) => console.error(m) };
}
