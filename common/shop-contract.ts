/**
 * What the bridge carries for the shop ledger (docs/shop-ledger.md): a reward's claim by a till
 * of the shop, the check, the claim and the holder, the shop's report, and the live list of
 * the shop's tills. Part of the bridge contract (contract.ts re-exports them).
 */

/** A reward's claim by a till of the shop: the till's name and when it claimed. */
export interface ShopClaimHolder {
  till: string;
  /** `toISOString` form, the claiming till's clock. */
  at: string;
}

export interface ShopRewardPayload {
  reward_code: string;
}

/** What the other tills of the shop know of a reward; `enabled: false` when no ledger runs. */
export interface ShopCheck {
  enabled: boolean;
  /** Another till's winning claim on the reward: this till must refuse it; null if none is known. */
  claimedBy: ShopClaimHolder | null;
  /**
   * Tills that did not answer in time, so their claims are unknown: by name when they answered
   * in the last hours, by address (`host:port`) while they never have.
   */
  unreachable: string[];
}

/** The claim that wins on the reward once this till has claimed it; null when no ledger runs. */
export interface ShopClaim {
  enabled: boolean;
  winner: ShopClaimHolder | null;
  /** Whether the winner is this till: when false, another till's claim stands and this one must refuse. */
  won: boolean;
  /** Tills that did not take the claim in time (named as in `ShopCheck`). */
  unreachable: string[];
}

/** Another till's claim on a reward as this till's ledger holds it, asking no one. */
export interface ShopHolder {
  holder: ShopClaimHolder | null;
}

// The shop's report (docs/shop-ledger.md, "The shop's report"): each till's figures for one
// period, gathered over the ledger's sealed transport. Flat lines: they cross the LAN.
/** Redemptions by state, as the end-of-shift report counts them. */
export interface ShopReportCounts {
  done: number;
  queued: number;
  conflict: number;
  failed: number;
  refused: number;
  /** Points deducted by the redemptions done. */
  points: number;
}

export interface ShopReportTotals extends ShopReportCounts {
  registrations: number;
  registrationsQueued: number;
  registrationsFailed: number;
  corrections: number;
}

/**
 * A till's outbox as it stands when its report is made (counts and an age, never an item): so
 * a manager at any till sees a till whose queue is stuck. Ages, not times: the tills' clocks
 * need not agree.
 */
export interface ShopOutboxFigures {
  waiting: number;
  failed: number;
  conflicts: number;
  /** How long ago the oldest item still in the outbox was queued, in minutes; null: none. */
  oldestMinutes: number | null;
}

/** One till's report as the shop's other tills receive it. */
export interface ShopReportPart {
  totals: ShopReportTotals;
  byReward: Array<ShopReportCounts & { reward: string }>;
  byCashier: Array<ShopReportCounts & { cashier: string | null; registrations: number; corrections: number }>;
  /** Absent from a till of an earlier version, which sends no outbox figures. */
  outbox?: ShopOutboxFigures;
}

/** The other tills' reports for a period; `silent`: tills of the shop that did not answer. */
export interface ShopReports {
  enabled: boolean;
  tills: Array<{ till: string; report: ShopReportPart }>;
  silent: string[];
}

/** A report another till asked this till for: from `since` (ISO) to now. */
export interface ShopReportRequest {
  /** The period asked for (ISO): the asking till's, so that every till reports the same one. */
  request: { id: number; since: string; until: string } | null;
}

/** `enabled: false` when this till keeps no shop ledger; `lastHeardAt` ISO, null when never. */
export interface ShopTills {
  enabled: boolean;
  tills: Array<{ till: string; reachable: boolean; lastHeardAt: string | null }>;
}
