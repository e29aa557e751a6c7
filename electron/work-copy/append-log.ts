import { mkdir, open, stat, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { readFileIfExists, syncFolder, writeFileAtomic } from '../storage/atomic-file';

/**
 * A file of lines that only grows, each append flushed to disk (`fsync`) before it is
 * acknowledged, and rewritten whole (atomically) when it has grown past what it holds.
 *
 * - Appends that arrive while one is being flushed go together in the next write: one flush
 *   for many callers (a group commit), so a burst of changes costs one or two flushes.
 * - A power cut during an append can leave its last line torn; `read` drops a last line that
 *   does not end with a newline, and the caller decides what to do with lines it cannot read.
 * - Creating the file, and every rewrite (a rename), flushes the folder too, or the file could
 *   be missing after a power cut although its bytes were on disk.
 *
 * Private to the till's account: 0600, in a folder made 0700.
 */
export interface AppendLog {
  /**
   * Every whole line in the file, oldest first (none when it does not exist), and whether it
   * ends in a torn line (a write a power cut interrupted): the file must then be rewritten
   * before anything is appended, or the next line would be glued to the torn one.
   */
  read(): Promise<{ lines: string[]; tornTail: boolean }>;
  /** Appends the lines and resolves once they are on disk. */
  append(lines: readonly string[]): Promise<void>;
  /** Replaces the whole file with these lines, atomically; appends wait for it. */
  rewrite(lines: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

export interface AppendLogOptions {
  /** Called once a handle's flush is done (tests spy on the order of flush and answer). */
  flushed?: () => void;
}

export function openAppendLog(file: string, options: AppendLogOptions = {}): AppendLog {
  let handle: FileHandle | null = null;
  /** The one chain every write joins: appends and rewrites never overlap. */
  let chain: Promise<void> = Promise.resolve();
  /** Lines waiting for the next write, with the callers waiting on them. */
  let waiting: { lines: string[]; done: Array<{ resolve: () => void; reject: (error: unknown) => void }> } | null =
    null;

  const handleFor = async (): Promise<FileHandle> => {
    if (handle) return handle;
    await mkdir(dirname(file), { recursive: true, mode: 0o700 });
    const existed = await stat(file).then(
      () => true,
      () => false,
    );
    handle = await open(file, 'a', 0o600);
    if (!existed) await syncFolder(dirname(file));
    return handle;
  };

  const writeWaiting = async (): Promise<void> => {
    const batch = waiting;
    waiting = null;
    if (!batch) return;
    try {
      const target = await handleFor();
      await target.appendFile(batch.lines.map((line) => `${line}\n`).join(''));
      await target.sync();
      options.flushed?.();
      for (const caller of batch.done) caller.resolve();
    } catch (error) {
      for (const caller of batch.done) caller.reject(error);
    }
  };

  return {
    async read() {
      const raw = await readFileIfExists(file);
      if (!raw) return { lines: [], tornTail: false };
      const lines = raw.toString('utf8').split('\n');
      // The part after the last newline is a line whose write never finished.
      const tornTail = lines.pop() !== '';
      return { lines: lines.filter((line) => line.length > 0), tornTail };
    },
    append(lines) {
      if (lines.length === 0) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        if (waiting) {
          waiting.lines.push(...lines);
          waiting.done.push({ resolve, reject });
          return;
        }
        waiting = { lines: [...lines], done: [{ resolve, reject }] };
        chain = chain.then(writeWaiting);
      });
    },
    rewrite(lines) {
      const run = async () => {
        await handle?.close();
        handle = null;
        await writeFileAtomic(file, lines.map((line) => `${line}\n`).join(''));
        options.flushed?.();
      };
      const done = chain.then(run);
      chain = done.catch(() => undefined);
      return done;
    },
    async close() {
      await chain;
      await handle?.close();
      handle = null;
    },
  };
}
