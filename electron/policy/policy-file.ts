import { open } from 'node:fs/promises';
import { MAX_POLICY_BYTES } from './policy-schema';
import { NO_POLICY, checkPolicyText, refused, type PolicyReading } from './policy-reading';

/**
 * The policy file: absent is no policy; anything else that cannot be read whole (a folder in
 * its place, no permission, larger than the limit) is refused with the reason. The size is
 * taken from the open file, and no more than the limit plus one byte is ever read, so a
 * huge or growing file costs nothing.
 */
export async function readPolicyFile(path: string): Promise<PolicyReading> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return NO_POLICY;
    return refused({ kind: 'unreadable', origin: path, code: code ?? 'unknown' });
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return refused({ kind: 'unreadable', origin: path, code: 'EISDIR' });
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
