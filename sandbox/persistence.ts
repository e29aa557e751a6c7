import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { SandboxData } from './model';

/**
 * Reads the data file. A missing file is "no data yet"; a file that exists but cannot be
 * read as sandbox data is an error, so that a damaged file is never silently replaced.
 */
export async function loadData(file: string): Promise<SandboxData | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const data = JSON.parse(text) as SandboxData;
  const lists = [data.programs, data.customers, data.cards, data.rewards];
  if (data.version !== 1 || !lists.every(Array.isArray)) {
    throw new Error(`${file} is not a sandbox data file (version 1)`);
  }
  return data;
}

/**
 * Writes the data file atomically: the whole state goes to a temporary file, is flushed to
 * disk, and is renamed over the old file, so a crash mid-write leaves the old file whole.
 *
 * Saves are coalesced: while one write runs, every further request shares the next write,
 * which snapshots the state as it is when it starts. A caller that awaits `save()` therefore
 * knows its change is on disk.
 */
export class AtomicJsonWriter {
  private inFlight: Promise<void> | null = null;
  private next: Promise<void> | null = null;
  private counter = 0;

  constructor(
    private readonly file: string,
    private readonly snapshot: () => unknown,
  ) {}

  save(): Promise<void> {
    if (this.next) return this.next;
    if (!this.inFlight) return this.start();
    this.next = this.inFlight
      .catch(() => undefined)
      .then(() => {
        this.next = null;
        return this.start();
      });
    return this.next;
  }

  private start(): Promise<void> {
    const write = this.write().finally(() => {
      if (this.inFlight === write) this.inFlight = null;
    });
    this.inFlight = write;
    return write;
  }

  private async write(): Promise<void> {
    const text = JSON.stringify(this.snapshot());
    const temp = `${this.file}.${process.pid}.${++this.counter}.tmp`;
    // Customers' names and phones: private to the account that runs it (the till's, in demo mode).
    await mkdir(dirname(this.file), { recursive: true, mode: 0o700 });
    const handle = await open(temp, 'w', 0o600);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await rename(temp, this.file);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }
}
