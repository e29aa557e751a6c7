/**
 * What the search chunks (search-chunks.ts) and the listing chunks (listings.ts) share:
 * records that each hold the customers of a range of pks, changed a customer at a time, and
 * written whole.
 */

/** Changes to customers' entries, grouped by the chunk that holds them: what to read first, then what to write. */
export class ChangesByChunk<Entry> {
  protected readonly byChunk = new Map<number, Map<number, Entry | null>>();

  constructor(private readonly chunkOf: (pk: number) => number) {}

  /** `entry` for `pk`, or null to remove it; the last change of a pk wins. */
  protected change(pk: number, entry: Entry | null): void {
    const id = this.chunkOf(pk);
    let byPk = this.byChunk.get(id);
    if (!byPk) this.byChunk.set(id, (byPk = new Map()));
    byPk.set(pk, entry);
  }

  /** The chunks to read before `apply`. */
  get chunkIds(): number[] {
    return [...this.byChunk.keys()];
  }
}

/** Chunks to store whole and chunks to delete. */
export interface ChunkWrites<Chunk> {
  toPut: Chunk[];
  toDelete: number[];
}

/** The writes of several changes of the same chunks, each chunk as the last one left it. */
export class PendingChunkWrites<Chunk> {
  private readonly puts = new Map<number, Chunk>();
  /** The stored form of a chunk put, where it was sealed ahead (db/sealed-tables.ts `sealAhead`). */
  private readonly sealed = new Map<number, Chunk>();
  private readonly deletes = new Set<number>();

  constructor(private readonly keyOf: (chunk: Chunk) => number) {}

  /** `sealed`, when given, holds the stored form of each of `writes.toPut`, in order. */
  add(writes: ChunkWrites<Chunk>, sealed?: readonly Chunk[]): void {
    writes.toPut.forEach((chunk, i) => {
      const id = this.keyOf(chunk);
      this.puts.set(id, chunk);
      if (sealed) this.sealed.set(id, sealed[i]!);
      else this.sealed.delete(id);
      this.deletes.delete(id);
    });
    for (const id of writes.toDelete) {
      this.puts.delete(id);
      this.sealed.delete(id);
      this.deletes.add(id);
    }
  }

  get writes(): ChunkWrites<Chunk> {
    return { toPut: [...this.puts.values()], toDelete: [...this.deletes] };
  }

  /** `writes.toPut`, each in its stored form where it was sealed ahead: what IndexedDB is sent. */
  get stored(): Chunk[] {
    return [...this.puts.entries()].map(([id, chunk]) => this.sealed.get(id) ?? chunk);
  }
}
