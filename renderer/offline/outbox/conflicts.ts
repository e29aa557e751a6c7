/**
 * A replayed redemption the service refused because the reward is no longer available, and
 * that was not this till's: kept as a conflict for a person, with what is known of it. Where
 * another till of the shop claimed the reward offline, the shop's ledger names that till.
 */
import type { Reward, TillApi } from '../../../common/contract';
import { customerTables } from '../customers/customer-blocks';
import type { CustomerCache } from '../cache/customer-cache';
import type { Attribution, OfflineDb, OutboxNote, RedemptionItem } from '../db/schema';
import { askShopHolder } from './shop-holder';

export interface ConflictDeps {
  db: OfflineDb;
  api: Pick<TillApi, 'shopHolder'>;
  cache: Pick<CustomerCache, 'putReward'>;
}

/** Keeps the item as a conflict; the cache learns the service's view of the reward. */
export async function recordConflict(
  { db, api, cache }: ConflictDeps,
  item: RedemptionItem,
  reward: Reward | null,
  found: Attribution,
): Promise<void> {
  const claimedBy =
    found.verdict === 'not_found' || found.verdict === 'not_redeemed' ? null : await askShopHolder(api, item.code);
  const attribution = claimedBy ? { ...found, claimedBy } : found;
  const note = conflictNoteOf(attribution, reward?.status);
  await db.transaction('rw', [db.outbox, db.rewards, ...customerTables(db)], async () => {
    await db.outbox.update(item.seq!, (row) => {
      if (row.kind !== 'redeem') return;
      Object.assign(row, { state: 'conflict', serviceReward: reward, attribution, note, nextAttemptAt: null });
    });
    // The pending mark stays until a person acknowledges.
    if (reward) await cache.putReward(reward, item.phoneE164);
  });
}

/**
 * Conflicts recorded before this till learned which till of the shop holds the reward (the
 * service's refusal came before the claims synced after a split): named now, from the
 * ledger, so the Outbox, the journal and the CSV name the till whatever the order was.
 */
export async function nameConflictsFromShop({ db, api }: Pick<ConflictDeps, 'db' | 'api'>): Promise<void> {
  const unnamed = (await db.outbox.where('state').equals('conflict').toArray()).filter(
    (item): item is RedemptionItem =>
      item.kind === 'redeem' &&
      item.attribution !== null &&
      item.attribution !== undefined &&
      !item.attribution.claimedBy &&
      (item.attribution.verdict === 'no_unanswered_attempt' || item.attribution.verdict === 'outside_attempts'),
  );
  for (const item of unnamed) {
    const claimedBy = await askShopHolder(api, item.code);
    if (!claimedBy || !item.attribution) continue;
    const attribution = { ...item.attribution, claimedBy };
    const note = conflictNoteOf(attribution, item.serviceReward?.status);
    await db.outbox.update(item.seq!, (row) => {
      if (row.kind === 'redeem' && row.state === 'conflict') Object.assign(row, { attribution, note });
    });
  }
}

/** A conflict's note: what reconciliation found, and the reward's status at the service where it said. */
function conflictNoteOf(attribution: Attribution, status: string | undefined): OutboxNote {
  return status ? { code: 'conflict', attribution, status } : { code: 'conflict', attribution };
}

/** Another till of the shop that claimed the reward, from the ledger this till keeps; null if none or off. */
/** The service holds the redemption: the shop's claims on it have done their work. Best effort. */
export function settleInShop(api: Pick<TillApi, 'shopSettle'>, code: string): void {
  void Promise.resolve()
    .then(() => api.shopSettle({ reward_code: code }))
    .catch((failure: unknown) => console.warn('The shop ledger could not settle a claim', failure));
}
