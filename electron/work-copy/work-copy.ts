import type { KeptItem, KeptJournalEntry, WorkChange, WorkCopy } from '../../common/contract';
import { isRecord } from '../../common/is-record';
import type { Logger } from '../log/log';
import { openAppendLog, type AppendLogOptions } from './append-log';
import { jsonLines, type LineCodec } from './line-codec';

/**
 * The main process's own copy of the till's outbox and journal (common/work-copy-contract.ts),
 * in an append-only file of the user-data folder: every change the page's database committed
 * is applied here, appended and flushed to disk before `keep` resolves, so the page can tell
 * the cashier "Queued" knowing the promise survives whatever happens to the browser's storage.
 *
 * The file is a header line and then one line a change; it is rewritten from what it holds
 * when it has grown past twice that (an item's many versions, items gone), and at start when
 * its last line was torn by a power cut. A line it cannot read is counted and left out, never
 * the file: the copy is the till's last word on what it owes, and half of it beats none.
 */
export interface WorkCopyStore {
  /** Applies the changes in order and resolves once they are on disk (rejects if they could not be). */
  keep(changes: readonly WorkChange[]): Promise<number>;
  /** The items still in the outbox, and a page of the journal, oldest first. */
  read(page?: { journalFrom?: number; journalLimit?: number }): WorkCopy;
  /** The items still in the outbox, oldest first (for the health check). */
  items(): KeptItem[];
  /** Lines of the file that could not be read when it was opened. */
  unreadable(): number;
  /** Rises with every change kept: what is built from the copy knows when to build again. */
  revision(): number;
  close(): Promise<void>;
}

export interface WorkCopyOptions extends AppendLogOptions {
  file: string;
  log: Logger;
  codec?: LineCodec;
  now?: () => Date;
}

const FORMAT = 1;
/** In the user-data folder. */
export const WORK_COPY_FILE = 'work-copy.jsonl';

interface Header {
  workCopy: number;
  since: string;
}

export async function openWorkCopy(options: WorkCopyOptions): Promise<WorkCopyStore> {
  const { file, log } = options;
  const codec = options.codec ?? jsonLines;
  const now = options.now ?? (() => new Date());
  const appendLog = openAppendLog(file, options);
  const held = new HeldWork();

  const { lines: stored, tornTail } = await appendLog.read();
  const loaded = loadLines(stored, codec, held);
  let since = loaded.since;
  const unreadable = loaded.unreadable;
  let lines = stored.length;
  const headerless = stored.length > 0 && since === null;
  if (tornTail) log.warn(`The work copy ${file} ended in a line a power cut interrupted; it is left out.`);
  if (unreadable > 0)
    log.warn(`The work copy ${file} has ${unreadable} line(s) that could not be read; they are left out.`);

  const header = (): string => codec.encode({ workCopy: FORMAT, since: since ?? now().toISOString() } satisfies Header);
  const rewrite = async (): Promise<void> => {
    const records = held.records().map((change) => codec.encode(change));
    await appendLog.rewrite([header(), ...records]);
    lines = records.length + 1;
  };
  // A torn or unreadable line, no header, or more history than holdings: start from a clean file.
  if (tornTail || unreadable > 0 || headerless || needsRewrite(lines, held.size())) {
    since ??= now().toISOString();
    await rewrite();
  }

  let revision = 0;
  return {
    async keep(changes) {
      const applied = changes.filter((change) => held.apply(change));
      if (applied.length === 0) return changes.length;
      revision += 1;
      const out = applied.map((change) => codec.encode(change));
      if (since === null) {
        since = now().toISOString();
        out.unshift(header());
      }
      await appendLog.append(out);
      lines += out.length;
      if (needsRewrite(lines, held.size())) await rewrite();
      return changes.length;
    },
    read(page = {}) {
      const from = Math.max(0, page.journalFrom ?? 0);
      const journal = held.journal();
      return {
        items: held.items(),
        journal: journal.slice(from, from + (page.journalLimit ?? journal.length)),
        journalTotal: journal.length,
        since,
      };
    },
    items: () => held.items(),
    unreadable: () => unreadable,
    revision: () => revision,
    close: () => appendLog.close(),
  };
}

/**
 * Applies the file's lines to `held`, as written: the header's date, and how many lines could
 * not be read (the till at start, and the health check from another process, read alike).
 */
export function loadLines(
  lines: readonly string[],
  codec: LineCodec,
  held: HeldWork,
): { since: string | null; unreadable: number } {
  let since: string | null = null;
  let unreadable = 0;
  for (const [index, line] of lines.entries()) {
    const record = codec.decode(line);
    if (index === 0 && isHeader(record)) {
      since = record.since;
      continue;
    }
    const change = asChange(record);
    if (change) held.apply(change);
    else unreadable++;
  }
  return { since, unreadable };
}

/** Twice what is held, and a little: an item changed a few times does not rewrite the file. */
function needsRewrite(lines: number, held: number): boolean {
  return lines > 2 * (held + 1) + 64;
}

/** What the copy holds: the items by id, the journal in the order written. */
export class HeldWork {
  private readonly itemsById = new Map<string, KeptItem>();
  private readonly entries = new Map<string, KeptJournalEntry>();
  /** Items that left the outbox this run: a late copy of one (an answer overtaken) does not bring it back. */
  private readonly goneThisRun = new Set<string>();
  /** The items whose entry in the journal says they left. */
  private readonly left = new Set<string>();

  /** Whether the change changed anything (a repeat of what is held does not). */
  apply(change: WorkChange): boolean {
    switch (change.op) {
      case 'item': {
        const { uid } = change.item;
        if (this.goneThisRun.has(uid) || this.left.has(uid)) return false;
        const before = this.itemsById.get(uid);
        if (before && JSON.stringify(before) === JSON.stringify(change.item)) return false;
        this.itemsById.set(uid, change.item);
        return true;
      }
      case 'gone':
        this.goneThisRun.add(change.uid);
        return this.itemsById.delete(change.uid);
      case 'journal': {
        const { entry } = change;
        if (this.entries.has(entry.uid)) return false;
        this.entries.set(entry.uid, entry);
        if (entry.outboxUid) {
          this.left.add(entry.outboxUid);
          this.itemsById.delete(entry.outboxUid);
        }
        return true;
      }
    }
  }

  items(): KeptItem[] {
    return [...this.itemsById.values()].sort((a, b) => a.queuedAt.localeCompare(b.queuedAt));
  }

  journal(): KeptJournalEntry[] {
    return [...this.entries.values()];
  }

  size(): number {
    return this.itemsById.size + this.entries.size;
  }

  /** The changes that rebuild what is held: the journal first (so its items stay gone), then the items. */
  records(): WorkChange[] {
    return [
      ...this.journal().map((entry): WorkChange => ({ op: 'journal', entry })),
      ...this.items().map((item): WorkChange => ({ op: 'item', item })),
    ];
  }
}

function isHeader(record: unknown): record is Header {
  return isRecord(record) && record.workCopy === FORMAT && typeof record.since === 'string';
}

/** A change as the file holds it, checked as much as the copy relies on (the page checked the rest). */
function asChange(record: unknown): WorkChange | null {
  if (!isRecord(record)) return null;
  if (record.op === 'gone' && typeof record.uid === 'string') return { op: 'gone', uid: record.uid };
  if (record.op === 'item' && isRecord(record.item) && typeof record.item.uid === 'string') {
    const { item } = record;
    if (typeof item.queuedAt !== 'string' || typeof item.state !== 'string' || typeof item.kind !== 'string')
      return null;
    return { op: 'item', item: item as KeptItem };
  }
  if (record.op === 'journal' && isRecord(record.entry) && typeof record.entry.uid === 'string') {
    const { entry } = record;
    if (typeof entry.doneAt !== 'string') return null;
    return {
      op: 'journal',
      entry: { ...entry, outboxUid: typeof entry.outboxUid === 'string' ? entry.outboxUid : null } as KeptJournalEntry,
    };
  }
  return null;
}
