import type { Migration } from './migration';

/**
 * Version 8: no phone index. The in-memory index answers an exact phone, and while it loads
 * the search chunks do; the index cost IndexedDB about a fifth of a fill's writing
 * (docs/decisions/2026-11-24-no-phone-index.md). Blocks written before keep a `phones`
 * field nothing reads, until they are next written.
 */
export const v8: Migration = { version: 8, stores: { customerBlocks: 'block, *ids' } };
