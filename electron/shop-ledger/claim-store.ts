import { isRecord } from '../../common/is-record';
import { readFileIfExists, writeFileAtomic } from '../storage/atomic-file';
import type { LedgerSnapshot } from './claim-ledger';
import { isClaim } from './claims';
import { isMacText } from './fields';

/**
 * The shop's claims as this till holds them, kept across a restart (docs/shop-ledger.md,
 * "What is kept on disk"): a till restarted while its link to another till is down must
 * still tell that till, when the link comes back, what it redeemed; and a till must still
 * hold what it learned from others. Tokens, till names, times and nonces only (nothing a
 * code can be read back from), yet written 0600 and atomically (a crash leaves the old file
 * or the new, never half of one), and bounded: a longer file is cut when read.
 */

/** Far above what a shop redeems in a shift; the ledger's own cap is the same. */
export const MAX_KEPT_CLAIMS = 50_000;
const VERSION = 1;

export interface ClaimStore {
  /** The shop's kept claims; none for another shop's file, a missing or unreadable one. */
  load(shopTag: string): Promise<LedgerSnapshot>;
  save(shopTag: string, snapshot: LedgerSnapshot): Promise<void>;
}

const EMPTY: LedgerSnapshot = { claims: [], settled: [] };

function isSettledEntry(value: unknown): value is [string, number] {
  return (
    Array.isArray(value) &&
    value.length === 2 &&
    isMacText(value[0]) &&
    Number.isSafeInteger(value[1]) &&
    (value[1] as number) > 0
  );
}

export function claimsFile(file: string): ClaimStore {
  return {
    async load(shopTag) {
      const raw = await readFileIfExists(file).catch(() => null);
      if (!raw) return EMPTY;
      try {
        const parsed: unknown = JSON.parse(raw.toString('utf8'));
        if (!isRecord(parsed) || parsed.v !== VERSION || parsed.shop !== shopTag) return EMPTY;
        const claims = Array.isArray(parsed.claims) ? parsed.claims.filter(isClaim).slice(0, MAX_KEPT_CLAIMS) : [];
        const settled = Array.isArray(parsed.settled)
          ? parsed.settled.filter(isSettledEntry).slice(0, MAX_KEPT_CLAIMS)
          : [];
        return { claims, settled };
      } catch {
        return EMPTY;
      }
    },
    async save(shopTag, snapshot) {
      const kept = {
        v: VERSION,
        shop: shopTag,
        claims: snapshot.claims.slice(0, MAX_KEPT_CLAIMS),
        settled: snapshot.settled.slice(0, MAX_KEPT_CLAIMS),
      };
      await writeFileAtomic(file, `${JSON.stringify(kept)}\n`, 0o600);
    },
  };
}
