import type { Migration } from './migration';

/**
 * Version 10: every outbox item and journal entry gets an id of its own (`uid`), the same in
 * the main process's copy of them (docs/offline.md, "Two copies of the queue"), and every
 * journal entry the id of the item it came from (`outboxUid`), so that an item that left the
 * outbox can be told from one the database lost. Entries written before this version cannot
 * name their item's id (it had none): null, as for work that never waited.
 */
export const v10: Migration = {
  version: 10,
  stores: { outbox: '++seq, state, [state+seq], &uid', journal: '++seq, doneAt, &uid, outboxUid' },
  async upgrade(tx) {
    await tx
      .table('outbox')
      .toCollection()
      .modify((item: { uid?: string }) => {
        item.uid ??= crypto.randomUUID();
      });
    await tx
      .table('journal')
      .toCollection()
      .modify((entry: { uid?: string; outboxUid?: string | null }) => {
        entry.uid ??= crypto.randomUUID();
        entry.outboxUid ??= null;
      });
  },
};
