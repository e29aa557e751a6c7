/**
 * The bench page's databases, opened as the app opens its own: the data key from the real
 * bridge (`window.till.dataKey`) attached at every opening. `sealed: false` leaves the sealing
 * middleware out, as the till before sealing wrote (the key still attached, for what needs a
 * keyed digest): the figures measured both ways say what sealing costs.
 */
import { openOfflineDb } from '../../../renderer/offline/db/open';
import { keyAtEveryOpen } from '../../../renderer/offline/db/key-at-open';
import { SEALED_TABLES_MIDDLEWARE } from '../../../renderer/offline/db/sealed-tables';
import type { OfflineDb } from '../../../renderer/offline/db/schema';
import { legacyPhoneHash } from '../../../renderer/offline/search/phone-digests';
import { linesOf, phoneDigitsOfLine } from '../../../renderer/offline/search/search-chunks';

export function benchDb(name: string, options: { sealed?: boolean } = {}): OfflineDb {
  const db = openOfflineDb(name);
  if (options.sealed === false) db.unuse({ stack: 'dbcore', name: SEALED_TABLES_MIDDLEWARE });
  keyAtEveryOpen(db, { api: window.till });
  return db;
}

/**
 * Makes a database written with `sealed: false` what a till before sealing left: its phone
 * digests unkeyed, and no key check or sealing pass of its own, so the next opening with the
 * sealing on finds a database to seal.
 */
export async function asBeforeSealing(db: OfflineDb): Promise<void> {
  await db.transaction('rw', [db.phoneDigests, db.searchChunks, db.meta], async () => {
    for (const chunk of await db.searchChunks.toArray()) {
      const hashes = Uint32Array.from(linesOf(chunk), (line) => {
        const digits = phoneDigitsOfLine(line);
        return digits === '' ? 0 : legacyPhoneHash(digits);
      });
      await db.phoneDigests.put({ chunk: chunk.chunk, hashes });
    }
    await db.meta.bulkDelete(['keyCheck', 'sealingPass']);
  });
}
