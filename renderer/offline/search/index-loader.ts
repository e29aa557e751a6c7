/**
 * Fills the in-memory search index from IndexedDB in the background, a few packed chunks
 * of search lines (search-chunks.ts) at a time in `pk` order, yielding to the page between
 * reads so the cashier's screen never freezes. It loads before the listings; how long each
 * takes: docs/decisions/2026-11-26-index-before-listings.md (the latest figures: figure 2 of
 * docs/benchmark.md).
 */
import type { OfflineDb } from '../db/schema';
import { pagesInKeyOrder } from '../db/pages-in-key-order';
import { linesOf, parseSearchLine } from './search-chunks';
import type { SlimSearchIndex } from './search-index';

export interface IndexLoadProgress {
  loaded: number;
  done: boolean;
}

export interface IndexLoadOptions {
  /** Chunks (of 1,024 customers) read per IndexedDB request: a short task each. */
  pageSize?: number;
  /** Gives the page a turn between reads; a macrotask by default. */
  yieldToPage?: () => Promise<void>;
  /** Rows already indexed at a newer state by write-through while the load ran. */
  skip?: (pk: number) => boolean;
  onProgress?: (progress: IndexLoadProgress) => void;
  signal?: AbortSignal;
}

export const DEFAULT_INDEX_PAGE_SIZE = 4;

/**
 * Gives the page a turn: `scheduler.yield()` where the browser has it (input and paint
 * run first, without the 4 ms clamp of nested timers), a macrotask otherwise.
 */
export function yieldToBrowser(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

export async function loadSearchIndex(
  db: OfflineDb,
  index: SlimSearchIndex,
  options: IndexLoadOptions = {},
): Promise<IndexLoadProgress> {
  const pageSize = options.pageSize ?? DEFAULT_INDEX_PAGE_SIZE;
  const yieldToPage = options.yieldToPage ?? yieldToBrowser;
  let loaded = 0;
  let aborted = false;
  // The page's turn comes before each read, the first too: a cashier who searches as the
  // till starts reads before the load does (a search in progress holds it back).
  const pages = pagesInKeyOrder(
    db.searchChunks,
    pageSize,
    (chunk) => chunk.chunk,
    async () => {
      await yieldToPage();
      aborted = options.signal?.aborted === true;
      return !aborted;
    },
  );
  index.beginBulkLoad();
  let finished = false;
  try {
    for await (const chunks of pages) {
      for (const chunk of chunks) {
        for (const line of linesOf(chunk)) {
          const fields = parseSearchLine(line);
          if (!options.skip?.(fields.pk)) index.upsert(fields);
          loaded += 1;
        }
      }
      if (chunks.length === pageSize) options.onProgress?.({ loaded, done: false });
    }
    if (aborted) return { loaded, done: false };
    await index.endBulkLoad(yieldToPage);
    finished = true;
  } finally {
    // Stopped early: still leave a usable (partial) index behind.
    if (!finished) await index.endBulkLoad(yieldToPage);
  }
  const progress = { loaded, done: true };
  options.onProgress?.(progress);
  return progress;
}
