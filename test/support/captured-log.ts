import type { Logger } from '../../electron/log/log';

export interface CapturedLog extends Logger {
  readonly lines: string[];
  text(): string;
}

/** A log sink that keeps every line, so tests can read what would reach the log file. */
export function createCapturedLog(): CapturedLog {
  const lines: string[] = [];
  return {
    lines,
    info: (message) => void lines.push(`info ${message}`),
    warn: (message) => void lines.push(`warn ${message}`),
    error: (message) => void lines.push(`error ${message}`),
    text: () => lines.join('\n'),
  };
}
