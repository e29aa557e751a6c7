/**
 * Checking a reward code while the service cannot be reached: answered from the cached
 * rewards, and always saying that it was (`source: 'cache'`, `cachedAt`). A code the
 * cache does not hold is "cannot be verified offline", never accepted. The answer is a
 * verdict, never words: the view layer words it (lib/rewards-words.ts).
 */
import type { Reward } from '../../../common/contract';
import { readPhone } from '../../../common/phone';
import { findCustomerById } from '../customers/customer-reads';
import { rewardKey, type CachedReward, type OfflineDb, type OutboxState } from '../db/schema';
import type { OfflineVerdict } from '../../vocabulary/rewards';

export type { OfflineVerdict };

export interface OfflineCheck {
  source: 'cache';
  verdict: OfflineVerdict;
  /** Upper-cased code. */
  code: string;
  phoneE164: string | null;
  reward: Reward | null;
  customerId: string | null;
  /** When the cached reward was fetched from the service: "checked against the cache of <time>". */
  cachedAt: string | null;
  pending: { outboxSeq: number; state: OutboxState; queuedAt: string } | null;
}

export interface OfflineCheckInput {
  code: string;
  /** As typed or scanned: international, or local in the till's country. */
  phone: string;
}

/**
 * Must run inside a transaction over `rewards`, `outbox` and `customers` when the answer
 * decides a write (the outbox does), so that nothing changes between check and write.
 */
export async function checkRewardOffline(
  db: OfflineDb,
  input: OfflineCheckInput,
  context: { defaultCountry: string; now: Date },
  /** The cached reward, already read in the caller's transaction (one request fewer). */
  read?: CachedReward,
): Promise<OfflineCheck> {
  const code = rewardKey(input.code);
  const phone = readPhone(input.phone, context.defaultCountry);
  const base = { source: 'cache' as const, code, phoneE164: phone?.e164 ?? null };
  const answer = (verdict: OfflineVerdict, extra: Partial<OfflineCheck> = {}): OfflineCheck => ({
    ...base,
    verdict,
    reward: null,
    customerId: null,
    cachedAt: null,
    pending: null,
    ...extra,
  });
  if (!phone) return answer('invalid_phone');

  const cached = read?.code === code ? read : await db.rewards.get(code);
  if (!cached) return answer('unverifiable');
  let ownerPhone = cached.phoneE164;
  if (!ownerPhone) ownerPhone = (await findCustomerById(db, cached.customerId))?.phoneE164 ?? null;
  // Without the owner's phone the cache cannot tell whether the code is this customer's.
  if (!ownerPhone) return answer('unverifiable');
  if (ownerPhone !== phone.e164) return answer('wrong_customer');

  const known = { reward: cached.reward, customerId: cached.customerId, cachedAt: cached.fetchedAt };
  if (cached.pendingOutboxSeq !== undefined) {
    const item = await db.outbox.get(cached.pendingOutboxSeq);
    if (item) {
      return answer('pending', {
        ...known,
        pending: { outboxSeq: item.seq!, state: item.state, queuedAt: item.queuedAt },
      });
    }
  }
  const { reward } = cached;
  if (reward.status === 'redeemed' || reward.redeemed_at !== null) return answer('redeemed', known);
  const expired =
    reward.status === 'expired' ||
    (reward.expires_at !== null && Date.parse(reward.expires_at) <= context.now.getTime());
  if (expired) return answer('expired', known);
  if (cached.noLongerListed) return answer('no_longer_listed', known);
  if (reward.status !== 'available') return answer('unverifiable', known);
  return answer('available', known);
}
