/**
 * Logging for the main process. Everything the app logs goes through a redacting wrapper,
 * so the API key cannot reach the log file even when it turns up somewhere unexpected
 * (an echoed header in a service's error page, a renderer error message).
 *
 * The production sink on electron-log lives in `electron-log-file.ts`, apart from this
 * module, because electron-log's main entry loads `electron` and this one must stay
 * importable under plain Node.
 */

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

const REDACTED = '[redacted]';

// Any bearer credential, whoever it belongs to: tokens are at least 8 visible characters.
const BEARER = /\bBearer\s+[^\s"',;]{8,}/gi;

/** Removes every given secret (and anything shaped like a bearer token) from a text. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text.replace(BEARER, `Bearer ${REDACTED}`);
  for (const secret of secrets) {
    // Short strings would blank out ordinary words; keys are long.
    if (secret.length >= 4) out = out.split(secret).join(REDACTED);
  }
  return out;
}

/**
 * A logger that redacts the secrets known *at the time of each call* (the key can be
 * changed while the app runs, and the demo generates its own).
 */
export function createRedactingLogger(inner: Logger, currentSecrets: () => readonly string[]): Logger {
  const clean = (message: string) => redact(message, currentSecrets());
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
