import { join } from 'node:path';
import { isRecord } from '../../common/is-record';
import { readFileIfExists, writeFileAtomic } from '../storage/atomic-file';

/**
 * The browser shell's port, chosen once per user-data folder and kept there. A page's
 * IndexedDB belongs to its origin, and the origin includes the port: a shell that listened on
 * a new port at every start would open a till with an empty cache and an empty outbox each
 * time (the queue itself would come back from the main process's copy, docs/offline.md, but
 * the cache would have to fill again and the browser would keep the old origin's data for
 * nobody). So the first start takes a free port and every later one asks for the same;
 * `--port` moves the till to another on purpose, and is kept in its turn.
 */
export const PORT_FILE = 'browser-shell-port.json';

/** The lowest port `--port` takes: below it, ports need privileges or belong to well-known services. */
export const LOWEST_PORT = 1024;

export async function keptPort(userDataDir: string): Promise<number | null> {
  const raw = await readFileIfExists(join(userDataDir, PORT_FILE)).catch(() => null);
  if (!raw) return null;
  try {
    const parsed: unknown = JSON.parse(raw.toString('utf8'));
    return isRecord(parsed) && isPort(parsed.port) ? parsed.port : null;
  } catch {
    return null;
  }
}

export async function keepPort(userDataDir: string, port: number): Promise<void> {
  await writeFileAtomic(join(userDataDir, PORT_FILE), `${JSON.stringify({ port })}\n`);
}

export function isPort(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= LOWEST_PORT && value <= 65535;
}

/** The one line a start whose port is taken prints, naming what to do. */
export function portTakenLine(port: number, userDataDir: string): string {
  return (
    `port ${port}, this till's address for ${userDataDir}, is taken by another program. ` +
    `Close that program and start again, or start with --port <another port from ${LOWEST_PORT} to 65535>` +
    " (the queue comes with it from the till's own copy; the offline cache fills again)."
  );
}
