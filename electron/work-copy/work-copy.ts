import { readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { KeptItem, KeptJournalEntry, WorkChange, WorkCopy } from '../../common/contract';
import { isRecord } from '../../common/is-record';
import { detailsDue, detailsWereRemoved, withoutDetails, type DetailsRemoved } from '../../common/journal-retention';
import type { Logger } from '../log/log';
import { syncFolder } from '../storage/atomic-file';
import { openAppendLog, type AppendLogOptions } from './append-log';
import { jsonLines, NOT_OPENED, type LineCodec } from './line-codec';

/**
 * The main process's own copy of the till's outbox and journal (common/work-copy-contract.ts),
 * in an append-only file of the user-data folder: every change the page's database committed
 * is applied here, appended and flushed to disk before `keep` resolves, so the page can tell
 * the cashier "Queued" knowing the promise survives whatever happens to the browser's storage.
 *
 * The file is a header line and then one line a change; it is rewritten from what it holds
 * when it has grown past twice that (an item's many versions, items gone), and at start when
 * its last line was torn by a power cut. A line it cannot read is counted and left out, never
 * the file: the copy is the till's last word on what it owes, and half of it beats none. But a
 * file none of whose sealed lines opens (the data key was lost) is renamed aside, untouched, and
 * a new copy started: it opens again should the old key come back (docs/privacy.md).
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
  /**
   * Removes the personal details of the journal's entries done before `cutoff` (ISO), by the
   * rule of common/journal-retention.ts, and rewrites the file so no earlier version stays on
   * disk; how many entries it stripped.
   */
  removeDetails(cutoff: string, removed: DetailsRemoved): Promise<number>;
  /**
   * Deletes the file and every copy kept aside, then runs `then` (the data key destroyed) before
   * anything else is kept; the copy goes on empty.
   */
  forget(then?: () => Promise<void>): Promise<void>;
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
/** A copy that would not open is renamed `work-copy.jsonl.unreadable-<ms>`. */
export const SET_ASIDE_MARK = '.unreadable-';

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

  let { lines: stored, tornTail } = await appendLog.read();
  let loaded = loadLines(stored, codec, held);
  let setAside: WorkCopy['setAside'];
  // Sealed lines and not one that opened: the key is not this copy's. Kept aside, whole.
  if (loaded.notOpened > 0 && loaded.opened === 0) {
    const at = now();
    const aside = `${file}${SET_ASIDE_MARK}${at.getTime()}`;
    await rename(file, aside);
    await syncFolder(dirname(file));
    log.warn(
      `The work copy could not be opened with this till's data key (${stored.length} line(s)); it is kept as ` +
        `${basename(aside)}, and a new copy is started. It opens again should the old data key come back.`,
    );
    setAside = { at: at.toISOString(), lines: stored.length };
    stored = [];
    tornTail = false;
    loaded = { since: null, unreadable: 0, notOpened: 0, opened: 0, outdated: 0 };
  }
  let since = loaded.since;
  const unreadable = loaded.unreadable + loaded.notOpened;
  let lines = stored.length;
  const headerless = stored.length > 0 && since === null;
  if (tornTail) log.warn(`The work copy ${file} ended in a line a power cut interrupted; it is left out.`);
  if (unreadable > 0)
    log.warn(`The work copy ${file} has ${unreadable} line(s) that could not be read; they are left out.`);
  if (loaded.outdated > 0)
    log.info(
      `The work copy ${file} holds ${loaded.outdated} line(s) of an earlier, plain format: it is rewritten sealed.`,
    );

  const header = (): string => codec.encode({ workCopy: FORMAT, since: since ?? now().toISOString() } satisfies Header);
  const rewrite = async (): Promise<void> => {
    const records = held.records().map((change) => codec.encode(change));
    await appendLog.rewrite([header(), ...records]);
    lines = records.length + 1;
  };
  // A torn or unreadable line, no header, a line of an earlier format, or more history than
  // holdings: start from a clean file.
  if (tornTail || unreadable > 0 || headerless || loaded.outdated > 0 || needsRewrite(lines, held.size())) {
    since ??= now().toISOString();
    await rewrite();
  }

  let revision = 0;
  return {
    async keep(changes) {
      const applied = changes.filter((change) => held.apply(change));
      if (applied.length === 0) return changes.length;
      revision += 1;
      // An entry's details removed: no version with them may stay in the file.
      if (applied.some((change) => change.op === 'journal' && held.replaced(change.entry.uid))) {
        held.settleReplaced();
        since ??= now().toISOString();
        await rewrite();
        return changes.length;
      }
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
        ...(setAside ? { setAside } : {}),
      };
    },
    items: () => held.items(),
    unreadable: () => unreadable,
    revision: () => revision,
    async removeDetails(cutoff, removed) {
      const count = held.removeDetails(cutoff, removed);
      if (count > 0) {
        revision += 1;
        await rewrite();
        log.info(
          `The personal details of ${count} journal ${count === 1 ? 'entry were' : 'entries were'} removed from the work copy ` +
            `(done more than ${removed.afterDays} days ago).`,
        );
      }
      return count;
    },
    async forget(then) {
      await appendLog.close();
      const folder = dirname(file);
      const own = basename(file);
      const names = await readdir(folder).catch(() => [] as string[]);
      for (const name of names) {
        if (name === own || name.startsWith(`${own}${SET_ASIDE_MARK}`)) await rm(join(folder, name), { force: true });
      }
      await syncFolder(folder);
      held.clear();
      revision += 1;
      since = null;
      lines = 0;
      setAside = undefined;
      await then?.();
    },
    close: () => appendLog.close(),
  };
}

/** What reading the file's lines came to (the till at start, the health check from another process). */
export interface LoadedLines {
  /** When the copy was first written (ISO), from its header. */
  since: string | null;
  /** Lines that could not be read at all (garbled). */
  unreadable: number;
  /** Lines of the codec's own that would not open (another key, or changed). */
  notOpened: number;
  /** Lines that opened. */
  opened: number;
  /** Lines read that the codec does not write (plain JSON from before the seal). */
  outdated: number;
}

/** Applies the file's lines to `held`, as written. */
export function loadLines(lines: readonly string[], codec: LineCodec, held: HeldWork): LoadedLines {
  const loaded: LoadedLines = { since: null, unreadable: 0, notOpened: 0, opened: 0, outdated: 0 };
  for (const [index, line] of lines.entries()) {
    const record = codec.decode(line);
    if (record === NOT_OPENED) {
      loaded.notOpened++;
      continue;
    }
    if (record !== undefined) loaded.opened++;
    if (record !== undefined && codec.writes && !codec.writes(line)) loaded.outdated++;
    if (index === 0 && isHeader(record)) {
      loaded.since = record.since;
      continue;
    }
    const change = asChange(record);
    if (change) held.apply(change);
    else loaded.unreadable++;
  }
  return loaded;
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
  /** Entries whose version with details was replaced by one without, since the file was last rewritten. */
  private readonly strippedSince = new Set<string>();

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
        const before = this.entries.get(entry.uid);
        if (before) {
          // Only a version without details replaces one with them: details once removed never come back.
          if (detailsWereRemoved(before) || !detailsWereRemoved(entry)) return false;
          this.entries.set(entry.uid, entry);
          this.strippedSince.add(entry.uid);
          return true;
        }
        this.entries.set(entry.uid, entry);
        if (entry.outboxUid) {
          this.left.add(entry.outboxUid);
          this.itemsById.delete(entry.outboxUid);
        }
        return true;
      }
    }
  }

  /** Whether the entry's earlier version, with details, is still in the file. */
  replaced(uid: string): boolean {
    return this.strippedSince.has(uid);
  }

  settleReplaced(): void {
    this.strippedSince.clear();
  }

  /** Strips the entries done before `cutoff` in place (their order kept); how many. */
  removeDetails(cutoff: string, removed: DetailsRemoved): number {
    let count = 0;
    for (const [uid, entry] of this.entries) {
      if (!detailsDue(entry, cutoff)) continue;
      this.entries.set(uid, withoutDetails(entry, removed));
      count++;
    }
    return count;
  }

  clear(): void {
    this.itemsById.clear();
    this.entries.clear();
    this.goneThisRun.clear();
    this.left.clear();
    this.strippedSince.clear();
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
