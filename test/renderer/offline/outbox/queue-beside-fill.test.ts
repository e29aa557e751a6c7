/**
 * "Queued" does not wait for a fill: a reward cached with its owner's phone and name is queued
 * in a transaction over the rewards and the outbox alone, so a write of the customer tables in
 * progress (the refresh's) does not hold it up. A reward cached by an earlier version, without
 * its owner's name, still queues, the long way, once that write is done.
 */
import { afterEach, expect, test } from 'vitest';
import { CustomerCache } from '../../../../renderer/offline/cache/customer-cache';
import { customerTables } from '../../../../renderer/offline/customers/customer-blocks';
import type { OfflineDb } from '../../../../renderer/offline/db/schema';
import { Outbox } from '../../../../renderer/offline/outbox/outbox';
import { customer, dropDb, freshDb, reward } from '../support/fixtures';

const SETTINGS = { allowOfflineRedemption: true, branchId: null, defaultCountry: 'SA' };
const opened: OfflineDb[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) await dropDb(db);
});

/** A write of the customer tables kept open, as a fill's is, until `release`. */
function holdCustomerTables(db: OfflineDb): { release(): void; done: Promise<void> } {
  let released = false;
  const done = db.transaction('rw', customerTables(db), async () => {
    // Requests keep an IndexedDB transaction alive; a pause without one would let it commit.
    while (!released) await db.meta.get('nextCustomerPk');
  });
  return { release: () => (released = true), done };
}

test('a reward that names its owner is queued while the customer tables are being written', async () => {
  const db = freshDb();
  opened.push(db);
  const cache = new CustomerCache(db, { defaultCountry: () => 'SA' });
  await cache.putCustomerWithRewards(
    customer('c-layla', 'Layla Haddad', '+966 50 123 4567', {
      rewards: [reward('RW-LAYLA001', 'c-layla'), reward('RW-LAYLA002', 'c-layla')],
    }),
    '2026-11-28T09:00:00.000Z',
  );
  expect(await db.rewards.get('RW-LAYLA001')).toMatchObject({ ownerName: 'Layla Haddad', phoneE164: '+966501234567' });
  const outbox = new Outbox(db, cache);

  const fill = holdCustomerTables(db);
  // Resolves while the customer tables are still held: were it to wait for them, this would never end.
  const queued = await outbox.queueRedemption({ code: 'RW-LAYLA001', phone: '0501234567' }, SETTINGS);
  fill.release();
  await fill.done;
  expect(queued).toMatchObject({ ok: true, item: { customerName: 'Layla Haddad', code: 'RW-LAYLA001' } });

  // As an earlier version cached it: no owner's name. It waits for the write, then queues.
  await db.rewards.update('RW-LAYLA002', { ownerName: undefined });
  const held = holdCustomerTables(db);
  let settled = false;
  const slow = outbox.queueRedemption({ code: 'RW-LAYLA002', phone: '0501234567' }, SETTINGS).then((outcome) => {
    settled = true;
    return outcome;
  });
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(settled).toBe(false);
  held.release();
  await held.done;
  expect(await slow).toMatchObject({ ok: true, item: { customerName: 'Layla Haddad' } });
});
