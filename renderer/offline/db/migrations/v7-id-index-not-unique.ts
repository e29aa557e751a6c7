import type { Migration } from './migration';

/**
 * Version 7: the id index is no longer unique. IndexedDB read the index before adding each
 * entry to check it, which cost about 30% of a customer's write at a million; a fill now
 * learns which of its customers are stored from memory (stored-ids.ts). The index is built
 * again from the blocks as they are; nothing else changes
 * (docs/decisions/2026-11-24-id-index-not-unique.md).
 */
export const v7: Migration = { version: 7, stores: { customerBlocks: 'block, *ids, *phones' } };
