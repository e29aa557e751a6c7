/**
 * The search chunks' lines as versions 2, 3 and 5 wrote them: `<pk> <phone digits> <folded
 * name words...>`, 1,024 customers to a record keyed by `pk >> 10` (copied from
 * search/search-chunks.ts and customers/customer-blocks.ts at commit feaa1bd; never edited,
 * see README.md).
 */
import type { Table } from 'dexie';
import type { StoredCustomer, StoredSearchChunk } from './rows';

const CHUNK_BITS = 10;

function chunkOf(pk: number): number {
  return pk >> CHUNK_BITS;
}

function lineOf(row: StoredCustomer): string {
  return [String(row.pk!), row.phoneE164.replace(/\D+/g, ''), ...row.nameWords].join(' ');
}

export function linesOf(chunk: StoredSearchChunk): string[] {
  return chunk.lines === '' ? [] : chunk.lines.split('\n');
}

/** The pk a line starts with. */
export function pkOfLine(line: string): number {
  return Number(line.slice(0, line.indexOf(' ')));
}

/** A line's phone digits ('' for none), without splitting its name words. */
export function phoneDigitsOfLine(line: string): string {
  const first = line.indexOf(' ');
  const second = line.indexOf(' ', first + 1);
  return line.slice(first + 1, second < 0 ? line.length : second);
}

/**
 * Puts the lines of `puts` and removes those of the pks `deletes`, inside the upgrade
 * transaction, each touched chunk read once and written whole.
 */
export async function writeSearchLines(
  table: Table<StoredSearchChunk, number>,
  puts: readonly StoredCustomer[],
  deletes: readonly number[] = [],
): Promise<void> {
  const byChunk = new Map<number, Map<number, string | null>>();
  const change = (pk: number, line: string | null): void => {
    let byPk = byChunk.get(chunkOf(pk));
    if (!byPk) byChunk.set(chunkOf(pk), (byPk = new Map()));
    byPk.set(pk, line);
  };
  for (const row of puts) change(row.pk!, lineOf(row));
  for (const pk of deletes) change(pk, null);
  const ids = [...byChunk.keys()];
  const stored = await table.bulkGet(ids);
  const toPut: StoredSearchChunk[] = [];
  const toDelete: number[] = [];
  ids.forEach((id, i) => {
    const lines = new Map<number, string>();
    const existing = stored[i];
    if (existing) for (const line of linesOf(existing)) lines.set(pkOfLine(line), line);
    for (const [pk, line] of byChunk.get(id)!) {
      if (line === null) lines.delete(pk);
      else lines.set(pk, line);
    }
    if (lines.size === 0) toDelete.push(id);
    else {
      const sorted = [...lines.entries()].sort((a, b) => a[0] - b[0]).map(([, line]) => line);
      toPut.push({ chunk: id, lines: sorted.join('\n') });
    }
  });
  if (toPut.length > 0) await table.bulkPut(toPut);
  if (toDelete.length > 0) await table.bulkDelete(toDelete);
}
