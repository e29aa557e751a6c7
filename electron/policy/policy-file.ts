import { constants } from 'node:fs';
import { lstat, open } from 'node:fs/promises';
import { MAX_POLICY_BYTES } from './policy-schema';
import { NO_POLICY, checkPolicyText, refused, type PolicyReading } from './policy-reading';

/**
 * Opened without waiting and without following a link: a pipe (FIFO) put in the policy's
 * place opens at once instead of blocking a thread until something writes to it, and is then
 * refused. Windows has neither flag, nor pipes in its folders.
 */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

/**
 * The policy file: absent is no policy; anything else that cannot be read whole is refused
 * with the reason. Only a regular file is read: the entry is looked at (`lstat`) before it is
 * opened, and the open file again (`fstat`, the same file), so a pipe, a device such as
 * /dev/zero, a socket or a link is refused before a byte is read. The size is taken from the
 * open file, and no more than the limit plus one byte is ever read, so a huge or growing file
 * costs nothing. The watcher (policy-watch.ts) puts a deadline on the whole read.
 */
export async function readPolicyFile(path: string): Promise<PolicyReading> {
  let entry;
  try {
    entry = await lstat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return NO_POLICY;
    return refused({ kind: 'unreadable', origin: path, code: code ?? 'unknown' });
  }
  if (entry.isDirectory()) return refused({ kind: 'unreadable', origin: path, code: 'EISDIR' });
  if (!entry.isFile()) return refused({ kind: 'not_regular', origin: path });
  let handle;
  try {
    handle = await open(path, OPEN_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return NO_POLICY;
    // ELOOP: a link put in its place since the look.
    if (code === 'ELOOP') return refused({ kind: 'not_regular', origin: path });
    return refused({ kind: 'unreadable', origin: path, code: code ?? 'unknown' });
  }
  try {
    const stats = await handle.stat();
    // Swapped between the look and the open: not the file that was looked at.
    if (!stats.isFile() || stats.ino !== entry.ino || stats.dev !== entry.dev)
      return refused({ kind: 'not_regular', origin: path });
    if (stats.size > MAX_POLICY_BYTES) return refused({ kind: 'too_large', origin: path });
    const buffer = Buffer.alloc(MAX_POLICY_BYTES + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return checkPolicyText(buffer.subarray(0, bytesRead), path);
  } catch (error) {
    return refused({ kind: 'unreadable', origin: path, code: (error as NodeJS.ErrnoException).code ?? 'unknown' });
  } finally {
    await handle.close();
  }
}
