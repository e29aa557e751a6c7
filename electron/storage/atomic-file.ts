import { mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, basename } from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * Writes a file so that a crash or power cut leaves either the old contents or the new,
 * never a torn mix: write a temp file beside it, flush it to disk, rename over, then flush the
 * folder so that the rename itself is on disk. Private to the till's account: the file 0600,
 * a folder it has to make 0700 (docs/security.md).
 */
export async function writeFileAtomic(path: string, data: string | Buffer, mode = 0o600): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temp, 'w', mode);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  await syncFolder(dirname(path));
}

/**
 * Flushes a folder's entries (a file created, renamed or removed in it) to disk: without it a
 * power cut can bring back the folder as it was, the new file missing although its bytes were
 * flushed, or a removed file (a destroyed key) back. Windows cannot open a folder for this,
 * and NTFS journals its entries itself, so there (and on any system that refuses it likewise)
 * it is left to the file system.
 */
export async function syncFolder(folder: string): Promise<void> {
  if (process.platform === 'win32') return;
  let handle;
  try {
    handle = await open(folder, 'r');
  } catch (error) {
    if (isRefusedForFolders(error)) return;
    throw error;
  }
  try {
    await handle.sync();
  } catch (error) {
    if (!isRefusedForFolders(error)) throw error;
  } finally {
    await handle.close();
  }
}

function isRefusedForFolders(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'EISDIR' || code === 'EPERM' || code === 'EACCES' || code === 'EINVAL';
}

/** The file's contents, or null when it does not exist. */
export async function readFileIfExists(path: string): Promise<Buffer | null> {
  try {
    return await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Whether a folder is there: a folder removed under the till, or a path that is a file, is not. */
export function isFolder(path: string): Promise<boolean> {
  return stat(path).then(
    (found) => found.isDirectory(),
    () => false,
  );
}
