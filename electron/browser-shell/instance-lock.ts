import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { isRecord } from '../../common/is-record';

/** What the lock file says of the shell that holds it. */
export interface LockHolder {
  pid: number;
  /** The address it serves, with its secret; null while it is still starting. */
  address: string | null;
}

export type LockOutcome = { held: true; lock: InstanceLock } | { held: false; holder: LockHolder };

export interface InstanceLock {
  /** Records the address once the server listens, for a second start to print. */
  publish(address: string): void;
  /** Gives the folder up (on a clean stop). */
  release(): void;
}

/**
 * One browser shell per user-data folder, as Electron's single-instance lock is for the app:
 * two would fight over the settings, the key and the demo's data. The lock is a file created
 * exclusively (`wx`) with the holder's pid, and later its address; a second start reads it and
 * says where the first one is. A file left by a process that no longer exists (a crash, a
 * kill -9) is taken over. The address carries the secret, so the file is readable by this
 * user only, as notebook servers keep theirs.
 */
export function takeInstanceLock(file: string, pid = process.pid): LockOutcome {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, describe({ pid, address: null }), { flag: 'wx', mode: 0o600 });
      return { held: true, lock: heldLock(file, pid) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = readHolder(file);
    // Our own pid in it can only be an earlier process's, its number since reused.
    if (holder && holder.pid !== pid && isAlive(holder.pid)) return { held: false, holder };
    // An unreadable file just made is another start between creating and writing it.
    if (!holder && isRecent(file)) return { held: false, holder: { pid: 0, address: null } };
    // Stale: removed, then created exclusively again, so of two starts taking over at once
    // only one succeeds.
    rmSync(file, { force: true });
  }
  const holder = readHolder(file);
  return { held: false, holder: holder ?? { pid: 0, address: null } };
}

function heldLock(file: string, pid: number): InstanceLock {
  let released = false;
  return {
    publish(address) {
      if (released) return;
      // Through a rename, so a second start never reads half a file and takes it for stale.
      const temporary = `${file}.${pid}.tmp`;
      writeFileSync(temporary, describe({ pid, address }), { mode: 0o600 });
      renameSync(temporary, file);
    },
    release() {
      if (released) return;
      released = true;
      // Only our own: a lock another start has since taken over stays.
      if (readHolder(file)?.pid === pid) rmSync(file, { force: true });
    },
  };
}

function describe(holder: LockHolder): string {
  return `${JSON.stringify({ ...holder, startedAt: new Date().toISOString() })}\n`;
}

function readHolder(file: string): LockHolder | null {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (!isRecord(parsed) || typeof parsed.pid !== 'number' || !Number.isSafeInteger(parsed.pid)) return null;
    return { pid: parsed.pid, address: typeof parsed.address === 'string' ? parsed.address : null };
  } catch {
    return null;
  }
}

function isRecent(file: string): boolean {
  try {
    return Date.now() - statSync(file).mtimeMs < 5000;
  } catch {
    return false;
  }
}

/** Signal 0 tests for existence without sending anything; EPERM means it exists under another user. */
function isAlive(pid: number): boolean {
  if (pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
