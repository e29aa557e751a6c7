/**
 * The search fields of every customer, packed for a fast start: one line per customer
 * (`<pk> <phone digits> <folded name words...>`), 256 customers to a record, keyed by
 * `pk >> 8`. Loading the in-memory index reads about 4,000 records at 1,000,000 customers
 * instead of a million: in Chromium, reading one IndexedDB record costs about as much as
 * indexing it, so per-customer records made the load several times slower.
 *
 * Why not larger: Chromium stores a value whose serialised form passes 64 KB as a blob, a
 * file of its own beside the database (`IDBValueWrapper::kWrapThreshold`), and a name in
 * Arabic makes a string two bytes a character. Chunks of 1,024 crossed it once about half
 * full, so most of a fill's transactions wrote a file for the chunk they grew and read it
 * back to confirm it; a fill spent twice the processor a customer, more on a machine where
 * files and processes cost more (docs/benchmark.md). 256 lines of even long names (70
 * characters) stay near 36 KB.
 *
 * Every customer write updates its chunk in the same transaction (db.ts helpers); a fill's
 * new customers (ever higher pks) are appended to it without re-sorting what is there.
 */
import type { EntityTable } from 'dexie';
import { digitsOf } from '../lib/phone';

const CHUNK_BITS = 8;
/** Customers to a chunk. */
export const CHUNK_SIZE = 1 << CHUNK_BITS;
/** The chunks' width before schema version 9, for the upgrades that ran before it. */
export const CHUNK_BITS_BEFORE_V9 = 10;

export interface SearchChunk {
  chunk: number;
  /** Lines sorted by pk, separated by `\n`. */
  lines: string;
}

export interface SearchFields {
  pk: number;
  phoneE164: string;
  nameWords: string[];
}

export function chunkOf(pk: number, bits = CHUNK_BITS): number {
  return pk >> bits;
}

/** Folded words hold no spaces (fold.ts splits on them), so a space separates fields safely. */
export function searchLineOf(fields: SearchFields): string {
  return [String(fields.pk), digitsOf(fields.phoneE164), ...fields.nameWords].join(' ');
}

export function parseSearchLine(line: string): SearchFields {
  const parts = line.split(' ');
  return { pk: Number(parts[0]), phoneE164: `+${parts[1] ?? ''}`, nameWords: parts.slice(2) };
}

export function linesOf(chunk: SearchChunk): string[] {
  return chunk.lines === '' ? [] : chunk.lines.split('\n');
}

/** Changes to customers' lines, by chunk: what to read first, then what to write. */
export class SearchLineChanges {
  private readonly byChunk = new Map<number, Map<number, string | null>>();

  constructor(
    puts: readonly SearchFields[],
    deletes: readonly number[] = [],
    private readonly chunkBits = CHUNK_BITS,
  ) {
    for (const fields of puts) this.change(fields.pk, searchLineOf(fields));
    for (const pk of deletes) this.change(pk, null);
  }

  private change(pk: number, line: string | null): void {
    const id = chunkOf(pk, this.chunkBits);
    let byPk = this.byChunk.get(id);
    if (!byPk) this.byChunk.set(id, (byPk = new Map()));
    byPk.set(pk, line);
  }

  /** The chunks to read before `apply`. */
  get chunkIds(): number[] {
    return [...this.byChunk.keys()];
  }

  /** The chunks as they must be stored, given those read (in `chunkIds` order). */
  apply(stored: readonly (SearchChunk | undefined)[]): { toPut: SearchChunk[]; toDelete: number[] } {
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
  /** Only the schema upgrades that ran before version 9 pass another width. */
  chunkBits = CHUNK_BITS,
): Promise<void> {
  const changes = new SearchLineChanges(puts, deletes, chunkBits);
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

/**
 * Splits chunks of `1 << fromBits` customers into today's narrower ones (schema version 9),
 * one stored chunk at a time so that a large cache is never all in memory. Highest first:
 * chunk k's lines go to keys from k << shift up, above k, where old chunks are gone by
 * then. A line stored in a chunk its pk does not belong to (none should be) is merged in
 * at the end, where it belongs.
 */
export async function narrowSearchChunks(table: EntityTable<SearchChunk, 'chunk'>, fromBits: number): Promise<void> {
  const shift = fromBits - CHUNK_BITS;
  if (shift < 0) throw new Error(`Search chunks can only be narrowed, not widened from ${fromBits} bits.`);
  const ids = ((await table.toCollection().primaryKeys()) as number[]).sort((a, b) => b - a);
  const misplaced: SearchFields[] = [];
  for (const id of ids) {
    const stored = await table.get(id);
    await table.delete(id);
    const byChunk = new Map<number, string[]>();
    for (const line of stored ? linesOf(stored) : []) {
      const pk = Number(line.slice(0, line.indexOf(' ')));
      if (chunkOf(pk, fromBits) !== id) {
        misplaced.push(parseSearchLine(line));
        continue;
      }
      let lines = byChunk.get(chunkOf(pk));
      if (!lines) byChunk.set(chunkOf(pk), (lines = []));
      // Lines were kept in pk order, so each narrower chunk's are too.
      lines.push(line);
    }
    await table.bulkPut([...byChunk].map(([chunk, lines]) => ({ chunk, lines: lines.join('\n') })));
  }
  if (misplaced.length > 0) await writeSearchLines(table, misplaced);
}
