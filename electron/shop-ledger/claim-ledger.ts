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
  /** How long a dropped token is remembered, so that a late copy of its claim is not taken back. */
  settledMemoryMs?: number;
}

const DEFAULTS = { maxClaims: 50_000, settledMemoryMs: 7 * 24 * 60 * 60 * 1000 };

/** What a ledger keeps on disk (`claim-store.ts`): its claims, and when each settled token was settled. */
export interface LedgerSnapshot {
  claims: Claim[];
  /** Token → when the service was known to hold its redemption (ms). */
  settled: Array<[string, number]>;
}

/** What `add` did with a claim. */
export type AddOutcome = 'added' | 'known' | 'settled' | 'full';

export class ClaimLedger {
  /** Token → till → claim: what a redemption asks about is one token. */
  readonly #byToken = new Map<string, Map<string, Claim>>();
  /**
   * Token → when the service was known to hold its redemption (ms). Its claims are kept (and
   * told to peers) for the rest of the shift: a till whose own copy was refused must still
   * learn which till redeemed it.
   */
  readonly #settled = new Map<string, number>();
  /** Token → when its claims were dropped (ms): a late copy is no longer taken. */
  readonly #dropped = new Map<string, number>();
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
    if (this.#dropped.has(claim.token)) return 'settled';
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
   * The service holds this redemption (the queued redeem was answered). Its claims are kept
   * until `prune` finds the shift over: another till's refused copy still names the winner.
   */
  settle(token: string, now: number): void {
    if (!this.#settled.has(token)) this.#settled.set(token, now);
  }

  /** Whether the service is known to hold this reward's redemption (its claims are kept a while yet). */
  isSettled(token: string): boolean {
    return this.#settled.has(token);
  }

  /**
   * Drops the claims of tokens settled more than `keepMs` ago (the shift is over), and
   * remembers the tokens for a while so that a peer still gossiping an old copy does not
   * bring them back. Whether anything changed.
   */
  prune(now: number, keepMs: number): boolean {
    let changed = false;
    for (const [token, at] of this.#settled) {
      if (now - at <= keepMs) continue;
      this.#size -= this.#byToken.get(token)?.size ?? 0;
      this.#byToken.delete(token);
      this.#settled.delete(token);
      this.#dropped.set(token, now);
      changed = true;
    }
    for (const [token, at] of this.#dropped) if (now - at > this.#settledMemoryMs) this.#dropped.delete(token);
    return changed;
  }

  /** What is kept on disk. */
  snapshot(): LedgerSnapshot {
    return { claims: this.all(), settled: [...this.#settled] };
  }

  /** Takes a snapshot read back from disk (validated by the store). */
  restore(snapshot: LedgerSnapshot): void {
    this.merge(snapshot.claims);
    for (const [token, at] of snapshot.settled) if (this.#byToken.has(token)) this.settle(token, at);
  }
}
