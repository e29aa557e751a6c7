import { compareClaims, type Claim } from './claims';

/**
 * The shop's claims as one till knows them: a grow-only set, one claim per reward token and
 * till. Two tills that have seen the same claims hold the same set, in whatever order the
 * claims came, which is what lets them gossip without a leader.
 *
 * Should one till claim the same token twice (a retry), the earlier claim is kept: keeping
 * the smaller of two is commutative, associative and idempotent, so merging stays so too.
 */

/** Keeps `claim` under `key` unless an earlier (or the same) claim is there already. */
function keepEarlier(kept: Map<string, Claim>, key: string, claim: Claim): boolean {
  const present = kept.get(key);
  if (present !== undefined && compareClaims(present, claim) <= 0) return false;
  kept.set(key, claim);
  return true;
}

/** The union of claim sets, as a list in `compareClaims` order: a pure function of the sets. */
export function mergeClaims(...sets: ReadonlyArray<readonly Claim[]>): Claim[] {
  const kept = new Map<string, Claim>();
  // Neither a token (base64url) nor a till name (no control characters) holds a NUL.
  for (const set of sets) for (const claim of set) keepEarlier(kept, `${claim.token}\u0000${claim.till}`, claim);
  return [...kept.values()].sort(compareClaims);
}

export interface ClaimLedgerOptions {
  /**
   * At most this many claims held. A shop's tills redeem a few hundred rewards in an outage;
   * the cap only stops a broken or hostile peer from filling the till's memory.
   */
  maxClaims?: number;
  /** How long a settled token is remembered, so that a late copy of its claim is not taken back. */
  settledMemoryMs?: number;
}

const DEFAULTS = { maxClaims: 50_000, settledMemoryMs: 7 * 24 * 60 * 60 * 1000 };

/** What `add` did with a claim. */
export type AddOutcome = 'added' | 'known' | 'settled' | 'full';

export class ClaimLedger {
  /** Token → till → claim: what a redemption asks about is one token. */
  readonly #byToken = new Map<string, Map<string, Claim>>();
  /** Token → when it was settled (ms): claims for it are no longer taken. */
  readonly #settled = new Map<string, number>();
  readonly #maxClaims: number;
  readonly #settledMemoryMs: number;
  #size = 0;

  constructor(options: ClaimLedgerOptions = {}) {
    this.#maxClaims = options.maxClaims ?? DEFAULTS.maxClaims;
    this.#settledMemoryMs = options.settledMemoryMs ?? DEFAULTS.settledMemoryMs;
  }

  get size(): number {
    return this.#size;
  }

  /** Takes one claim (already validated with `isClaim` when it came from a peer). */
  add(claim: Claim): AddOutcome {
    if (this.#settled.has(claim.token)) return 'settled';
    const tills = this.#byToken.get(claim.token) ?? new Map<string, Claim>();
    const replacing = tills.has(claim.till);
    if (!replacing && this.#size >= this.#maxClaims) return 'full';
    // A copy, so that a caller changing its object later cannot change the ledger.
    if (!keepEarlier(tills, claim.till, { ...claim })) return 'known';
    this.#byToken.set(claim.token, tills);
    if (!replacing) this.#size += 1;
    return 'added';
  }

  /** Takes every claim of another till's set; how many changed this ledger. */
  merge(claims: Iterable<Claim>): number {
    let changed = 0;
    for (const claim of claims) if (this.add(claim) === 'added') changed += 1;
    return changed;
  }

  /** The claims on one reward, earliest first: the first is the winner. */
  claimsFor(token: string): Claim[] {
    return [...(this.#byToken.get(token)?.values() ?? [])].sort(compareClaims).map((claim) => ({ ...claim }));
  }

  /** Claims made at or after `since` (an ISO time: they compare as strings), for a peer catching up. */
  since(since: string): Claim[] {
    return this.all().filter((claim) => claim.at >= since);
  }

  /** Every claim, in `compareClaims` order. */
  all(): Claim[] {
    const every: Claim[] = [];
    for (const tills of this.#byToken.values()) for (const claim of tills.values()) every.push({ ...claim });
    return every.sort(compareClaims);
  }

  /**
   * The service has settled this redemption (the queued redeem was answered): its claims
   * have done their work and are dropped, and the token is remembered for a while so that a
   * peer still gossiping an old copy does not bring them back.
   */
  settle(token: string, now: number): void {
    this.#size -= this.#byToken.get(token)?.size ?? 0;
    this.#byToken.delete(token);
    this.#settled.set(token, now);
    this.#forgetSettled(now);
  }

  #forgetSettled(now: number): void {
    for (const [token, at] of this.#settled) {
      if (now - at > this.#settledMemoryMs) this.#settled.delete(token);
    }
  }
}
