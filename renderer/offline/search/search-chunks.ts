/**
 * The search fields of every customer, packed for a fast start: one line per customer
 * (`<pk> <phone digits> <folded name words...>`), 1,024 customers to a record, keyed by
 * `pk >> 10`. Loading the in-memory index reads about a thousand records at 1,000,000
 * customers instead of a million: in Chromium, reading one IndexedDB record costs about as
 * much as indexing it, so per-customer records made the load several times slower.
 *
 * Every customer write updates its chunk in the same transaction (customer-blocks.ts); a fill's
 * new customers (ever higher pks) are appended to it without re-sorting what is there.
 */
import type { EntityTable } from 'dexie';
import { digitsOf } from '../../../common/phone';
import { ChangesByChunk, type ChunkWrites } from './chunk-changes';
import type { SearchChunk } from '../db/schema';

const CHUNK_BITS = 10;

export interface SearchFields {
  pk: number;
  phoneE164: string;
  nameWords: string[];
}

export function chunkOf(pk: number): number {
  return pk >> CHUNK_BITS;
}

/** Folded words hold no spaces (fold.ts splits on them), so a space separates fields safely. */
export function searchLineOf(fields: SearchFields): string {
  return [String(fields.pk), digitsOf(fields.phoneE164), ...fields.nameWords].join(' ');
}

/** A line's phone digits ('' for none), without splitting its name words. */
export function phoneDigitsOfLine(line: string): string {
  const first = line.indexOf(' ');
  const second = line.indexOf(' ', first + 1);
  return line.slice(first + 1, second < 0 ? line.length : second);
}

export function parseSearchLine(line: string): SearchFields {
  const parts = line.split(' ');
  return { pk: Number(parts[0]), phoneE164: `+${parts[1] ?? ''}`, nameWords: parts.slice(2) };
}

export function linesOf(chunk: SearchChunk): string[] {
  return chunk.lines === '' ? [] : chunk.lines.split('\n');
}

/** Changes to customers' lines, by chunk: what to read first, then what to write. */
export class SearchLineChanges extends ChangesByChunk<string> {
  constructor(puts: readonly SearchFields[], deletes: readonly number[] = []) {
    super(chunkOf);
    for (const fields of puts) this.change(fields.pk, searchLineOf(fields));
    for (const pk of deletes) this.change(pk, null);
  }

  /** The chunks as they must be stored, given those read (in `chunkIds` order). */
  apply(stored: readonly (SearchChunk | undefined)[]): ChunkWrites<SearchChunk> {
    const toPut: SearchChunk[] = [];
    const toDelete: number[] = [];
    this.chunkIds.forEach((id, i) => {
      const existing = stored[i];
      const byPk = this.byChunk.get(id)!;
      // New customers get ever higher pks: their lines go after the stored ones, as they are.
      const appended = appendOnly(existing, byPk);
      if (appended !== null) {
        toPut.push({ chunk: id, lines: appended });
        return;
      }
      const lines = new Map<number, string>();
      if (existing) for (const line of linesOf(existing)) lines.set(Number(line.slice(0, line.indexOf(' '))), line);
      for (const [pk, line] of byPk) {
        if (line === null) lines.delete(pk);
        else lines.set(pk, line);
      }
      if (lines.size === 0) toDelete.push(id);
      else
        toPut.push({
          chunk: id,
          lines: [...lines.entries()]
            .sort((a, b) => a[0] - b[0])
            .map(([, line]) => line)
            .join('\n'),
        });
    });
    return { toPut, toDelete };
  }
}

/**
 * Puts and removes customers' lines. Call inside the transaction that writes the
 * customers themselves, so the two never disagree.
 */
export async function writeSearchLines(
  table: EntityTable<SearchChunk, 'chunk'>,
  puts: readonly SearchFields[],
  deletes: readonly number[] = [],
): Promise<void> {
  const changes = new SearchLineChanges(puts, deletes);
  const { toPut, toDelete } = changes.apply(await table.bulkGet(changes.chunkIds));
  await Promise.all([
    toPut.length > 0 ? table.bulkPut(toPut) : undefined,
    toDelete.length > 0 ? table.bulkDelete(toDelete) : undefined,
  ]);
}

/** The chunk's lines with `changes` added at the end, or null when they are not all new and higher. */
function appendOnly(stored: SearchChunk | undefined, changes: Map<number, string | null>): string | null {
  let highest = -1;
  if (stored && stored.lines !== '') {
    const last = stored.lines.slice(stored.lines.lastIndexOf('\n') + 1);
    highest = Number(last.slice(0, last.indexOf(' ')));
  }
  const added: [number, string][] = [];
  for (const [pk, line] of changes) {
    if (line === null || pk <= highest) return null;
    added.push([pk, line]);
  }
  added.sort((a, b) => a[0] - b[0]);
  const tail = added.map(([, line]) => line).join('\n');
  return stored && stored.lines !== '' ? `${stored.lines}\n${tail}` : tail;
}
