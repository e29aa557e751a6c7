import type { KeptItem, KeptJournalEntry } from '../../common/contract';
import { openAppendLog } from './append-log';
import { jsonLines, type LineCodec } from './line-codec';
import { HeldWork, loadLines } from './work-copy';

/**
 * The work copy (work-copy.ts) as another process reads it: the health check, which may run
 * while the till appends to the file. It reads the lines with the same codec and applies them
 * as the till does, and writes nothing, ever: a torn last line (an append under way) is left
 * out, as an unreadable one is counted, and the file is the till's to mend.
 */
export interface WorkCopyReading {
  /** Whether the file is there at all (a till that never queued anything has none). */
  exists: boolean;
  items: KeptItem[];
  journal: KeptJournalEntry[];
  /** When the copy was first written (ISO), from its header. */
  since: string | null;
  /** Lines that could not be read. */
  unreadable: number;
}

/** Reads the copy; rejects when the file is there but cannot be read (its permissions, a folder in its place). */
export async function readWorkCopyFile(options: { file: string; codec?: LineCodec }): Promise<WorkCopyReading> {
  const codec = options.codec ?? jsonLines;
  const { lines } = await openAppendLog(options.file).read();
  const held = new HeldWork();
  const { since, unreadable } = loadLines(lines, codec, held);
  return { exists: lines.length > 0, items: held.items(), journal: held.journal(), since, unreadable };
}
